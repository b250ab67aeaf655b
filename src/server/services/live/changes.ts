/**
 * What data a write changed and what data an answer shows, named by the same tags (decision 033).
 *
 * A service that changes something a guest can see says so with `changed(...)`; an answer that
 * shows data says which with `shows(...)`. The held answers (serving/answer-cache.ts) and the held
 * sessions follow from the two alone: no list of routes says which write empties which page. Tags
 * are coarse on purpose: the frequent writes of match day (a result, a report, a check-in, an
 * application) name one tournament, and the rare ones (a game renamed, a team's logo) name
 * `EVERYTHING`.
 *
 * Changes are told after the request (or the sweep) that made them ended, so after its transaction
 * committed: a render that begins later reads the new data. They reach the other instances on the
 * live link (services/live/live.ts `publishChanges`).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Every page and read of one tournament: its page, bracket, stages, matches, history, embeds. */
export const tournamentData = (id: string) => `tournament:${id.toLowerCase()}` as const;

/**
 * The data tags. `tournaments`: what lists and summaries of tournaments show (a status, dates,
 * counts of participants). `ratings`: everything results move across the site (leaderboards,
 * statistics, profiles' histories and places). `news`. `organisations`: the directory and the
 * organisations' pages (their members, followers, profile). `seasons`: seasons (issue 59), their
 * lists and what they hold; a season's table shows its tournaments' data too, so their results move
 * it. `sessions`: who a signed-in caller is (their role, name, teams): the held sessions.
 * `everything`: anything at all (a game or a team renamed).
 */
export type DataTag = ReturnType<typeof tournamentData> | 'tournaments' | 'ratings' | 'news' | 'organisations' | 'seasons' | 'sessions' | 'everything';

export const EVERYTHING = 'everything' satisfies DataTag;

const TAG = /^(tournament:[0-9a-f-]{36}|tournaments|ratings|news|organisations|seasons|sessions|everything)$/;

/** Whether a string that came over the live link is a tag (anyone able to NOTIFY could send junk). */
export const isDataTag = (value: unknown): value is DataTag => typeof value === 'string' && TAG.test(value);

interface Scope {
  changed: Set<DataTag>;
  shown: Set<DataTag>;
  /** What waits for the changes to be told (`whenTold`): live events, in the order published. */
  after: (() => void)[];
}

const scope = new AsyncLocalStorage<Scope>();
const listeners = new Set<(tags: ReadonlySet<DataTag>, here: boolean) => void>();

/**
 * Says that the current request or sweep changed data named by `tags`. Told when it ends
 * (`collectChanges`); outside one, at once (a caller that has committed already).
 */
export function changed(...tags: DataTag[]): void {
  const current = scope.getStore();
  if (current) for (const tag of tags) current.changed.add(tag);
  else if (tags.length > 0) tell(new Set(tags), true);
}

/**
 * Runs `tell` once the current request's or sweep's changes were told (at once outside one): a live
 * event then reaches a viewer after what it read was marked out of date, on every instance, since
 * both go on the same link in this order.
 */
export function whenTold(tell: () => void): void {
  const current = scope.getStore();
  if (current) current.after.push(tell);
  else tell();
}

/** Says that the answer being made shows data named by `tags` (an answer that says nothing shows `EVERYTHING`). */
export function shows(...tags: DataTag[]): void {
  const current = scope.getStore();
  if (current) for (const tag of tags) current.shown.add(tag);
}

/**
 * Runs `work` (a request, a sweep), then tells what it changed, here and to the other instances.
 * Returns its result and what its answer shows. Nested calls (a page reading the API in-process)
 * share the outer scope.
 */
export async function collectChanges<T>(work: () => Promise<T>): Promise<{ result: T; shown: ReadonlySet<DataTag> }> {
  const outer = scope.getStore();
  if (outer) return { result: await work(), shown: outer.shown };
  const mine: Scope = { changed: new Set(), shown: new Set(), after: [] };
  try {
    return { result: await scope.run(mine, work), shown: mine.shown };
  } finally {
    if (mine.changed.size > 0) tell(mine.changed, true);
    for (const then of mine.after) then();
  }
}

/** Tells the listeners (`onChanges`) of changes made here (`here`) or heard from another instance. */
export function tell(tags: ReadonlySet<DataTag>, here: boolean): void {
  for (const listener of listeners) listener(tags, here);
}

/** Hears every change, this instance's (`here`) and the others'. */
export function onChanges(listener: (tags: ReadonlySet<DataTag>, here: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
