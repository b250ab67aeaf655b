import { timestamp, uuid } from 'drizzle-orm/pg-core';

/** Primary key shared by every table: a random UUID, exposed as `_id` by the API. */
export const id = () => uuid('id').primaryKey().defaultRandom();

/** A timestamp with time zone that defaults to the moment the row is written. */
export const createdAt = (name = 'created_at') =>
  timestamp(name, { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
