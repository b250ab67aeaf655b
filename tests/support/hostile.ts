import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import type { TestApi } from './api.ts';

/*
 * The fuzz tests' hostile input (tests/api/fuzz*.test.ts), and how they tell that a refused
 * request changed nothing.
 */

export const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '__proto__',
    'constructor',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '../../etc/passwd',
    '😀'.repeat(50),
    'я'.repeat(5000),
    'NaN',
    '-1',
    '1e309',
  ),
);
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'prototype', 'role', 'status')), tie('value'), { maxKeys: 4 }),
  ),
})).value;
export const hostileParam = fc.oneof(
  fc.uuid(),
  hostileString.filter((s) => !s.includes('/') && !s.includes('?') && !s.includes('#')),
);

/** The rows of a raw query, whichever driver answered (PGlite and node-postgres shape them alike). */
export async function rowsIn<T>(api: TestApi, query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const result = (await api.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Rows in every table of the app: a refused request must change none of them. */
export async function tableCounts(api: TestApi): Promise<string> {
  // One query: every table's row count (rate limits and sessions change on refusals by design).
  const tables = await rowsIn<{ tablename: string }>(
    api,
    sql`select tablename from pg_tables where schemaname = current_schema() and tablename not in ('rate_limits', 'sessions') order by tablename`,
  );
  const union = tables.map((t) => `select '${t.tablename}' as name, count(*)::text as n from "${t.tablename}"`).join(' union all ');
  const counts = await rowsIn<{ name: string; n: string }>(api, sql.raw(union));
  return counts.map((c) => `${c.name}:${c.n}`).join(',');
}
