import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { rateLimits } from '../db/schema/index.ts';

/**
 * The store that counts attempts (Redis) cannot be reached: the request cannot be judged, so the
 * API answers 503 with Retry-After, as for a database outage, rather than letting it through.
 */
export class LimitStoreDown extends Error {
  constructor(cause: unknown) {
    super('rate-limit store unavailable', { cause });
    this.name = 'LimitStoreDown';
  }
}

export interface Limit {
  /** Attempts allowed in one window. */
  max: number;
  windowSeconds: number;
}

export interface LimitState {
  allowed: boolean;
  /** Attempts counted in this window, this one included. */
  count: number;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/**
 * Fixed-window counters shared by every app instance: in the database by default, in Redis when
 * REDIS_URL is set (services/rate-limit-redis.ts), in the process's memory on the embedded database,
 * which one process owns (`memoryLimiter`). Every change is one atomic step, so attempts made at the
 * same moment on any instance are counted one by one.
 */
export interface RateLimiter {
  /** Counts one attempt; allowed while the count has not gone past the maximum. */
  hit(key: string, limit: Limit): Promise<LimitState>;
  /** Takes one counted attempt back (never below zero): it was refused, or it turned out not to count. */
  undo(key: string): Promise<void>;
  /** Forgets a counter, for example after a successful login. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The state after `count` attempts (this one included) in a window that started at `windowStart`.
 * A parallel attempt may read its clock before the one that opened the window and write after it,
 * so `now` can be a little before `windowStart`: the wait never exceeds the window itself.
 */
function windowState(count: number, windowStart: number, limit: Limit, now: number): LimitState {
  const resetAt = windowStart + limit.windowSeconds * 1000;
  const retryAfter = Math.min(limit.windowSeconds, Math.max(1, Math.ceil((resetAt - now) / 1000)));
  return { allowed: count <= limit.max, count, retryAfter };
}

/** An attempt counted before the work it limits is done, and that can be taken back. */
export interface Reservation extends LimitState {
  /** Takes the attempt back: it was refused, or it succeeded and only failures count. */
  release(): Promise<void>;
}

/**
 * Counts first, then decides: the check this limit guards (a password, say) runs only for the
 * attempts counted within the limit, so a burst of parallel attempts cannot all pass a check that
 * read the counter before any of them was counted.
 */
export async function reserve(limits: RateLimiter, key: string, limit: Limit): Promise<Reservation> {
  const state = await limits.hit(key, limit);
  return { ...state, release: () => limits.undo(key) };
}

/** What counting one attempt against several limits came to: allowed, or the wait the first refusal asks. */
export type Verdict = { allowed: true } | { allowed: false; refusedBy: string; retryAfter: number };

/**
 * Counts one attempt against each limit in turn and allows it only when every one allows it. At
 * the first refusal every count it made is taken back and the keys after it are not counted at all:
 * a refused attempt spends nothing, so one device's flood does not use up the budget of the address
 * it shares, and a flood refused by its address makes no keys for the devices it names (the keys
 * most shared go first).
 */
export async function withinLimits(limits: RateLimiter, checks: readonly (readonly [key: string, limit: Limit])[]): Promise<Verdict> {
  const counted: string[] = [];
  for (const [key, limit] of checks) {
    const state = await limits.hit(key, limit);
    counted.push(key);
    if (!state.allowed) {
      await Promise.all(counted.map((done) => limits.undo(done)));
      return { allowed: false, refusedBy: key, retryAfter: state.retryAfter };
    }
  }
  return { allowed: true };
}

/** Counts one attempt in the `rate_limits` table: a new window, or one more in the current one. */
const hitStatement = prepared((db) => {
  const expired = sql`${rateLimits.windowStart} <= ${sql.placeholder('windowStartBound')}::timestamptz`;
  const now = sql`${sql.placeholder('now')}::timestamptz`;
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder('key'), windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${now} else ${rateLimits.windowStart} end`,
      },
    })
    .returning()
    .prepare('rate_limit_hit');
});

/** Counters in the `rate_limits` table, updated atomically with one upsert per attempt (prepared: every limited request sends it). */
export function databaseLimiter(db: Database): RateLimiter {
  return {
    async hit(key, limit) {
      const now = new Date();
      const windowStartBound = new Date(now.getTime() - limit.windowSeconds * 1000);
      const [row] = await hitStatement(db).execute({ key, now: now.toISOString(), windowStartBound: windowStartBound.toISOString() });
      if (!row) throw new Error('rate limit upsert returned no row');
      return windowState(row.count, row.windowStart.getTime(), limit, now.getTime());
    },
    async undo(key) {
      await db
        .update(rateLimits)
        .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
        .where(eq(rateLimits.key, key));
    },
    async reset(key) {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
    close: async () => {},
  };
}

/**
 * Keys a memory limiter holds at most: past it, the one hit longest ago goes (its attempts are
 * forgotten). About 150 bytes each, so 7.5 MB when full; a site's own traffic holds hundreds, a
 * flood of new addresses or accounts reaches it, and a key under attack is hit often, so it stays.
 */
export const MEMORY_LIMITER_KEYS = 50_000;

/**
 * Counters in this process's memory, for the embedded database: one process owns it (db/client.ts,
 * `exclusive`), so no other instance counts, and a counter needs no statement. In the database each
 * limited write would first send an upsert: one more statement, and one more turn of the server's
 * loop, before its own work. A restart of the server forgets them.
 */
export function memoryLimiter(maxKeys = MEMORY_LIMITER_KEYS): RateLimiter {
  /** Key → its window, the key hit most recently last. */
  const windows = new Map<string, { count: number; windowStart: number }>();
  return {
    async hit(key, limit) {
      const now = Date.now();
      let window = windows.get(key);
      windows.delete(key);
      // Expired as the table's upsert says: its start at or before one window ago.
      if (!window || window.windowStart <= now - limit.windowSeconds * 1000) window = { count: 0, windowStart: now };
      window.count += 1;
      windows.set(key, window);
      if (windows.size > maxKeys) windows.delete(windows.keys().next().value!);
      return windowState(window.count, window.windowStart, limit, now);
    },
    async undo(key) {
      const window = windows.get(key);
      if (window) window.count = Math.max(0, window.count - 1);
    },
    async reset(key) {
      windows.delete(key);
    },
    close: async () => windows.clear(),
  };
}
