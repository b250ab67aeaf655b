import type { Database } from './client.ts';

/**
 * A hot statement built once per database and then sent by name, so PostgreSQL parses it once per
 * connection. Drizzle builds a query's SQL text anew on every call, and on a two-core server that
 * building cost more than the round trip itself: the session lookup behind every signed-in request
 * took 0.5–0.8 ms of CPU built each time and 0.15–0.26 ms prepared (bench/server/FINDINGS.md F14).
 *
 * `build` makes the statement with `sql.placeholder` for what changes and `.prepare(name)` with a
 * name no other statement uses. A prepared statement runs on the database's pool, never inside a
 * caller's transaction: only statements run on their own belong here.
 */
export function prepared<T>(build: (db: Database) => T): (db: Database) => T {
  const made = new WeakMap<Database, T>();
  return (db) => {
    let statement = made.get(db);
    if (statement === undefined) {
      statement = build(db);
      made.set(db, statement);
    }
    return statement;
  };
}
