// Sessions found, held between requests (decision 026). Only the store lives here, with no
// database: a change to who a caller is forgets them (services/accounts/sessions.ts hears it, and looks
// sessions up and holds them).

/**
 * How long a session found stays held (decision 026). Every signed-in request looks its session
 * up; held, a player who reports or posts every few seconds costs no lookup. A change to a session
 * or a user forgets every held one, on every instance (`changed('sessions')`); this bounds only a
 * change made behind the API's back, straight in the database.
 */
export const SESSION_HOLD_MS = 60_000;
/** Held sessions at most: past it the oldest goes (a flood of distinct tokens finds nothing to hold anyway). */
const HELD_SESSIONS_MAX = 10_000;

interface Store {
  held: Map<string, { found: unknown; until: number }>;
  /** Moved by every forgetting: a lookup that began before one does not hold what it read. */
  generation: number;
}

const store: Store = { held: new Map(), generation: 0 };

/** What is held for `tokenHash` until `now`, if anything. */
export function heldSession(tokenHash: string, now: number): unknown {
  const hit = store.held.get(tokenHash);
  if (hit && hit.until > now) return hit.found;
  if (hit) store.held.delete(tokenHash);
  return undefined;
}

/** A mark to take before a lookup and give to `holdSession` after it. */
export const lookupBegins = (): number => store.generation;

/** Holds what a lookup found until `until`, unless the held sessions were forgotten since it `began`. */
export function holdSession(tokenHash: string, found: unknown, until: number, began: number): void {
  if (began !== store.generation) return;
  if (store.held.size >= HELD_SESSIONS_MAX) store.held.delete(store.held.keys().next().value!);
  store.held.set(tokenHash, { found, until });
}

/**
 * Forgets every held session: a write changed a session or a user (`changed('sessions')`), here or
 * on another instance, or the link to the others was lost.
 */
export function forgetHeldSessions(): void {
  store.generation += 1;
  store.held.clear();
}
