import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { prepared } from '../../src/server/db/prepared.ts';

// Stand-ins: `prepared` only keys on the database object and calls `build` with it.
const database = () => ({}) as unknown as Database;

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
      return { on: db };
    });
    const one = database();
    const other = database();
    const first = statement(one);
    expect(statement(one)).toBe(first);
    expect(statement(one)).toBe(first);
    const second = statement(other);
    expect(second).not.toBe(first);
    expect(second.on).toBe(other);
    expect(built).toEqual([one, other]);
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
