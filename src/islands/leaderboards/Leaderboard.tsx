import { useStore } from '@nanostores/react';
import { useEffect, useReducer, useRef, useState, type MouseEvent } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { UserAvatar } from '../../components/UserAvatar.tsx';
import { createApiClient, errorMessage, HTTPError } from '../../lib/api/client.ts';
import {
  deletePlayerEntry,
  deleteTeamEntry,
  getLeaderboard,
  type StatsGame,
} from '../../lib/api/leaderboards.ts';
import {
  DEFAULT_SORT,
  formatWinRate,
  LEADERBOARD_LIMIT,
  LEADERBOARD_SORTS,
  LEADERBOARD_TABS,
  leaderboardHref,
  parseSort,
  placeLabel,
  type LeaderboardSort,
  type LeaderboardTab,
} from '../../lib/domain/leaderboard.ts';
import { displayRating } from '../../lib/domain/rank.ts';
import { formatNumber } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { useHydrated, useHydratedStore } from '../../lib/hooks/hydration.ts';
import { api } from '../../lib/stores/api.ts';
import { $isAdmin } from '../../lib/stores/session.ts';
import { $lbSortPlayers, $lbSortTeams, $lbTab, storedSort, storeSort } from './preferences.ts';
import { TeamLogo } from '../../components/TeamLogo.tsx';
import { Badges, Streak } from './cells.tsx';
import { FACT, FACTS, FACTS_ROW } from '../../components/facts.ts';
import { initialViewState, isLoading, rowsOf, startingView, viewOfAddress, viewReducer, wantedRequest, type Entries, type Row } from './view.ts';

/** Leaderboards are public: read without a token, so every reader shares the cached answers. */
const publicApi = createApiClient({ baseUrl: import.meta.env.PUBLIC_API_URL ?? '/api' });

type Message = { tone: 'success' | 'error'; text: string };

interface Props {
  games: StatsGame[];
  gameId: string;
  tab: LeaderboardTab;
  sort: LeaderboardSort;
  entries: Entries;
  /** Whether the address named the tab / the sort; otherwise the reader's stored choice wins. */
  explicit: { tab: boolean; sort: boolean };
}

/**
 * The leaderboards of one game (SPEC §2 Leaderboards): game links, Players / Teams tabs and a
 * sort per tab, rendered on the server so it reads without JavaScript (links and a form). Once
 * running, it switches tab and sort in place, keeps them in localStorage and the address, and
 * gives admins a delete button per row.
 */
export default function Leaderboard({ games, gameId, tab: initialTab, sort: initialSort, entries: initialEntries, explicit }: Props) {
  const hydrated = useHydrated();
  const isAdmin = useHydratedStore($isAdmin, false);
  const storedTab = useStore($lbTab);
  const storedPlayersSort = useStore($lbSortPlayers);
  const storedTeamsSort = useStore($lbSortTeams);
  const sortOf = (each: LeaderboardTab) => (each === 'players' ? storedPlayersSort : storedTeamsSort);

  const [state, dispatch] = useReducer(viewReducer, initialViewState({ tab: initialTab, sort: initialSort }, initialEntries));
  const wanted = wantedRequest(state, startingView({ hydrated, address: { tab: initialTab, sort: initialSort }, explicit, storedTab, storedSort: sortOf }));
  const { loaded } = state;
  const loading = isLoading(state, wanted);
  const [busy, setBusy] = useState<string | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  const request = useRef(0);
  const game = games.find((g) => g._id === gameId);

  useEffect(() => {
    if (!hydrated || !loading) return;
    const ticket = ++request.current;
    const next = { tab: wanted.tab, sort: wanted.sort, refresh: wanted.refresh };
    getLeaderboard(publicApi, next.tab, gameId, { sort: next.sort, limit: LEADERBOARD_LIMIT }, next.refresh > 0)
      .then((entries) => {
        if (ticket !== request.current) return;
        dispatch({ type: 'loaded', request: next, entries });
        const href = leaderboardHref({ game: gameId, tab: next.tab, sort: next.sort });
        if (`${window.location.pathname}${window.location.search}` !== href) window.history.replaceState(null, '', href);
      })
      .catch((error: unknown) => {
        // SPEC §8: a failed leaderboard load is only logged; the table stays as it was.
        console.error('[leaderboards]', error);
        if (ticket === request.current) dispatch({ type: 'failed', request: next });
      });
  }, [hydrated, loading, wanted.tab, wanted.sort, wanted.refresh, gameId]);

  useEffect(() => {
    const onPop = () => dispatch({ type: 'choose', view: viewOfAddress(window.location.search, storedSort) });
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), 3000);
    return () => clearTimeout(timer);
  }, [message]);

  function chooseTab(event: MouseEvent<HTMLAnchorElement>, next: LeaderboardTab) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    $lbTab.set(next);
    if (next === wanted.tab) return;
    const view = { tab: next, sort: sortOf(next) };
    dispatch({ type: 'choose', view });
    window.history.pushState(null, '', leaderboardHref({ game: gameId, ...view }));
  }

  function chooseSort(next: LeaderboardSort) {
    storeSort(wanted.tab, next);
    dispatch({ type: 'choose', view: { tab: wanted.tab, sort: next } });
  }

  async function remove(row: Row) {
    if (!row.ownerId) return;
    const question = loaded.tab === 'players' ? 'leaderboards.confirmDeletePlayer' : 'leaderboards.confirmDeleteTeam';
    if (!window.confirm(t(question, { name: row.name }))) return;
    setBusy(row.key);
    try {
      const done = loaded.tab === 'players' ? await deletePlayerEntry(api, row.ownerId, gameId) : await deleteTeamEntry(api, row.ownerId, gameId);
      setMessage({ tone: 'success', text: done.message });
      dispatch({ type: 'reload' });
    } catch (error) {
      const text =
        error instanceof HTTPError
          ? t('leaderboards.deleteFailed', { message: errorMessage(error, error.response.statusText || String(error.response.status)) })
          : t('leaderboards.deleteError', { message: error instanceof Error ? error.message : String(error) });
      setMessage({ tone: 'error', text });
    } finally {
      setBusy(null);
    }
  }

  // Controls show what was asked for; the table shows what has arrived (dimmed while the next loads).
  const { tab, sort } = wanted;
  const rows = rowsOf(loaded.tab, loaded.entries);
  const nameHeader = loaded.tab === 'players' ? t('leaderboards.col.player') : t('leaderboards.col.team');

  return (
    <div className="flex flex-col gap-5">
      <nav aria-label={t('leaderboards.games')}>
        <ul className="flex flex-wrap gap-2">
          {games.map((g) => (
            <li key={g._id}>
              <a
                href={leaderboardHref({ game: g._id, tab, sort })}
                aria-current={g._id === gameId ? 'page' : undefined}
                className={g._id === gameId ? 'btn-primary' : 'btn-ghost'}
              >
                {g.name}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="flex flex-wrap items-end justify-between gap-3">
        <nav aria-label={t('leaderboards.tabs')}>
          <ul className="flex gap-1 rounded-lg border border-line bg-surface p-1">
            {LEADERBOARD_TABS.map((each) => (
              <li key={each}>
                <a
                  href={leaderboardHref({ game: gameId, tab: each, sort: each === tab ? sort : hydrated ? sortOf(each) : DEFAULT_SORT })}
                  onClick={(event) => chooseTab(event, each)}
                  aria-current={each === tab ? 'page' : undefined}
                  className={`btn px-4 py-1.5 ${each === tab ? 'bg-primary text-primary-fg' : 'text-fg hover:bg-surface-2'}`}
                >
                  {t(`leaderboards.tab.${each}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <form method="get" action="/leaderboards" className="flex max-w-full flex-wrap items-end gap-2" onSubmit={(event) => event.preventDefault()}>
          <input type="hidden" name="game" value={gameId} />
          {tab !== 'players' && <input type="hidden" name="tab" value={tab} />}
          <div className="flex max-w-full min-w-0 flex-col gap-1 text-sm font-medium">
            <label htmlFor="leaderboard-sort">{t('leaderboards.sortLabel')}</label>
            <select id="leaderboard-sort" name="sort" className="field py-1.5" value={sort} onChange={(event) => chooseSort(parseSort(event.target.value))}>
              {LEADERBOARD_SORTS.map((each) => (
                <option key={each} value={each}>
                  {t(`leaderboards.sort.${each}`)}
                </option>
              ))}
            </select>
          </div>
          {!hydrated && (
            <button type="submit" className="btn-ghost py-1.5">
              {t('leaderboards.apply')}
            </button>
          )}
        </form>
      </div>

      {message && <Notice tone={message.tone}>{message.text}</Notice>}

      {rows.length === 0 ? (
        <p className="card text-muted">{t(loaded.tab === 'players' ? 'leaderboards.emptyPlayers' : 'leaderboards.emptyTeams')}</p>
      ) : (
        <div className={`card p-0 transition-opacity ${loading ? 'opacity-60' : ''}`} aria-busy={loading}>
          <table className="w-full border-collapse text-sm">
            <caption className="sr-only">{t('leaderboards.caption', { game: game?.name ?? '', tab: t(`leaderboards.tab.${loaded.tab}`) })}</caption>
            <thead>
              <tr className="border-b border-line text-left text-xs text-muted uppercase">
                <th scope="col" className="w-px py-3 pl-3 font-semibold whitespace-nowrap sm:pl-4">
                  <span className="sr-only sm:not-sr-only">{t('leaderboards.col.place')}</span>
                  <span aria-hidden="true" className="sm:hidden">
                    #
                  </span>
                </th>
                <th scope="col" className="w-full px-2 py-3 font-semibold">
                  {nameHeader}
                </th>
                <th scope="col" className="hidden w-px px-2 py-3 font-semibold whitespace-nowrap md:table-cell">
                  {t('leaderboards.col.rank')}
                </th>
                <th scope="col" className="w-px px-2 py-3 text-right font-semibold whitespace-nowrap">
                  {t('leaderboards.col.rating')}
                </th>
                <th scope="col" className="hidden w-px px-2 py-3 text-right font-semibold whitespace-nowrap sm:table-cell">
                  {t('leaderboards.col.wins')}
                </th>
                <th scope="col" className="hidden w-px px-2 py-3 text-right font-semibold whitespace-nowrap sm:table-cell">
                  {t('leaderboards.col.winRate')}
                </th>
                <th scope="col" className="hidden w-px px-2 py-3 text-right font-semibold whitespace-nowrap sm:table-cell">
                  {t('leaderboards.col.streak')}
                </th>
                <th scope="col" className="hidden min-w-40 px-2 py-3 text-right font-semibold whitespace-nowrap lg:table-cell">
                  {t('leaderboards.col.achievements')}
                </th>
                {isAdmin && (
                  <th scope="col" className="w-px py-3 pr-3 pl-2 text-right font-semibold sm:pr-4">
                    <span className="sr-only">{t('leaderboards.col.actions')}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const place = index + 1;
                return (
                  <tr key={row.key} className="border-b border-line/60 last:border-b-0">
                    <td className="py-3 pl-3 align-middle sm:pl-4">
                      <span aria-hidden="true" className={place <= 3 ? 'text-xl' : 'font-mono text-muted'}>
                        {placeLabel(place)}
                      </span>
                      <span className="sr-only">{place}</span>
                    </td>
                    <td className="max-w-0 px-2 py-3 align-middle">
                      <div className="flex min-w-0 items-center gap-2">
                        {row.picture?.kind === 'user' && <UserAvatar user={row.picture.user} size="md" showName={false} className="shrink-0" />}
                        {row.picture?.kind === 'team' && <TeamLogo src={row.picture.logoUrl} name={row.picture.name} size="small" />}
                        <div className="flex min-w-0 flex-col">
                          {row.href ? (
                            <a href={row.href} className="truncate font-semibold" title={row.name}>
                              {row.name}
                            </a>
                          ) : (
                            <span className={`truncate font-semibold ${row.known ? '' : 'text-muted italic'}`} title={row.name}>
                              {row.name}
                            </span>
                          )}
                          {/* On a phone the columns it hides come here, wrapping with no «·» at a line's end (components/facts.ts). */}
                          <span className={`${FACTS} text-xs text-muted`}>
                            <span className={FACTS_ROW}>
                              <span className={`${FACT} md:hidden`}>{row.stats.rankTitle}</span>
                              <span className={`${FACT} sm:hidden`}>
                                <Streak value={row.stats.currentStreak} />
                              </span>
                              <span className={`${FACT} sm:hidden`}>
                                {t('leaderboards.col.wins')}: {row.stats.matchesWon}
                              </span>
                              <span className={`${FACT} sm:hidden`}>{formatWinRate(row.stats.winRate)}</span>
                              <span className={FACT}>{t('leaderboards.matchesPlayed', { count: row.stats.matchesPlayed })}</span>
                            </span>
                          </span>
                          {row.achievements.length > 0 && (
                            <div className="mt-1 lg:hidden">
                              <Badges items={row.achievements} align="start" idPrefix={`m-${row.key}`} />
                            </div>
                          )}
                        </div>
                      </div>
                    </td>
                    <td className="hidden px-2 py-3 align-middle whitespace-nowrap md:table-cell">{row.stats.rankTitle}</td>
                    <td className="px-2 py-3 text-right align-middle font-mono font-semibold tabular-nums">{formatNumber(displayRating(row.stats.ranking))}</td>
                    <td className="hidden px-2 py-3 text-right align-middle tabular-nums sm:table-cell">{formatNumber(row.stats.matchesWon)}</td>
                    <td className="hidden px-2 py-3 text-right align-middle whitespace-nowrap tabular-nums sm:table-cell">{formatWinRate(row.stats.winRate)}</td>
                    <td className="hidden px-2 py-3 text-right align-middle whitespace-nowrap sm:table-cell">
                      <Streak value={row.stats.currentStreak} />
                    </td>
                    <td className="hidden px-2 py-3 align-middle lg:table-cell">
                      <Badges items={row.achievements} align="end" idPrefix={`d-${row.key}`} />
                    </td>
                    {isAdmin && (
                      <td className="py-3 pr-3 pl-2 text-right align-middle sm:pr-4">
                        {row.ownerId && (
                          <button
                            type="button"
                            className="btn-ghost px-2 py-1 text-danger"
                            disabled={busy !== null}
                            aria-label={t('leaderboards.deleteLabel', { name: row.name })}
                            title={t('leaderboards.deleteLabel', { name: row.name })}
                            onClick={() => void remove(row)}
                          >
                            <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
                              <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
                            </svg>
                            <span className="hidden xl:inline">{t('leaderboards.delete')}</span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
