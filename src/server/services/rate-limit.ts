import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
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

function state(row: { count: number; windowStart: Date } | undefined, limit: Limit, now: Date): LimitState {
  if (!row) return { allowed: true, retryAfter: 0 };
  const resetAt = row.windowStart.getTime() + limit.windowSeconds * 1000;
  if (resetAt <= now.getTime()) return { allowed: true, retryAfter: 0 };
  return { allowed: row.count < limit.max, retryAfter: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)) };
}

/** Reads a counter without counting: for limits that count only failures. */
export async function peekLimit(db: Tx, key: string, limit: Limit): Promise<LimitState> {
  const [row] = await db.select().from(rateLimits).where(eq(rateLimits.key, key));
  return state(row, limit, new Date());
}

/**
 * Counts one attempt in a fixed window, atomically in the database so that every app instance
 * shares the counter. Returns whether the attempt is within the limit.
 */
export async function hitLimit(db: Tx, key: string, limit: Limit): Promise<LimitState> {
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
  // The attempt just counted is allowed while the count has not gone past the maximum.
  const s = state({ count: row.count - 1, windowStart: row.windowStart }, limit, now);
  return s;
}

/** Forgets a counter, for example after a successful login. */
export async function resetLimit(db: Tx, key: string): Promise<void> {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
