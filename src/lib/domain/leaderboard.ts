import { formatPercent } from '../i18n/format.ts';
import type { Locale } from '../i18n/core.ts';

/** Choices and labels of the leaderboards page (SPEC §2 Leaderboards, §9), shared by the page, its island and the API. */

export const LEADERBOARD_TABS = ['players', 'teams'] as const;
export type LeaderboardTab = (typeof LEADERBOARD_TABS)[number];
export const DEFAULT_TAB: LeaderboardTab = 'players';

export const LEADERBOARD_SORTS = ['rating_desc', 'rating_asc', 'wins_desc', 'winrate_desc'] as const;
export type LeaderboardSort = (typeof LEADERBOARD_SORTS)[number];
export const DEFAULT_SORT: LeaderboardSort = 'rating_desc';

/** Rows per leaderboard (SPEC §9) and the most one request may ask for. */
export const LEADERBOARD_LIMIT = 50;
export const LEADERBOARD_MAX_LIMIT = 100;

/** localStorage keys of the chosen tab and of each tab's sort (SPEC §9 leaves the names to us). */
export const LEADERBOARD_STORAGE = { tab: 'lb_tab', sortPlayers: 'lb_sort_players', sortTeams: 'lb_sort_teams' } as const;

/** The tab a query value names; Players for anything else. */
export const parseTab = (value: string | null | undefined): LeaderboardTab => LEADERBOARD_TABS.find((tab) => tab === value) ?? DEFAULT_TAB;

/** The sort a query value names; rating, highest first, for anything else. */
export const parseSort = (value: string | null | undefined): LeaderboardSort => LEADERBOARD_SORTS.find((sort) => sort === value) ?? DEFAULT_SORT;

/** The address of one view of the page: game, tab and sort in the query, defaults left out. */
export function leaderboardHref(view: { game?: string | null | undefined; tab: LeaderboardTab; sort: LeaderboardSort }): string {
  const query = new URLSearchParams();
  if (view.game) query.set('game', view.game);
  if (view.tab !== DEFAULT_TAB) query.set('tab', view.tab);
  if (view.sort !== DEFAULT_SORT) query.set('sort', view.sort);
  const search = query.toString();
  return search ? `/leaderboards?${search}` : '/leaderboards';
}

const MEDALS = ['🥇', '🥈', '🥉'] as const;

/** The place column: medals for 1–3, `#n` after (`place` counts from 1). */
export const placeLabel = (place: number): string => MEDALS[place - 1] ?? `#${place}`;

/** The streak column: 🔥 n for a run of wins, ❄️ n for a run of losses, — for none. */
export const streakLabel = (streak: number): string => (streak > 0 ? `🔥 ${streak}` : streak < 0 ? `❄️ ${Math.abs(streak)}` : '—');

/** Win rate (0–100) with one decimal, in the reader's language: «66,7%» / "66.7%". */
export const formatWinRate = (rate: number, locale?: Locale): string => formatPercent(rate, { locale, fractionDigits: 1 });
