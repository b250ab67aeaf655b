import { useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { enableStats, listTournamentStats, type MatchRecorded, type TournamentStats } from '../../lib/api/tournament-stats.ts';
import { showDefaultImage } from '../../components/fallback-image.ts';
import { gameImage } from '../../lib/domain/game-image.ts';
import { displayRating } from '../../lib/domain/rank.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { TOURNAMENT_PAGE_SIZE } from '../../lib/domain/tournament-list.ts';
import { normalizeStatus, statusLabelKey } from '../../lib/domain/tournament-status.ts';
import { t } from '../../lib/i18n/index.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { usePages } from '../../lib/hooks/pages.ts';
import { api } from '../../lib/stores/api.ts';
import { $gamesVersion } from '../../lib/stores/games-changed.ts';
import { RecordMatchModal } from './RecordMatchModal.tsx';
import { useAdminTask } from '../../lib/hooks/use-admin-task.ts';

const statusTone = { pending: 'border-warning text-warning', started: 'border-success text-success', finished: 'border-line text-muted' } as const;

/** «✅ Результат матчу записано. ann: рейтинг 1016 (+16)»: the winner's new standing. */
function recordedSummary(result: MatchRecorded): string {
  const winner = result.participants.find((p) => p.isWinner) ?? result.participants[0];
  const change = Math.round(winner.ratingChange);
  return t('stats.recordedSummary', {
    message: result.message,
    name: winner.name,
    rating: displayRating(winner.rating),
    change: change >= 0 ? `+${change}` : String(change),
  });
}

/**
 * Admin: the tournament statistics panel (SPEC §2). A card per tournament with its picture,
 * title, game, status, date, description and whether statistics are on; «Увімкнути статистику»
 * while off (the game must have statistics configured), «Записати результат матчу» while on,
 * closed for finished tournaments.
 */
export default function TournamentStatsPanel() {
  const [recording, setRecording] = useState<TournamentStats | null>(null);
  const { busy, message, setMessage, run } = useAdminTask();
  // The card a message is about (shown there, beside its buttons); null: the panel's own (a failed load).
  const [messageFor, setMessageFor] = useState<string | null>(null);
  // Bumped when games or their configurations change elsewhere on the page.
  const gamesVersion = useHydratedStore($gamesVersion, 0);

  // The last answer stays up while a change reloads the list, so the cards do not blink.
  const { shown: list, loading, loadMore, moreBusy, moreError, update } = usePages(
    String(gamesVersion),
    (offset) => listTournamentStats(api, { limit: TOURNAMENT_PAGE_SIZE, offset }),
    { errorText: t('stats.loadError') },
  );

  function enable(tournament: TournamentStats) {
    setMessageFor(tournament._id);
    // The card changes in place: reloading would fold the list back to its first page, losing a card further down.
    void run(async () => {
      const done = await enableStats(api, tournament._id);
      update((items) => items.map((item) => (item._id === done.tournament._id ? done.tournament : item)));
      return done;
    }, t('stats.enableError'));
  }

  return (
    <section aria-labelledby="tournament-stats-title" className="card flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="tournament-stats-title" className="text-xl font-bold">
          {t('stats.panelTitle')}
        </h2>
        <p className="text-sm text-muted">{t('stats.panelLead')}</p>
      </div>
      {message && messageFor === null && <Notice tone={message.tone}>{message.text}</Notice>}
      {list === null ? (
        <p className="text-sm text-muted">{t('stats.loading')}</p>
      ) : list.kind === 'error' ? (
        <Notice tone="error">{t('manage.error', { message: list.message })}</Notice>
      ) : list.items.length === 0 ? (
        <p className="text-sm text-muted">{t('stats.noTournaments')}</p>
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2 2xl:grid-cols-3">
          {list.items.map((tournament) => {
            const status = normalizeStatus(tournament.status);
            const finished = status === 'finished';
            const titleId = `stats-card-${tournament._id}`;
            return (
              <li key={tournament._id} aria-labelledby={titleId} className="flex flex-col overflow-hidden rounded-card border border-line bg-surface-2/40">
                <img
                  src={gameImage(tournament.imageUrl ?? tournament.image)}
                  onError={showDefaultImage}
                  alt=""
                  width={640}
                  height={270}
                  loading="lazy"
                  className="aspect-[64/27] w-full bg-surface-2 object-cover"
                />
                <div className="flex flex-1 flex-col gap-3 p-4">
                  <div className="flex flex-col gap-1">
                    <h3 id={titleId} className="text-lg leading-tight font-bold">
                      <a href={`/tournaments/${tournament._id}`} className="text-fg">
                        {tournament.title}
                      </a>
                    </h3>
                    <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                      <span>{t('stats.game', { game: tournament.gameName })}</span>
                      <span className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold ${status ? statusTone[status] : 'border-line text-muted'}`}>
                        {t(statusLabelKey(tournament.status))}
                      </span>
                    </p>
                    <p className="text-sm text-muted">
                      <time dateTime={tournament.date}>{formatDateTime(tournament.date)}</time>
                    </p>
                  </div>
                  {tournament.description && <p className="line-clamp-3 text-sm text-fg/90">{tournament.description}</p>}
                  <p className={`flex items-center gap-2 text-sm font-semibold ${tournament.statsEnabled ? 'text-success' : 'text-muted'}`}>
                    <span aria-hidden="true" className={`size-2.5 rounded-full ${tournament.statsEnabled ? 'bg-success' : 'bg-muted'}`} />
                    {tournament.statsEnabled ? t('stats.on') : t('stats.off')}
                  </p>
                  <div className="mt-auto flex flex-col gap-2">
                    {message && messageFor === tournament._id && <Notice tone={message.tone}>{message.text}</Notice>}
                    {tournament.statsEnabled ? (
                      <>
                        <button
                          type="button"
                          className="btn-primary self-start"
                          disabled={finished || busy}
                          onClick={() => {
                            setMessage(null);
                            setRecording(tournament);
                          }}
                        >
                          {t('stats.record')}
                        </button>
                        {finished && <p className="text-xs text-muted">{t('stats.finishedNote')}</p>}
                      </>
                    ) : (
                      <>
                        <button type="button" className="btn-ghost self-start" disabled={busy} onClick={() => enable(tournament)}>
                          {t('stats.enable')}
                        </button>
                        <p className="text-xs text-muted">
                          {tournament.gameHasStats ? t('stats.enableNote') : `${t('stats.enableNote')} ${t('stats.gameNotConfigured', { game: tournament.gameName })}`}
                        </p>
                      </>
                    )}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {list?.kind === 'loaded' && <ShowMore more={list.more} busy={moreBusy || loading} error={moreError} onMore={() => void loadMore()} />}
      {recording && (
        <RecordMatchModal
          tournament={recording}
          onClose={() => setRecording(null)}
          onRecorded={(result) => {
            setRecording(null);
            setMessageFor(recording._id);
            setMessage({ tone: 'success', text: t('manage.success', { message: recordedSummary(result) }) });
          }}
        />
      )}
    </section>
  );
}
