import type { PgPreparedQuery, PgSession, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Database, Tx } from './client.ts';

/**
 * A hot statement built once and then sent by name, so PostgreSQL parses it once per connection.
 * Drizzle builds a query's SQL text anew on every call, which costs more CPU than sending a prepared
 * statement by name (decision 020).
 *
 * `build` makes the statement with `sql.placeholder` for what changes and `.prepare(name)` with a
 * name no other statement uses. Called with an open transaction, the statement built once is bound
 * to that transaction's connection (`session.prepareQuery` with the SQL text already made), so a
 * write's own statements are prepared too.
 */
export function prepared<T extends PgPreparedQuery<PreparedQueryConfig>>(build: (db: Database) => T): (db: Tx) => T {
  // One statement per database (its dialect: a transaction shares its database's), bound to the
  // database's own session: a transaction gets a copy bound to its own.
  const made = new WeakMap<object, { statement: T; session: PgSession }>();
  return (db) => {
    const { dialect, session } = db as unknown as Internals;
    let entry = made.get(dialect);
    if (entry === undefined) {
      entry = { statement: build(db as Database), session };
      made.set(dialect, entry);
    }
    return entry.session === session ? entry.statement : rebound(entry.statement, session);
  };
}

/** What drizzle keeps inside a database and a prepared statement (drizzle-orm 0.45; tests/api/prepared.test.ts holds it to it). */
interface Internals {
  dialect: object;
  session: PgSession;
}
interface Made {
  queryString: string;
  params: unknown[];
  fields: unknown;
  _isResponseInArrayMode: boolean;
  customResultMapper: unknown;
  joinsNotNullableMap: unknown;
  queryMetadata: unknown;
  cacheConfig: unknown;
  /** node-postgres only: the statement's name, which PGlite does not use. */
  queryConfig?: { name?: string };
}

/** The same statement, its SQL text as built, sent through another session (a transaction's). */
function rebound<T extends PgPreparedQuery<PreparedQueryConfig>>(statement: T, session: PgSession): T {
  const m = statement as unknown as Made;
  const copy = session.prepareQuery(
    { sql: m.queryString, params: m.params },
    m.fields as never,
    m.queryConfig?.name,
    m._isResponseInArrayMode,
    m.customResultMapper as never,
    m.queryMetadata as never,
    m.cacheConfig as never,
  ) as unknown as Made;
  copy.joinsNotNullableMap = m.joinsNotNullableMap;
  return copy as unknown as T;
}
