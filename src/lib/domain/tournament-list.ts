import type { TournamentStatus } from './tournament-status.ts';

/** Type filter buttons of the tournament list (SPEC §2): all, solo only, team only. */
export const TYPE_FILTERS = ['all', 'solo', 'team'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

/** Status select: all; upcoming (pending, scheduled); started (in progress); finished (finished, completed, done). */
export const STATUS_FILTERS = ['all', 'upcoming', 'started', 'finished'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_ORDERS = ['date_desc', 'date_asc', 'title_asc', 'title_desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * What a tournament list may be narrowed and ordered by (GET /tournaments): the API client sends
 * it and `listQuery` builds it, so it is defined here, where the list's words are.
 */
export type TournamentListQuery = {
  game?: string;
  /** Only the tournaments this organisation hosts (issue 56). */
  organisation?: string;
  soloOnly?: boolean;
  status?: TournamentStatus;
  /** A moment (ISO 8601) or a Date: only tournaments on or after it. */
  from?: string | Date;
  sort?: SortOrder;
  limit?: number;
  offset?: number;
};

export interface ListPreferences {
  type: TypeFilter;
  status: StatusFilter;
  sort: SortOrder;
}

/** What the reset button restores, and what a first visit shows (SPEC §9). */
export const DEFAULT_PREFERENCES: ListPreferences = { type: 'all', status: 'all', sort: 'date_desc' };

/** localStorage keys of the three choices (SPEC §9). */
export const PREFERENCE_KEYS = { type: 'tl_filter', status: 'tl_status', sort: 'tl_sort' } as const;

const oneOf =
  <T extends string>(values: readonly T[], fallback: T) =>
  (value: string | null | undefined): T =>
    values.includes(value as T) ? (value as T) : fallback;

/** A stored or typed value read back safely: anything unknown becomes the default. */
export const parseTypeFilter = oneOf(TYPE_FILTERS, DEFAULT_PREFERENCES.type);
export const parseStatusFilter = oneOf(STATUS_FILTERS, DEFAULT_PREFERENCES.status);
export const parseSortOrder = oneOf(SORT_ORDERS, DEFAULT_PREFERENCES.sort);

/** The `soloOnly` query value for a type filter: omitted for all. */
export function soloOnlyQuery(type: TypeFilter): boolean | undefined {
  return type === 'all' ? undefined : type === 'solo';
}

/** The `status` query value for a status group: stored statuses are normalised, so upcoming is pending. */
export function statusQuery(filter: StatusFilter): TournamentStatus | undefined {
  return filter === 'all' ? undefined : filter === 'upcoming' ? 'pending' : filter;
}

/** The address segment of the list of every game's tournaments: `/games/all` (issue 57). */
export const ALL_GAMES = 'all';

/** The list query of a game's list (or of every game's, `ALL_GAMES`) for the three choices: the server filters, sorts and pages. */
export function listQuery(gameId: string, prefs: ListPreferences): TournamentListQuery {
  const soloOnly = soloOnlyQuery(prefs.type);
  const status = statusQuery(prefs.status);
  return {
    ...(gameId === ALL_GAMES ? {} : { game: gameId }),
    ...(soloOnly === undefined ? {} : { soloOnly }),
    ...(status === undefined ? {} : { status }),
    ...(prefs.sort === DEFAULT_PREFERENCES.sort ? {} : { sort: prefs.sort }),
  };
}

/** Cards per page of a game's list: fills rows of one, two and three columns alike. */
export const TOURNAMENT_PAGE_SIZE = 24;
