import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Tx } from './client.ts';

/**
 * Writes that need nothing back, sent as one statement: each a data-modifying `with` of one
 * `select` of `then` (a `pg_notify`, say), or of nothing. A statement is a round trip and a system
 * call each way, which on a busy server costs more than the work itself.
 *
 * PostgreSQL runs the parts with one snapshot: none sees another's rows, and a row changed by two of
 * them is an error, so only writes to different rows go together. Foreign keys are checked at the
 * statement's end, so a row may name one another part inserts.
 */
export async function together(tx: Tx, writes: readonly SQLWrapper[], then?: SQL): Promise<void> {
  if (writes.length === 0 && !then) return;
  if (writes.length === 1 && !then) {
    await tx.execute(writes[0]!.getSQL());
    return;
  }
  const parts = writes.map((write, index) => sql`${sql.identifier(`w${index}`)} as (${write.getSQL()})`);
  const head = parts.length > 0 ? sql`with ${sql.join(parts, sql`, `)} ` : sql``;
  await tx.execute(sql`${head}select ${then ?? sql`1`}`);
}
