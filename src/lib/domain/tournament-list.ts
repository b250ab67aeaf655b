import { normalizeStatus } from './tournament-status.ts';

/** Type filter buttons of the tournament list (SPEC §2): all, solo only, team only. */
export const TYPE_FILTERS = ['all', 'solo', 'team'] as const;
export type TypeFilter = (typeof TYPE_FILTERS)[number];

/** Status select: all; upcoming (pending, scheduled); started (in progress); finished (finished, completed, done). */
export const STATUS_FILTERS = ['all', 'upcoming', 'started', 'finished'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export const SORT_ORDERS = ['date_desc', 'date_asc', 'title_asc', 'title_desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

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

/** The fields of a tournament the list rules look at. */
export interface ListedTournament {
  title: string;
  date: string;
  status: string;
  soloOnly: boolean;
}

/** The `soloOnly` query value for a type filter: omitted for all. */
export function soloOnlyQuery(type: TypeFilter): boolean | undefined {
  return type === 'all' ? undefined : type === 'solo';
}

/** Whether a tournament belongs to the status group chosen in the select. */
export function matchesStatus(status: string, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  const normalized = normalizeStatus(status);
  const group = normalized === 'pending' ? 'upcoming' : normalized;
  return group === filter;
}

export function matchesType(soloOnly: boolean, filter: TypeFilter): boolean {
  return filter === 'all' || (filter === 'solo') === soloOnly;
}

const titleCollator = new Intl.Collator('uk', { sensitivity: 'base', numeric: true });

function timeOf(date: string): number {
  const time = Date.parse(date);
  return Number.isNaN(time) ? 0 : time;
}

/** The tournaments that pass both filters, in the chosen order; the input is left as it was. */
export function arrangeTournaments<T extends ListedTournament>(list: readonly T[], prefs: ListPreferences): T[] {
  const shown = list.filter((t) => matchesType(t.soloOnly, prefs.type) && matchesStatus(t.status, prefs.status));
  const byDate = (a: T, b: T) => timeOf(a.date) - timeOf(b.date);
  const byTitle = (a: T, b: T) => titleCollator.compare(a.title, b.title);
  const compare: Record<SortOrder, (a: T, b: T) => number> = {
    date_desc: (a, b) => byDate(b, a) || byTitle(a, b),
    date_asc: (a, b) => byDate(a, b) || byTitle(a, b),
    title_asc: (a, b) => byTitle(a, b) || byDate(b, a),
    title_desc: (a, b) => byTitle(b, a) || byDate(b, a),
  };
  return shown.sort(compare[prefs.sort]);
}
