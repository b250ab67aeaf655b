import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/api/app.ts';
import type { Deps } from '../../src/server/api/context.ts';
import { folderProblem } from '../../src/server/data-folders.ts';
import { DatabaseStopped, stopAfterPanic } from '../../src/server/db/client.ts';
import { isDiskFull } from '../../src/server/services/db-errors.ts';
import { DISK_FULL_WINDOW_MS, diskFullLately, recordDiskFull, recordWriteSaved } from '../../src/server/services/disk-full.ts';

/** The API with a database stand-in whose ping answers, and one more route that fails with `error`. */
function appFailingWith(error: unknown) {
  const app = createApp({ database: { db: {}, kind: 'pglite', ping: () => Promise.resolve() }, trustProxy: false } as unknown as Deps);
  app.post('/save', () => {
    throw error;
  });
  return app;
}

/** What Node's file system throws when a write finds no space (a letter written to the outbox, say). */
const nodeEnospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
/** What PGlite throws when Emscripten's file system cannot write its files: a name and a number, no message. */
const emscriptenEnospc = () => Object.assign(new Error(), { name: 'ErrnoError', errno: 51 });
/** A driver's disk_full as drizzle passes it on: wrapped, with the SQLSTATE on the cause. */
const wrappedDiskFull = () => new Error('Failed query: insert …', { cause: Object.assign(new Error('could not extend file'), { code: '53100' }) });

afterEach(() => {
  recordWriteSaved();
  vi.restoreAllMocks();
});

describe('a write refused for lack of space', () => {
  it.each([
    ['Node’s ENOSPC', nodeEnospc],
    ['Emscripten’s ErrnoError 51', emscriptenEnospc],
    ['disk_full wrapped by drizzle', wrappedDiskFull],
  ])('answers %s with 503, Retry-After and the Ukrainian message, never 500', async (_, make) => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const app = appFailingWith(make());
    const response = await app.request('/api/save', { method: 'POST' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(await response.json()).toEqual({ message: 'Зараз не вдається зберегти зміни: на сервері закінчилося місце для даних. Спробуйте пізніше.' });
    const health = await app.request('/api/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', database: 'ok', storage: 'full' });
  });

  it('answers the database running out of memory or other resources with 503, not 500', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const code of ['53000', '53200']) {
      const response = await appFailingWith(Object.assign(new Error('out of memory'), { code })).request('/api/save', { method: 'POST' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({ message: 'Сервіс тимчасово недоступний. Спробуйте пізніше.' });
    }
    // Not a full disk: health has nothing to report.
    expect(diskFullLately()).toBe(false);
  });

  it('is not mistaken for other errors', () => {
    expect(isDiskFull(Object.assign(new Error('duplicate'), { code: '23505' }))).toBe(false);
    expect(isDiskFull(Object.assign(new Error(), { name: 'ErrnoError', errno: 44 }))).toBe(false);
    expect(isDiskFull(Object.assign(new Error(), { errno: 51 }))).toBe(false);
  });
});

describe('health’s record of a full disk', () => {
  it('holds for a bounded time after the last refused write, and a write that succeeds clears it', () => {
    const at = 1_000_000;
    recordDiskFull(at);
    expect(diskFullLately(at + DISK_FULL_WINDOW_MS - 1)).toBe(true);
    expect(diskFullLately(at + DISK_FULL_WINDOW_MS)).toBe(false);
    recordDiskFull(Date.now());
    expect(diskFullLately()).toBe(true);
    recordWriteSaved();
    expect(diskFullLately()).toBe(false);
  });
});

describe('the embedded database after a PANIC', () => {
  // A full disk that refuses the write-ahead log makes PGlite PANIC; its next statement then spins for ever.
  const panic = () => Object.assign(new Error('could not write to file "pg_wal/xlogtemp.42": No space left on device'), { code: '53100', severity: 'PANIC' });

  it('fails every later statement at once, without entering PGlite, and says it stopped once', async () => {
    const calls: string[] = [];
    const client = {
      execProtocol: async (_message: Uint8Array) => {
        calls.push('execProtocol');
        return {};
      },
      execProtocolStream: async (_message: Uint8Array) => {
        calls.push('execProtocolStream');
        throw panic();
      },
    };
    const onLost = vi.fn();
    stopAfterPanic(client as never, onLost);
    await expect(client.execProtocolStream(new Uint8Array())).rejects.toMatchObject({ severity: 'PANIC' });
    await expect(client.execProtocolStream(new Uint8Array())).rejects.toBeInstanceOf(DatabaseStopped);
    await expect(client.execProtocol(new Uint8Array())).rejects.toBeInstanceOf(DatabaseStopped);
    expect(calls).toEqual(['execProtocolStream']);
    expect(onLost).toHaveBeenCalledTimes(1);
    // Its refusals are a full disk (503, health reports it) when the PANIC was one.
    expect(isDiskFull(new DatabaseStopped(panic()))).toBe(true);
  });

  it('lets ordinary errors through and keeps going', async () => {
    let fail = true;
    const client = {
      execProtocol: async (_message: Uint8Array) => ({}),
      execProtocolStream: async (_message: Uint8Array) => {
        if (fail) throw Object.assign(new Error('duplicate key'), { code: '23505', severity: 'ERROR' });
        return [];
      },
    };
    const onLost = vi.fn();
    stopAfterPanic(client as never, onLost);
    await expect(client.execProtocolStream(new Uint8Array())).rejects.toMatchObject({ code: '23505' });
    fail = false;
    await expect(client.execProtocolStream(new Uint8Array())).resolves.toEqual([]);
    expect(onLost).not.toHaveBeenCalled();
  });
});

describe('a data folder the server cannot write', () => {
  it('is named in one sentence, whether a file stands in its path or it lies under /proc', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'kiberarena-folders-'));
    try {
      const file = join(scratch, 'file');
      writeFileSync(file, '');
      expect(folderProblem(join(file, 'db'))).toBe(
        `Сервер не може писати в папку ${join(file, 'db')} (частина шляху — файл, а не папка): зробіть її доступною для запису користувачу, від якого запущено сервер, або вкажіть у DATA_DIR іншу папку.`,
      );
      // Node's own recursive mkdir never returns here.
      expect(folderProblem('/proc/kiberarena/db')).toMatch(/^Сервер не може писати в папку \/proc\/kiberarena\/db \(/);
      expect(folderProblem(join(scratch, 'data', 'db'))).toBeNull();
      expect(folderProblem(join(scratch, 'data', 'db'), Number.MAX_SAFE_INTEGER)).toMatch(/закінчилося місце/);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
