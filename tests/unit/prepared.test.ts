import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/db/client.ts';
import { prepared } from '../../src/server/db/prepared.ts';

// Stand-ins: `prepared` only keys on the database object and calls `build` with it.
const database = () => ({}) as unknown as Database;

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
});
