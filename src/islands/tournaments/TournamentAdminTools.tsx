import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { deleteApplication, setApplicationStatus } from '../../lib/api/applications.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { getTournament, setWinner, type TournamentApplication, type TournamentDetail } from '../../lib/api/tournaments.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';
import { winnerRefusal, winnerTypeOf } from '../../lib/domain/tournament-winner.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $isAdmin } from '../../lib/stores/session.ts';
import { useHydrated } from '../../lib/stores/hydration.ts';

/** The name an application goes by: the team's, or the player's for solo. */
export const applicantName = (a: TournamentApplication) => a.team?.name ?? a.user.username;

const stateTone = {
  pending: 'text-warning',
  approved: 'text-success',
  rejected: 'text-danger',
} as const;

/**
 * Admin controls on a tournament page: every application with approve, reject and delete (after a
 * confirmation), and the choose-winner control once the tournament is finished (SPEC §2, §4).
 * Renders nothing for anyone else. The page reloads after a change, so the server-rendered
 * participants and winner show it.
 */
export default function TournamentAdminTools({ tournamentId }: { tournamentId: string }) {
  // Until hydrated, render what the server did (nothing), so hydration always matches.
  const hydrated = useHydrated();
  const storedAdmin = useStore($isAdmin);
  const isAdmin = hydrated && storedAdmin;
  const [detail, setDetail] = useState<TournamentDetail | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [choice, setChoice] = useState('');

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

  const approved = detail.applications.filter((a) => a.status === 'approved' && Boolean(a.team) === !detail.soloOnly);
  const candidates = approved.map((a) => ({ id: detail.soloOnly ? a.user._id : a.team!._id, name: applicantName(a) }));
  const refusal = winnerRefusal({
    tournament: { status: detail.status, soloOnly: detail.soloOnly, hasWinner: Boolean(detail.winner) },
    participants: candidates.map((c) => c.id),
  });
  const finished = normalizeStatus(detail.status) === 'finished';

  return (
    <section aria-labelledby="admin-tools-title" className="card flex flex-col gap-4 border-accent">
      <h2 id="admin-tools-title" className="text-lg font-bold">
        {t('applications.allTitle')}
      </h2>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
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
                {a.status !== 'approved' && (
                  <button type="button" className="btn-ghost px-3 py-1" disabled={busy} onClick={() => void act(() => setApplicationStatus(api, a._id, { status: 'approved' }), t('applications.statusError'))}>
                    {t('applications.approve')}
                  </button>
                )}
                {a.status !== 'rejected' && (
                  <button type="button" className="btn-ghost px-3 py-1" disabled={busy} onClick={() => void act(() => setApplicationStatus(api, a._id, { status: 'rejected' }), t('applications.statusError'))}>
                    {t('applications.reject')}
                  </button>
                )}
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
              </span>
            </li>
          ))}
        </ul>
      )}

      {finished && refusal === 'noParticipants' && <Notice tone="error">{t('applications.warnNoParticipants')}</Notice>}
      {refusal === null && (
        <form
          className="flex flex-col gap-2 sm:flex-row sm:items-end"
          onSubmit={(event) => {
            event.preventDefault();
            const picked = candidates.find((c) => c.id === choice);
            if (!picked || !window.confirm(t('winner.confirm', { name: picked.name }))) return;
            void act(() => setWinner(api, tournamentId, { winnerType: winnerTypeOf(detail.soloOnly), winnerId: picked.id }), t('winner.error'));
          }}
        >
          <label className="flex flex-1 flex-col gap-1 text-sm font-medium">
            {t('winner.title')}
            <select className="field" value={choice} onChange={(e) => setChoice(e.target.value)} required>
              <option value="">{t('winner.placeholder')}</option>
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn-primary" disabled={busy || !choice}>
            {t('winner.save')}
          </button>
        </form>
      )}
    </section>
  );
}
