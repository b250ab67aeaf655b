import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { pipelineFlood } from '../../bench/attacks/pipelining.ts';
import { SERVER_MALLOC, serverNodeOptions } from '../../scripts/server-memory.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';
import { type AppInstance, startInstance } from './app-instance.ts';

/*
 * Issue 54: clients that pipeline hundreds of requests per segment and never read an answer, on
 * every road a request takes (a static file, a page, a held guest page, an API read). The server
 * must live through it (the same process, no restart), keep its memory within bounds and answer
 * everyone else meanwhile — on the embedded database under `npm start` (Playwright's server) and
 * on PostgreSQL.
 */
test.describe.configure({ mode: 'serial' });

const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);

/** The pid of the server `npm start` supervises on `port` (its child running the bundled serve.mjs). */
function servingPid(port: number): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!command.includes('serve.mjs')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`PORT=${port}`)) return Number(entry);
    } catch {
      // A process that ended while we looked.
    }
  }
  throw new Error(`no server process found on port ${port}`);
}

/** Resident memory of `pid`, in MB. */
const residentMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Floods `path` for `ms` while asking for the health probe every 250 ms; what the probes and the memory saw. */
async function underFlood(port: number, pid: number, path: string, ms: number, headers?: string[]) {
  const probes: { status: number; ms: number }[] = [];
  let peakMb = residentMb(pid);
  const probing = setInterval(() => {
    const started = Date.now();
    peakMb = Math.max(peakMb, residentMb(pid));
    void fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => probes.push({ status: r.status, ms: Date.now() - started }),
      () => probes.push({ status: 0, ms: Date.now() - started }),
    );
  }, 250);
  const flood = await pipelineFlood({ port, path, connections: 8, durationMs: ms, headers });
  clearInterval(probing);
  // The last probes' answers.
  await new Promise((done) => setTimeout(done, 1000));
  return { flood, probes, peakMb };
}

const ROADS = [
  { name: 'a static file', path: '/favicon.svg' },
  { name: 'a page', path: '/' },
  { name: 'a page, compressed', path: '/', headers: ['Accept-Encoding: br'] },
  { name: 'a guest page held in memory', path: '/tournaments' },
  { name: 'an API read', path: '/api/games' },
];

async function attackEveryRoad(port: number, pid: number) {
  const before = residentMb(pid);
  for (const road of ROADS) {
    const { flood, probes, peakMb } = await underFlood(port, pid, road.path, 3000, road.headers);
    expect(flood.sent, road.name).toBeGreaterThan(1000);
    // Still the same process: it neither crashed nor was restarted.
    expect(residentMb(pid), road.name).toBeGreaterThan(0);
    expect(probes.length, road.name).toBeGreaterThanOrEqual(8);
    for (const probe of probes) expect(probe, road.name).toMatchObject({ status: 200 });
    expect(Math.max(...probes.map((p) => p.ms)), road.name).toBeLessThan(3000);
    expect(peakMb - before, `${road.name}: memory grew by ${Math.round(peakMb - before)} MB`).toBeLessThan(150);
  }
}

test('the embedded server under npm start lives through non-reading pipelining clients on every road', async () => {
  test.setTimeout(120_000);
  const pid = servingPid(E2E_PORT);
  await attackEveryRoad(E2E_PORT, pid);
  expect(servingPid(E2E_PORT)).toBe(pid);
});

test.describe('on PostgreSQL', () => {
  const base = process.env.TEST_DATABASE_URL;
  test.skip(!base, 'needs PostgreSQL (TEST_DATABASE_URL)');
  let database: ScratchDatabase;
  let app: AppInstance;

  test.beforeAll(async () => {
    test.setTimeout(150_000);
    database = await createScratchDatabase(base!, 'kiberarena_attacks');
    // With the memory settings npm start gives a server on PostgreSQL: without a cap V8 lets its heap grow at leisure.
    app = await startInstance(E2E_PORT + 14, {
      DATABASE_URL: database.url,
      SEED_DEMO: 'true',
      DISCORD_API_ROOT: 'http://127.0.0.1:9/api',
      ADMIN_PASSWORD: 'attacks-admin-password',
      NODE_OPTIONS: serverNodeOptions(false).join(' '),
      ...SERVER_MALLOC,
    });
  });

  test.afterAll(async () => {
    await app?.stop();
    await database?.drop();
  });

  test('the server lives through non-reading pipelining clients on every road', async () => {
    test.setTimeout(120_000);
    await attackEveryRoad(E2E_PORT + 14, app.pid);
    expect(app.output()).not.toMatch(/heap limit|EMFILE/);
  });
});
