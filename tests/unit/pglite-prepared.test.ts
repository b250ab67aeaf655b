// Statements the embedded database prepares once seen twice (db/pglite-prepared.ts): the same
// answers and errors as PGlite's `query`, in and out of transactions, with a bounded number kept.
import { PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PREPARED, PreparedStatements } from '../../src/server/db/pglite-prepared.ts';

describe('statements prepared on the embedded database', () => {
  let db: PGlite;
  let prepared: PreparedStatements;

  beforeAll(async () => {
    db = new PGlite();
    await db.exec(`create table kinds (
      id int primary key, big bigint, num numeric, word text, doc jsonb, at timestamptz, flag boolean,
      ref uuid, tags text[], blob bytea, counts int[]
    )`);
    prepared = new PreparedStatements(db);
  });
  afterAll(() => db.close());

  /** `sql` as the worker runs it: through `prepared`, falling back to `query` on the first sighting. */
  const run = (sql: string, params: unknown[] = [], options: QueryOptions = {}, tx?: Transaction) =>
    prepared.run(sql, params, options, tx !== undefined, () => (tx ?? db).query(sql, params, options));
  const names = async () => (await db.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((row) => row.name);
  /** What an answer says, without PGlite's per-call extras; or the error's SQLSTATE and message. */
  const outcome = (results: Promise<Results>) =>
    results.then(
      ({ rows, fields, affectedRows }) => ({ rows, fields, affectedRows }),
      (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
    );

  it('prepares a text the second time it is sent, and answers by name from then on', async () => {
    const sql = 'select $1::int + 1 as next';
    const before = (await names()).length;
    expect((await run(sql, [1])).rows).toEqual([{ next: 2 }]);
    expect(await names()).toHaveLength(before);
    expect((await run(sql, [2])).rows).toEqual([{ next: 3 }]);
    expect(await names()).toHaveLength(before + 1);
    expect((await run(sql, [3])).rows).toEqual([{ next: 4 }]);
    expect(await names()).toHaveLength(before + 1);
  });

  it('answers as PGlite’s query does, type for type, in both row modes and with parsers', { timeout: 60_000 }, async () => {
    const insert = 'insert into kinds values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict (id) do nothing returning *';
    const select = 'select * from kinds where id = $1';
    const row = fc.tuple(
      fc.integer({ min: 1, max: 1_000_000 }),
      fc.option(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })),
      fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }).map(String)),
      fc.option(fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\0', ''))),
      fc.option(fc.dictionary(fc.string({ maxLength: 5 }).map((s) => s.replaceAll('\0', '')), fc.oneof(fc.integer(), fc.boolean(), fc.constant(null)))),
      fc.option(fc.date({ min: new Date('1990-01-01'), max: new Date('2090-01-01'), noInvalidDate: true })),
      fc.option(fc.boolean()),
      fc.option(fc.uuid()),
      fc.option(fc.array(fc.string({ maxLength: 8 }).map((s) => s.replaceAll('\0', '')), { maxLength: 4 })),
      fc.option(fc.uint8Array({ maxLength: 16 })),
      fc.option(fc.array(fc.integer(), { maxLength: 4 })),
    );
    await fc.assert(
      fc.asyncProperty(row, async (values) => {
        await db.query('delete from kinds');
        const direct = await outcome(db.query(insert, values));
        // The third run is by name whatever ran before it.
        for (let i = 0; i < 3; i++) {
          await db.query('delete from kinds');
          expect(await outcome(run(insert, values))).toEqual(direct);
        }
        const keptAsText = { parsers: { 1184: (value: string) => value } };
        for (const options of [{}, { rowMode: 'array' as const }, keptAsText]) {
          const read = await outcome(db.query(select, [values[0]], options));
          for (let i = 0; i < 3; i++) expect(await outcome(run(select, [values[0]], options))).toEqual(read);
        }
        // The worker's table: the instance's parsers as its prototype, used as it is by name.
        const chained = { parsers: Object.assign(Object.create(db.parsers) as typeof db.parsers, keptAsText.parsers) };
        const read = await outcome(db.query(select, [values[0]], keptAsText));
        for (let i = 0; i < 3; i++) expect(await outcome(run(select, [values[0]], chained))).toEqual(read);
      }),
      { numRuns: 40 },
    );
  });

  it('fails as PGlite’s query does, with the SQLSTATE and constraint the services read', async () => {
    await db.query('delete from kinds');
    await db.query('insert into kinds (id) values (1)');
    const sql = 'insert into kinds (id) values ($1)';
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(await run(sql, [1]).catch((error: unknown) => error));
    for (const error of errors) expect(error).toMatchObject({ code: '23505', constraint: 'kinds_pkey', message: expect.stringContaining('kinds_pkey') });
    expect((await run(sql, [2])).affectedRows).toBe(1);
    await expect(run('select from nowhere')).rejects.toMatchObject({ code: '42P01' });
    await expect(run('select from nowhere')).rejects.toMatchObject({ code: '42P01' });
  });

  it('commits and rolls back as the transaction says; a statement prepared in a rolled-back one stays usable', async () => {
    await db.query('delete from kinds');
    const sql = 'insert into kinds (id, word) values ($1, $2)';
    await db.transaction(async (tx) => {
      await run(sql, [10, 'kept'], {}, tx);
      await run(sql, [11, 'kept'], {}, tx);
    });
    await db
      .transaction(async (tx) => {
        await run('insert into kinds (id, word) values ($1, $2) returning id', [20, 'gone'], {}, tx);
        await run('insert into kinds (id, word) values ($1, $2) returning id', [21, 'gone'], {}, tx);
        // A failure aborts the transaction: what follows is refused, prepared or not.
        await expect(run(sql, [10, 'twice'], {}, tx)).rejects.toMatchObject({ code: '23505' });
        await expect(run(sql, [22, 'after'], {}, tx)).rejects.toMatchObject({ code: '25P02' });
        throw new Error('roll back');
      })
      .catch(() => {});
    expect((await db.query('select id from kinds order by id')).rows).toEqual([{ id: 10 }, { id: 11 }]);
    expect((await run('insert into kinds (id, word) values ($1, $2) returning id', [30, 'again'])).rows).toEqual([{ id: 30 }]);
  });

  it('keeps at most MAX_PREPARED statements, closing the one used longest ago', { timeout: 60_000 }, async () => {
    const hot = 'select 1 as hot where $1::int > 0';
    await run(hot, [1]);
    await run(hot, [1]);
    for (let i = 0; i < MAX_PREPARED + 20; i++) {
      const sql = `select ${i} as n where $1::int > 0`;
      await run(sql, [1]);
      await run(sql, [1]);
      if (i % 50 === 0) await run(hot, [1]);
    }
    expect(prepared.size).toBe(MAX_PREPARED);
    // The one used most recently stayed; the next statement closed those evicted.
    expect((await run(hot, [1])).rows).toEqual([{ hot: 1 }]);
    expect((await names()).length).toBe(MAX_PREPARED);
    expect((await run('select 0 as n where $1::int > 0', [1])).rows).toEqual([{ n: 0 }]);
  });

  it('prepares again a statement whose rows the schema changed', async () => {
    await db.exec('create table shifting (id int)');
    const sql = 'select * from shifting where id = $1';
    await run(sql, [1]);
    await run(sql, [1]);
    await db.exec('alter table shifting add column note text');
    await db.query('insert into shifting values (1, $1)', ['here']);
    const first = await run(sql, [1]).catch((error: unknown) => error);
    // PostgreSQL may replan it in place or refuse it once; either way the next answer is the new shape.
    if (first instanceof Error) expect(first).toMatchObject({ code: '0A000' });
    expect((await run(sql, [1])).rows).toEqual([{ id: 1, note: 'here' }]);
  });
});
