import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { prepared } from '../../src/server/db/prepared.ts';
import type { PgPreparedQuery, PreparedQueryConfig } from 'drizzle-orm/pg-core';

// Stand-ins: `prepared` keys on the database's dialect and session and calls `build` with it.
type Made = { on: unknown; queryString: string; params: unknown[]; queryConfig?: { name: string }; joinsNotNullableMap?: unknown };
const session = (calls: unknown[][] = []) => ({ calls, prepareQuery: (...args: unknown[]) => (calls.push(args), { on: 'copy', args }) });
const database = (dialect: object = {}, on = session()) => ({ dialect, session: on }) as unknown as Database;
const made = (db: Database): Made & PgPreparedQuery<PreparedQueryConfig> =>
  ({ on: db, queryString: 'select 1', params: [1], queryConfig: { name: 'one' }, joinsNotNullableMap: { a: true } }) as never;

/** Every `.ts` file under `dir`. */
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

describe('prepared statements (db/prepared.ts)', () => {
  it('builds a statement once per database and hands the same one back', () => {
    const built: Database[] = [];
    const statement = prepared((db) => {
      built.push(db);
      return made(db);
    });
    const one = database();
    const other = database();
    const first = statement(one);
    expect(statement(one)).toBe(first);
    expect(statement(one)).toBe(first);
    const second = statement(other);
    expect(second).not.toBe(first);
    expect((second as unknown as Made).on).toBe(other);
    expect(built).toEqual([one, other]);
  });

  it("sends the statement built once through a transaction's own session, without building it again", () => {
    let builds = 0;
    const statement = prepared((db) => (builds++, made(db)));
    const dialect = {};
    const root = database(dialect);
    const first = statement(root);
    const calls: unknown[][] = [];
    const tx = database(dialect, session(calls));
    const inTx = statement(tx) as unknown as Made;
    expect(inTx).not.toBe(first);
    expect(builds).toBe(1);
    // The SQL text, parameters and name as built; the left joins' map carried over.
    expect(calls).toHaveLength(1);
    expect(calls[0]!.slice(0, 3)).toEqual([{ sql: 'select 1', params: [1] }, undefined, 'one']);
    expect(inTx.joinsNotNullableMap).toEqual({ a: true });
    // The database itself still gets the statement it was built with.
    expect(statement(root)).toBe(first);
  });

  it('gives every statement of the server a name of its own', () => {
    // PostgreSQL keeps one statement per name on a connection: two statements under one name would run each other's SQL.
    const names = sources('src/server').flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/\.prepare\(([^)]*)\)/g)].flatMap(([, args]) => [...args!.matchAll(/'([^']+)'/g)].map(([, name]) => name!)),
    );
    expect(names.length).toBeGreaterThanOrEqual(8);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });
});
