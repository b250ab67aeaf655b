import { persistentAtom } from '@nanostores/persistent';
import { DEFAULT_SORT, DEFAULT_TAB, LEADERBOARD_STORAGE, parseSort, parseTab, type LeaderboardSort, type LeaderboardTab } from '../../lib/domain/leaderboard.ts';

const plain = { encode: (value: string) => value };

/** The leaderboards' chosen tab and each tab's sort, kept in localStorage as plain words (lb_tab, lb_sort_players, lb_sort_teams). */
export const $lbTab = persistentAtom<LeaderboardTab>(LEADERBOARD_STORAGE.tab, DEFAULT_TAB, { ...plain, decode: parseTab });
export const $lbSortPlayers = persistentAtom<LeaderboardSort>(LEADERBOARD_STORAGE.sortPlayers, DEFAULT_SORT, { ...plain, decode: parseSort });
export const $lbSortTeams = persistentAtom<LeaderboardSort>(LEADERBOARD_STORAGE.sortTeams, DEFAULT_SORT, { ...plain, decode: parseSort });

/** The stored sort of a tab. */
export const storedSort = (tab: LeaderboardTab) => (tab === 'players' ? $lbSortPlayers : $lbSortTeams).get();

/** Remembers a tab's sort. */
export const storeSort = (tab: LeaderboardTab, sort: LeaderboardSort) => (tab === 'players' ? $lbSortPlayers : $lbSortTeams).set(sort);
