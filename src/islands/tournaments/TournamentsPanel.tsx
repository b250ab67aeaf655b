import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { listGames, type Game } from '../../lib/api/games.ts';
import { getStages } from '../../lib/api/stages.ts';
import { createTournament, deleteTournament, updateTournament, type Tournament, type TournamentInput } from '../../lib/api/tournaments.ts';
import { listTournaments } from '../../lib/api/tournament-list.ts';
import { TOURNAMENT_PAGE_SIZE } from '../../lib/domain/tournament-list.ts';
import { formatDay } from '../../lib/domain/tournament-dates.ts';
import { normalizeStatus, statusLabelKey, type TournamentStatus } from '../../lib/domain/tournament-status.ts';
import { t } from '../../lib/i18n/index.ts';
import { usePages } from '../../lib/hooks/pages.ts';
import { api } from '../../lib/stores/api.ts';
import { $gamesVersion } from '../../lib/stores/games-changed.ts';
import { TournamentForm } from '../../components/TournamentForm.tsx';
import { useAdminTask } from '../../lib/hooks/use-admin-task.ts';

const statusTone = { pending: 'text-warning', started: 'text-success', finished: 'text-muted' } as const;

/** The next status a quick button moves a tournament to, with its label. */
const NEXT: Partial<Record<TournamentStatus, { status: TournamentStatus; label: 'manage.start' | 'manage.finish' }>> = {
  pending: { status: 'started', label: 'manage.start' },
  started: { status: 'finished', label: 'manage.finish' },
};

/**
 * Admin: the tournament form (create, which then opens the new tournament's page, or edit the
 * chosen one) and the tournament management block: a list filtered by game with edit, start (asking
 * first when no stage is drawn) or finish, delete (after a confirmation) and a link to the page where
 * participants are reviewed and the winner chosen (SPEC §2 Admin panel).
 */
export default function TournamentsPanel() {
  const [games, setGames] = useState<Game[]>([]);
  const [gameFilter, setGameFilter] = useState('');
  const [editing, setEditing] = useState<Tournament | null>(null);
  const { busy, message, setMessage, run: runTask, refuse: invalid } = useAdminTask();
  // While «Розпочати» asks the API whether the tournament has a stage drawn.
  const [checking, setChecking] = useState(false);

  // Bumped after every change, so the list is fetched again.
  const [version, setVersion] = useState(0);

  const gamesVersion = useStore($gamesVersion);
  useEffect(() => {
    let live = true;
    listGames(api)
      .then((result) => live && setGames(Array.isArray(result) ? result : []))
      .catch((error: unknown) => live && setMessage({ tone: 'error', text: t('manage.error', { message: errorMessage(error, t('games.loadError')) }) }));
    return () => {
      live = false;
    };
  }, [gamesVersion, setMessage]);

  // The last answer stays up while a change reloads the list, so the rows do not blink.
  const { shown: list, loading, loadMore, moreBusy, moreError } = usePages(
    JSON.stringify([gameFilter, version]),
    (offset) => listTournaments(api, { ...(gameFilter ? { game: gameFilter } : {}), limit: TOURNAMENT_PAGE_SIZE, offset }),
    { errorText: t('tournaments.loadError'), invalidText: t('tournaments.invalidData') },
  );

  // Whatever happened, the list is fetched again: a failed change may still have changed something.
  const run = async (task: () => Promise<{ message: string }>, fallback: string, after?: () => void) => {
    const done = await runTask(task, fallback, after);
    setVersion((v) => v + 1);
    return done;
  };

  const save = (body: TournamentInput) =>
    editing
      ? run(() => updateTournament(api, editing._id, body), t('manage.saveError'), () => setEditing(null))
      : // The organiser goes on to the new tournament's page, where its applications and stages are run.
        run(
          () =>
            createTournament(api, body).then((saved) => {
              window.location.assign(`/tournaments/${saved.tournament._id}`);
              return saved;
            }),
          t('manage.saveError'),
        );

  /** Starts a tournament; one with no stage (bracket) drawn yet only after the organiser confirms it. */
  async function start(tournament: Tournament) {
    setChecking(true);
    setMessage(null);
    let drawn: boolean;
    try {
      const { state } = await getStages(api, tournament._id, undefined, true);
      drawn = (state?.stages.length ?? 0) > 0;
    } catch (error) {
      setMessage({ tone: 'error', text: t('manage.error', { message: errorMessage(error, t('manage.drawCheckError')) }) });
      return;
    } finally {
      setChecking(false);
    }
    if (drawn || window.confirm(t('manage.confirmStartUndrawn'))) moveOn(tournament, 'started');
  }

  function moveOn(tournament: Tournament, status: TournamentStatus) {
    void run(
      () =>
        updateTournament(api, tournament._id, { title: tournament.title, date: tournament.date, game: tournament.game, status }).then(() => ({
          message: t('manage.statusChanged', { title: tournament.title, status: t(`status.${status}`) }),
        })),
      t('manage.saveError'),
    );
  }

  return (
    <>
      <section aria-labelledby="tournament-form-title" className="card flex flex-col gap-4">
        <h2 id="tournament-form-title" className="text-xl font-bold">
          {editing ? t('manage.editTournament', { title: editing.title }) : t('manage.newTournament')}
        </h2>
        <TournamentForm
          key={editing?._id ?? `new-${gameFilter}`}
          games={games}
          defaultGame={gameFilter}
          busy={busy}
          onSubmit={save}
          onInvalid={invalid}
          {...(editing ? { tournament: editing, onCancel: () => setEditing(null) } : {})}
        />
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
      </section>

      <section aria-labelledby="tournament-list-title" className="card flex flex-col gap-4">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="tournament-list-title" className="text-xl font-bold">
            {t('admin.tournamentList')}
          </h2>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t('manage.gameFilter')}
            <select className="field" value={gameFilter} onChange={(e) => setGameFilter(e.target.value)}>
              <option value="">{t('manage.allGames')}</option>
              {games.map((g) => (
                <option key={g._id} value={g._id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {list === null ? (
          <p className="text-sm text-muted">{t('manage.loading')}</p>
        ) : list.kind === 'error' ? (
          <Notice tone="error">{t('manage.error', { message: list.message })}</Notice>
        ) : list.items.length === 0 ? (
          <p className="text-sm text-muted">{t('manage.noTournaments')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-line">
            {list.items.map((tournament) => {
              const status = normalizeStatus(tournament.status);
              const next = status ? NEXT[status] : undefined;
              return (
                <li key={tournament._id} className="flex flex-col gap-2 py-3 lg:flex-row lg:items-center lg:justify-between">
                  <div className="flex min-w-0 flex-col gap-0.5">
                    <a href={`/tournaments/${tournament._id}`} className="truncate font-semibold">
                      {tournament.title}
                    </a>
                    <span className="text-xs text-muted">
                      {tournament.gameName} · {formatDay(tournament.date)} · {t(tournament.soloOnly ? 'tournaments.soloLabel' : 'tournaments.teamLabel')} ·{' '}
                      <span className={status ? statusTone[status] : ''}>{t(statusLabelKey(tournament.status))}</span>
                      {status === 'finished' &&
                        ` · ${tournament.winner ? t('manage.winnerIs', { name: tournament.winner.name }) : t('manage.winnerMissing')}`}
                    </span>
                  </div>
                  <div className="flex flex-wrap gap-2">
                    <button
                      type="button"
                      className="btn-ghost px-3 py-1"
                      aria-label={`${t('manage.edit')}: ${tournament.title}`}
                      onClick={() => {
                        setEditing(tournament);
                        setMessage(null);
                        document.getElementById('tournament-form-title')?.scrollIntoView({ behavior: 'smooth' });
                      }}
                    >
                      {t('manage.edit')}
                    </button>
                    {next && (
                      <button
                        type="button"
                        className="btn-ghost px-3 py-1"
                        disabled={busy || checking}
                        onClick={() => (next.status === 'started' ? void start(tournament) : moveOn(tournament, next.status))}
                      >
                        {t(next.label)}
                      </button>
                    )}
                    <button
                      type="button"
                      className="btn-ghost px-3 py-1 text-danger"
                      disabled={busy}
                      aria-label={`${t('manage.delete')}: ${tournament.title}`}
                      onClick={() => {
                        if (window.confirm(t('manage.confirmDeleteTournament', { title: tournament.title }))) {
                          void run(() => deleteTournament(api, tournament._id), t('manage.deleteTournamentError'), () => {
                            if (editing?._id === tournament._id) setEditing(null);
                          });
                        }
                      }}
                    >
                      {t('manage.delete')}
                    </button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {list?.kind === 'loaded' && <ShowMore more={list.more} busy={moreBusy || loading} error={moreError} onMore={() => void loadMore()} />}
      </section>
    </>
  );
}
