import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rateLimits } from '../db/schema/index.ts';

export interface Limit {
  /** Attempts allowed in one window. */
  max: number;
  windowSeconds: number;
}

export interface LimitState {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number;
}

/**
 * Fixed-window counters shared by every app instance: in the database by default, in Redis when
 * REDIS_URL is set (services/rate-limit-redis.ts).
 */
export interface RateLimiter {
  /** Counts one attempt; allowed while the count has not gone past the maximum. */
  hit(key: string, limit: Limit): Promise<LimitState>;
  /** Reads a counter without counting: for limits that count only failures. */
  peek(key: string, limit: Limit): Promise<LimitState>;
  /** Forgets a counter, for example after a successful login. */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

/** The state after `before` earlier attempts in a window that started at `windowStart`. */
function windowState(before: number, windowStart: number, limit: Limit, now: number): LimitState {
  const resetAt = windowStart + limit.windowSeconds * 1000;
  if (resetAt <= now) return { allowed: true, retryAfter: 0 };
  return { allowed: before < limit.max, retryAfter: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
}

/** Counters in the `rate_limits` table, updated atomically with one upsert per attempt. */
export function databaseLimiter(db: Database): RateLimiter {
  return {
    async hit(key, limit) {
      const now = new Date();
      const windowStartBound = new Date(now.getTime() - limit.windowSeconds * 1000);
      const expired = sql`${rateLimits.windowStart} <= ${windowStartBound.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(rateLimits)
        .values({ key, windowStart: now, count: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
            windowStart: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
          },
        })
        .returning();
      if (!row) return { allowed: true, retryAfter: 0 };
      return windowState(row.count - 1, row.windowStart.getTime(), limit, now.getTime());
    },
    async peek(key, limit) {
      const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
      return row ? windowState(row.count, row.windowStart.getTime(), limit, Date.now()) : { allowed: true, retryAfter: 0 };
    },
    async reset(key) {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },
    close: async () => {},
  };
}
