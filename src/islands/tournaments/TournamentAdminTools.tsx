import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ApplicationList, STATUS_TONE } from '../../components/ApplicationList.tsx';
import { reviewApplication } from '../../lib/api/applications.ts';
import { errorMessage } from '../../lib/api/client.ts';
import type { TournamentApplication, TournamentDetail } from '../../lib/api/tournaments.ts';
import { reviewRefusal, type Review } from '../../lib/domain/application-rules.ts';
import { isDrawn } from '../../lib/domain/bracket.ts';
import { applicantName } from '../../lib/domain/participant.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { adminDetail } from './admin-detail.ts';

/**
 * The organisers' controls on a tournament page (an admin, or its staff: decision 016): every
 * application with approve, reject and delete (after a confirmation), SPEC §2, §4. Once the
 * bracket is drawn the lineup is fixed, so only the actions `reviewRefusal` still allows are
 * offered. The choose-winner control sits by the winner block (WinnerControl). Renders nothing for
 * anyone else. The page reloads after a change, so the server-rendered participants show it.
 */
export default function TournamentAdminTools({ tournamentId, hostId = null }: { tournamentId: string; hostId?: string | null }) {
  // Until hydrated, render what the server did (nothing), so hydration always matches.
  const organises = useCanOrganise(tournamentId, hostId);
  const [detail, setDetail] = useState<TournamentDetail | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Bumped after a failed change, so the applications are fetched again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!organises) return;
    let live = true;
    adminDetail(tournamentId, version > 0)
      .then((fresh) => live && setDetail(fresh))
      .catch((error: unknown) => live && setMessage({ tone: 'error', text: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [organises, tournamentId, version]);

  if (!organises) return null;
  if (!detail) return message ? <Notice tone="error">{message.text}</Notice> : <p className="text-sm text-muted">{t('manage.loading')}</p>;

  async function act(run: () => Promise<{ message: string }>, fallback: string) {
    setBusy(true);
    setMessage(null);
    try {
      await run();
      window.location.reload();
    } catch (error) {
      setMessage({ tone: 'error', text: t('applications.failed', { message: errorMessage(error, fallback) }) });
      setVersion((v) => v + 1);
      setBusy(false);
    }
  }

  const drawn = isDrawn(detail.bracket);
  const allowed = (a: TournamentApplication, to: Review) => a.status !== to && reviewRefusal({ bracketDrawn: drawn, from: a.status, to }) === null;
  const pending = detail.applications.filter((a) => a.status === 'pending' && allowed(a, 'approved'));

  /** Approves every pending application in the order they came, one request each; the first refusal stops the rest. */
  const approveAll = () =>
    act(async () => {
      for (const a of pending) await reviewApplication(api, a._id, 'approved');
      return { message: '' };
    }, t('applications.statusError'));

  return (
    <section aria-labelledby="admin-tools-title" className="card flex flex-col gap-4 border-accent">
      <h2 id="admin-tools-title" className="text-lg font-bold">
        {t('applications.allTitle')}
      </h2>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {drawn && detail.applications.length > 0 && <p className="text-sm text-muted">{t('applications.refused.lineupFixed')}</p>}
      {pending.length > 1 && (
        <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void approveAll()}>
          {t('applications.approveAll', { count: pending.length })}
        </button>
      )}
      {detail.applications.length === 0 ? (
        <p className="text-sm text-muted">{t('applications.empty')}</p>
      ) : (
        <ApplicationList
          applications={detail.applications}
          label={applicantName}
          allowed={allowed}
          busy={busy}
          onReview={(a, to) => void act(() => reviewApplication(api, a._id, to), t(to === 'deleted' ? 'applications.deleteError' : 'applications.statusError'))}
          describe={(a) => (
            <span>
              <span className="font-medium">{applicantName(a)}</span>{' '}
              <span className={`text-sm ${STATUS_TONE[a.status]}`}>{t(`applications.state.${a.status}`)}</span>
              {detail.checkInEnabled && (a.status === 'approved' || a.status === 'waitlisted') && (
                <span className={`text-sm ${a.checkedInAt ? 'text-success' : 'text-muted'}`}> · {t(a.checkedInAt ? 'applications.checkedIn' : 'applications.notCheckedIn')}</span>
              )}
            </span>
          )}
        />
      )}
    </section>
  );
}
