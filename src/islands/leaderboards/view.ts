import type { AchievementBadge, GeneralStats, PlayerEntry, TeamEntry } from '../../lib/api/leaderboards.ts';
import { parseSort, parseTab, type LeaderboardSort, type LeaderboardTab } from '../../lib/domain/leaderboard.ts';
import { profilePath } from '../../lib/domain/participant.ts';
import { t } from '../../lib/i18n/index.ts';

/*
 * Which leaderboard the island shows and which it is fetching, as a pure reducer, so that
 * Leaderboard.tsx only renders and runs the effects (fetch, history, localStorage).
 * The controls show the wanted view at once; the table keeps the loaded one until the next arrives.
 */

export type Entries = PlayerEntry[] | TeamEntry[];
/** A tab with its sort. */
export type View = { tab: LeaderboardTab; sort: LeaderboardSort };
/** One fetch: a view, and how many times it was reloaded (after a deletion the same view is asked again). */
export type Request = View & { refresh: number };

export interface ViewState {
  /** What the reader asked for by a click or by going back; null until then. */
  chosen: View | null;
  refresh: number;
  /** What the table shows. */
  loaded: Request & { entries: Entries };
  /** The request that failed last (its answer is not asked again until something changes). */
  failed: string | null;
}

export type ViewAction =
  | { type: 'choose'; view: View }
  /** After a deletion: the view on the table again, fetched fresh. */
  | { type: 'reload' }
  | { type: 'loaded'; request: Request; entries: Entries }
  | { type: 'failed'; request: Request };

export const requestKey = (request: Request): string => `${request.tab}|${request.sort}|${request.refresh}`;

/** The state of a server-rendered leaderboard: `view` with its `entries` on the table. */
export const initialViewState = (view: View, entries: Entries): ViewState => ({
  chosen: null,
  refresh: 0,
  loaded: { ...view, refresh: 0, entries },
  failed: null,
});

export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  switch (action.type) {
    case 'choose':
      return { ...state, chosen: action.view };
    case 'reload':
      return { ...state, chosen: { tab: state.loaded.tab, sort: state.loaded.sort }, refresh: state.refresh + 1 };
    case 'loaded':
      return { ...state, loaded: { ...action.request, entries: action.entries } };
    case 'failed':
      return { ...state, failed: requestKey(action.request) };
  }
}

/**
 * The view before the reader chooses one: on the server (and until hydrated) the address's;
 * then the address where it named the tab or sort, else the reader's stored choice.
 */
export function startingView(input: {
  hydrated: boolean;
  address: View;
  explicit: { tab: boolean; sort: boolean };
  storedTab: LeaderboardTab;
  storedSort: (tab: LeaderboardTab) => LeaderboardSort;
}): View {
  const { hydrated, address, explicit } = input;
  if (!hydrated) return address;
  const tab = explicit.tab ? address.tab : input.storedTab;
  return { tab, sort: explicit.sort ? address.sort : input.storedSort(tab) };
}

/** The request the island wants answered now. */
export const wantedRequest = (state: ViewState, starting: View): Request => ({ ...(state.chosen ?? starting), refresh: state.refresh });

/** Whether the wanted request still has to arrive: not on the table yet and not failed already. */
export function isLoading(state: ViewState, wanted: Request): boolean {
  const key = requestKey(wanted);
  return key !== requestKey(state.loaded) && key !== state.failed;
}

/** The view an address names (going back or forward): its tab, and its sort or the tab's stored one. */
export function viewOfAddress(search: string, storedSort: (tab: LeaderboardTab) => LeaderboardSort): View {
  const query = new URLSearchParams(search);
  const tab = parseTab(query.get('tab'));
  return { tab, sort: query.has('sort') ? parseSort(query.get('sort')) : storedSort(tab) };
}

/** One line of the table, a player's or a team's: a deleted owner shows as unknown, without a picture. */
export interface Row {
  key: string;
  ownerId: string | null;
  name: string;
  /** The owner's profile (issue 23); null for one deleted. */
  href: string | null;
  known: boolean;
  picture: { kind: 'user'; user: { _id: string; username: string; avatar: string | null } } | { kind: 'team'; name: string; logoUrl: string | null } | null;
  stats: GeneralStats;
  achievements: AchievementBadge[];
}

export function rowsOf(tab: LeaderboardTab, entries: Entries): Row[] {
  if (tab === 'players') {
    return (entries as PlayerEntry[]).map((e) => ({
      key: e._id,
      ownerId: e.userId?._id ?? null,
      name: e.userId?.username || t('leaderboards.unknownPlayer'),
      href: e.userId ? profilePath('user', e.userId._id) : null,
      known: Boolean(e.userId?.username),
      picture: e.userId ? { kind: 'user', user: e.userId } : null,
      stats: e.generalStats,
      achievements: e.achievements,
    }));
  }
  return (entries as TeamEntry[]).map((e) => ({
    key: e._id,
    ownerId: e.teamId?._id ?? null,
    name: e.teamId?.name || t('leaderboards.unknownTeam'),
    href: e.teamId ? profilePath('team', e.teamId._id) : null,
    known: Boolean(e.teamId?.name),
    picture: e.teamId ? { kind: 'team', name: e.teamId.name, logoUrl: e.teamId.logoUrl } : null,
    stats: e.generalStats,
    achievements: e.achievements,
  }));
}
