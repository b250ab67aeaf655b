import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { deleteApplication, setApplicationStatus } from '../../lib/api/applications.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { getTournament, type TournamentApplication, type TournamentDetail } from '../../lib/api/tournaments.ts';
import { reviewRefusal, type Review } from '../../lib/domain/application-rules.ts';
import { isDrawn } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $isAdmin } from '../../lib/stores/session.ts';
import { useHydrated } from '../../lib/hooks/hydration.ts';

/** The name an application goes by: the team's, or the player's for solo. */
export const applicantName = (a: TournamentApplication) => a.team?.name ?? a.user.username;

const stateTone = {
  pending: 'text-warning',
  approved: 'text-success',
  rejected: 'text-danger',
} as const;

/**
 * Admin controls on a tournament page: every application with approve, reject and delete (after a
 * confirmation), SPEC §2, §4. Once the bracket is drawn the lineup is fixed, so only the actions
 * `reviewRefusal` still allows are offered. The choose-winner control sits by the winner block
 * (WinnerControl). Renders nothing for anyone else. The page reloads after a change, so the
 * server-rendered participants show it.
 */
export default function TournamentAdminTools({ tournamentId }: { tournamentId: string }) {
  // Until hydrated, render what the server did (nothing), so hydration always matches.
  const hydrated = useHydrated();
  const storedAdmin = useStore($isAdmin);
  const isAdmin = hydrated && storedAdmin;
  const [detail, setDetail] = useState<TournamentDetail | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Bumped after a failed change, so the applications are fetched again.
  const [version, setVersion] = useState(0);

  useEffect(() => {
    if (!isAdmin) return;
    let live = true;
    getTournament(api, tournamentId)
      .then((fresh) => live && setDetail(fresh))
      .catch((error: unknown) => live && setMessage({ tone: 'error', text: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [isAdmin, tournamentId, version]);

  if (!isAdmin) return null;
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

  return (
    <section aria-labelledby="admin-tools-title" className="card flex flex-col gap-4 border-accent">
      <h2 id="admin-tools-title" className="text-lg font-bold">
        {t('applications.allTitle')}
      </h2>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {drawn && detail.applications.length > 0 && <p className="text-sm text-muted">{t('applications.refused.lineupFixed')}</p>}
      {detail.applications.length === 0 ? (
        <p className="text-sm text-muted">{t('applications.empty')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line">
          {detail.applications.map((a) => (
            <li key={a._id} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:justify-between">
              <span>
                <span className="font-medium">{applicantName(a)}</span>{' '}
                <span className={`text-sm ${stateTone[a.status]}`}>{t(`applications.state.${a.status}`)}</span>
              </span>
              <span className="flex flex-wrap gap-2">
                {allowed(a, 'approved') && (
                  <button type="button" className="btn-ghost px-3 py-1" disabled={busy} onClick={() => void act(() => setApplicationStatus(api, a._id, { status: 'approved' }), t('applications.statusError'))}>
                    {t('applications.approve')}
                  </button>
                )}
                {allowed(a, 'rejected') && (
                  <button type="button" className="btn-ghost px-3 py-1" disabled={busy} onClick={() => void act(() => setApplicationStatus(api, a._id, { status: 'rejected' }), t('applications.statusError'))}>
                    {t('applications.reject')}
                  </button>
                )}
                {allowed(a, 'deleted') && (
                  <button
                    type="button"
                    className="btn-ghost px-3 py-1 text-danger"
                    disabled={busy}
                    aria-label={`${t('applications.delete')}: ${applicantName(a)}`}
                    onClick={() => {
                      if (window.confirm(t('applications.confirmDelete', { name: applicantName(a) }))) {
                        void act(() => deleteApplication(api, a._id), t('applications.deleteError'));
                      }
                    }}
                  >
                    {t('applications.delete')}
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}

    </section>
  );
}
