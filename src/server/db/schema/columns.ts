import { sql } from 'drizzle-orm';
import { timestamp, uuid, type PgColumn } from 'drizzle-orm/pg-core';

/** Primary key shared by every table: a random UUID, exposed as `_id` by the API. */
export const id = () => uuid('id').primaryKey().defaultRandom();

/** A timestamp with time zone that defaults to the moment the row is written. */
export const createdAt = (name = 'created_at') =>
  timestamp(name, { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A leaderboard's win-rate sort key (wins per match, none while no match is played). The sort in
 * services/statistics/leaderboards.ts and the index behind it both use this one expression, so PostgreSQL
 * can read the sort from the index.
 */
export const winRateKey = (won: PgColumn, played: PgColumn) => sql`(${won}::float8 / nullif(${played}, 0))`;
