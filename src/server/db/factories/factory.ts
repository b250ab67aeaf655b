import { randomUUID } from 'node:crypto';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Tx } from '../client.ts';

/**
 * Rows of one table with defaults a caller overrides: the demo seed and the tests build their data
 * with these, so a new column or rule is taught here once. `values` is the row to insert (every
 * default filled in, so it also suits writers that skip the database's defaults); `insert` and
 * `insertMany` write it and return the stored rows, in the order given.
 */
export interface Factory<Row, Insert, Overrides> {
  values(overrides: Overrides): Insert;
  insert(db: Tx, overrides: Overrides): Promise<Row>;
  insertMany(db: Tx, list: readonly Overrides[]): Promise<Row[]>;
}

/** A factory of `table` whose rows are `values(overrides)`. */
export function factory<T extends PgTable, Overrides>(
  table: T,
  values: (overrides: Overrides) => T['$inferInsert'],
): Factory<T['$inferSelect'], T['$inferInsert'], Overrides> {
  async function insertMany(db: Tx, list: readonly Overrides[]): Promise<T['$inferSelect'][]> {
    if (list.length === 0) return [];
    // One statement for the lot: the seed writes dozens of rows per table.
    return (await db
      .insert(table as PgTable)
      .values(list.map(values))
      .returning()) as T['$inferSelect'][];
  }
  return {
    values,
    insertMany,
    async insert(db, overrides) {
      const [row] = await insertMany(db, [overrides]);
      if (!row) throw new Error('a factory insert returned no row');
      return row;
    },
  };
}

let sequence = 0;
/** A name no other call has given (in this process, or another one: a random tail), with `prefix` in front. */
export const uniqueName = (prefix: string) => `${prefix}${++sequence}_${randomUUID().slice(0, 6)}`;
