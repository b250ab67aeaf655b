// The embedded database on a thread of its own (decision 025): the same answers, errors,
// transactions and notices as PGlite in the caller's thread, without blocking the caller's loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getTableName, is, sql, type SQL } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { takeAnswers } from '../../src/server/db/pglite-thread.ts';
import * as schema from '../../src/server/db/schema/index.ts';
import { games } from '../../src/server/db/schema/index.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { isUniqueViolation } from '../../src/server/services/db-errors.ts';

const TABLES: PgTable[] = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));

/** The rows a raw statement returns (drizzle types `execute` by driver). */
async function rowsOf<T>(handle: DatabaseHandle, query: SQL): Promise<T[]> {
  return ((await handle.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Every row of every table, in a fixed order: what a database holds, as drizzle reads it. */
async function everything(handle: DatabaseHandle) {
  const rows: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const read = await handle.db.select().from(table);
    rows[getTableName(table)] = read.map((row) => JSON.stringify(row, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).sort();
  }
  return rows;
}

describe('the embedded database on its own thread', () => {
  let dir: string;
  let handle: DatabaseHandle;
  const lost: Error[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pglite-thread-'));
    handle = await openDatabase({ dataDir: join(dir, 'db'), thread: { onLost: (error) => lost.push(error) } });
    await handle.migrate();
    await handle.db.execute(sql`create table scratch (id int primary key, note text)`);
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const notes = async () => (await rowsOf<{ id: number }>(handle, sql`select id from scratch order by id`)).map((row) => row.id);

  it('reads back what the same database gives in the caller’s thread, type for type', { timeout: 60_000 }, async () => {
    expect(await seedDemo(handle.db)).toBe(true);
    const threaded = await everything(handle);
    expect(threaded['tournaments']!.length).toBeGreaterThan(0);
    // Read again, each statement is sent by name (db/pglite-prepared.ts), with the same answers.
    expect(await everything(handle)).toEqual(threaded);
    // Timestamps reach drizzle as the text PostgreSQL sent, as its parsers ask, not as Dates.
    expect(await rowsOf(handle, sql`select timestamptz '2026-11-28 10:00:00+00' as at`)).toEqual([{ at: '2026-11-28 10:00:00+00' }]);

    await handle.close();
    const direct = await openDatabase({ dataDir: join(dir, 'db') });
    try {
      expect(await everything(direct)).toEqual(threaded);
    } finally {
      await direct.close();
    }
    handle = await openDatabase({ dataDir: join(dir, 'db'), thread: {} });
  });

  it('keeps the error’s SQLSTATE and constraint, which the services read', async () => {
    const [existing] = await handle.db.select().from(games).limit(1);
    // The first time as sent, then prepared, then by name.
    for (let i = 0; i < 3; i++) {
      const error = await handle.db
        .insert(games)
        .values({ name: existing!.name.toUpperCase() })
        .catch((e: unknown) => e);
      expect(isUniqueViolation(error)).toBe(true);
      expect((error as { cause?: { constraint?: string } }).cause?.constraint).toBe('games_name_lower_idx');
    }
    await expect(handle.db.execute(sql`select from nowhere`)).rejects.toMatchObject({ cause: { code: '42P01', message: expect.stringContaining('nowhere') } });
  });

  it('commits a transaction that ends well and rolls back one that throws, savepoints included', async () => {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into scratch values (1, 'kept')`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into scratch values (2, 'inner')`);
          throw new Error('inner fails');
        })
        .catch(() => {});
    });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into scratch values (3, 'thrown')`);
        throw new Error('fails');
      }),
    ).rejects.toThrow('fails');
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into scratch values (4, 'rolled back')`);
        tx.rollback();
      }),
    ).rejects.toThrow();
    // A statement that failed inside a transaction leaves no half of it.
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.execute(sql`insert into scratch values (5, 'half')`);
        await tx.execute(sql`insert into scratch values (1, 'duplicate')`);
      }),
    ).rejects.toThrow();
    expect(await notes()).toEqual([1]);
  });

  /** A transaction that runs `statement`, then stays open until `release`; `held` once it is open. */
  function openTransaction(statement: SQL) {
    let inside!: () => void;
    const held = new Promise<void>((resolve) => (inside = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const done = handle.db.transaction(async (tx) => {
      await tx.execute(statement);
      inside();
      await released;
    });
    return { held, release, done };
  }

  it('makes a statement from outside wait until the open transaction ends', async () => {
    const { held, release, done: transaction } = openTransaction(sql`insert into scratch values (10, 'in a transaction')`);
    await held;
    let outside: number[] | null = null;
    const reading = notes().then((ids) => (outside = ids));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(outside).toBeNull();
    release();
    await transaction;
    await reading;
    expect(outside).toEqual([1, 10]);
  });

  it('runs a statement that came while a transaction was open before the transaction queued behind that one', async () => {
    const { held, release, done: first } = openTransaction(sql`insert into scratch values (20, 'first')`);
    await held;
    const second = handle.db.transaction(async (tx) => ((await tx.execute(sql`select id from scratch where id = 21`)) as unknown as { rows: unknown[] }).rows.length);
    // The second BEGIN is on its way before the statement (drizzle sends it within this turn).
    await new Promise((resolve) => setImmediate(resolve));
    const alone = handle.db.execute(sql`insert into scratch values (21, 'alone')`);
    release();
    await Promise.all([first, alone]);
    // In PGlite's own order the second transaction would begin first and not see row 21.
    expect(await second).toBe(1);
  });

  it('runs a transaction from BEGIN to COMMIT in one turn of the caller’s loop, holding PGlite for its statements alone', async () => {
    let turned = false;
    await handle.db.transaction(async (tx) => {
      setImmediate(() => (turned = true));
      await tx.execute(sql`insert into scratch values (30, 'one turn')`);
      await tx.execute(sql`update scratch set note = 'still one turn' where id = 30`);
      await tx.execute(sql`select note from scratch where id = 30`);
      // Each statement answered across the loop would have let the immediate run.
      expect(turned).toBe(false);
    });
    expect(await rowsOf(handle, sql`select note from scratch where id = 30`)).toEqual([{ note: 'still one turn' }]);
  });

  it('settles a statement whose answer has come when `takeAnswers` is called, before the loop turns to it', async () => {
    /** Sends a statement, lets PGlite's thread answer it while this one is blocked, and sees after a few microtasks whether it settled. */
    const settledWithin = async (take: boolean) => {
      let settled = false;
      const statement = handle.db.execute(sql`select 1 as one`).then(() => (settled = true));
      // This thread blocked 100 ms: the answer is on its port, and no turn of the loop has taken it.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
      if (take) takeAnswers();
      for (let i = 0; i < 20; i++) await Promise.resolve();
      const early = settled;
      await statement;
      return early;
    };
    expect(await settledWithin(false), 'left to the loop').toBe(false);
    expect(await settledWithin(true), 'taken between requests').toBe(true);
  });

  it('runs a transaction’s statements before the statements from outside that were waiting', async () => {
    const finished: string[] = [];
    const waiting = Array.from({ length: 40 }, (_, i) =>
      handle.db.execute(sql`select count(*) from generate_series(1, 100000)`).then(() => finished.push(`statement ${i}`)),
    );
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`insert into scratch values (31, 'ahead')`);
    });
    finished.push('transaction');
    await Promise.all(waiting);
    // The thread looks for a transaction's statement before each waiting one: at most the one
    // running when it came (and its answer's way back) went first, not all forty.
    expect(finished.indexOf('transaction')).toBeLessThanOrEqual(2);
  });

  it('answers a parallel burst, each caller its own rows', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => rowsOf(handle, sql`select ${i}::int as n, ${`№${i}`} as s`)),
    );
    answers.forEach((rows, i) => expect(rows).toEqual([{ n: i, s: `№${i}` }]));
  });

  it('delivers a notice sent in a transaction once it commits', async () => {
    const heard: string[] = [];
    const stop = await handle.listen('thread_test', (payload) => heard.push(payload), () => {});
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('thread_test', 'committed')`);
      expect(heard).toEqual([]);
    });
    await expect.poll(() => heard).toEqual(['committed']);
    await stop();
    await handle.db.execute(sql`select pg_notify('thread_test', 'after stop')`);
    await handle.ping();
    expect(heard).toEqual(['committed']);
  });

  it('leaves the caller’s loop free while a long statement runs', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 5);
    const started = performance.now();
    await handle.db.execute(sql`select count(*) from generate_series(1, 3000000)`);
    const took = performance.now() - started;
    clearInterval(ticking);
    // In the caller's thread PGlite runs the statement in one synchronous call: no turn at all.
    expect(took).toBeGreaterThan(30);
    expect(turns).toBeGreaterThan(0);
  });

  // A second PGlite starts here: seconds on a busy machine (5 s once ran out in CI).
  it('fails every call after close, and hears no loss it caused itself', { timeout: 60_000 }, async () => {
    const other = await openDatabase({ thread: { onLost: (error) => lost.push(error) } });
    await other.ping();
    await other.close();
    await expect(other.ping()).rejects.toThrow(/closed/);
    expect(lost).toEqual([]);
  });
});
