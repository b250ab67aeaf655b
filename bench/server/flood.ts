// `node bench/server/flood.ts` (issue 18): a guest sends 100 000 distinct URLs over keep-alive
// connections from loopback, the way 42 000 GETs of /api/tournaments?offset=100000&r=<unique>
// once filled the answer cache until V8 ran out of heap. The server is started as `npm start`
// starts it (scripts/start.ts: supervisor, memory flags) on a fresh embedded database with demo
// data; the figures are the server's own resident memory before, during and after, and whether the
// same server process is still the one answering (the supervisor would hide a crash otherwise).
//
// Env: BENCH_FLOOD_REQUESTS (default 100 000), BENCH_FLOOD_CONNECTIONS (default 32),
// BENCH_FLOOD_PORT (default 4523, BENCH_PORT_BASE + 3), BUILD_DIR (default dist-bench-server). Not part of npm test.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { table } from '../table.ts';
import { benchPort, RESULTS_DIR, RssSampler, servingPid, settle } from './lib.ts';

const REQUESTS = Number(process.env.BENCH_FLOOD_REQUESTS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_FLOOD_CONNECTIONS ?? 32);
const PORT = Number(process.env.BENCH_FLOOD_PORT ?? benchPort(3));
const BUILD_DIR = process.env.BUILD_DIR ?? 'dist-bench-server';
const DATA_DIR = '.bench-flood-data';
/**
 * What the flood may add to the server's resident memory. The 200 MB of decision 010 is for a
 * server on PostgreSQL; here PGlite lives in the same process, with its own WebAssembly memory.
 */
const MAX_GROWTH_MB = 64;

/**
 * The i-th address: nine in twenty are the address that crashed the server (a parameter no page
 * reads, so never held), nine a distinct offset of the same list (held, so the cache's bounds do
 * the work), one a page with junk in its query, one a distinct page of the news (held).
 */
function address(i: number): string {
  const kind = i % 20;
  if (kind < 9) return `/api/tournaments?offset=100000&r=${i}`;
  if (kind < 18) return `/api/tournaments?offset=${i % 100_000}`;
  if (kind === 18) return `/tournaments?r=${i}`;
  return `/news?page=${1 + (i % 10)}&view=all&offset=${i}`;
}

rmSync(DATA_DIR, { recursive: true, force: true });
mkdirSync(RESULTS_DIR, { recursive: true });
const logPath = join(RESULTS_DIR, `flood-${PORT}.log`);
const log = createWriteStream(logPath);
const supervisor = spawn(process.execPath, ['scripts/start.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    BUILD_DIR,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR,
    DATABASE_URL: '',
    SEED_DEMO: 'true',
    ADMIN_PASSWORD: 'bench-flood-admin-password',
    ASTRO_TELEMETRY_DISABLED: '1',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
supervisor.stdout.pipe(log);
supervisor.stderr.pipe(log);
const base = `http://127.0.0.1:${PORT}`;
const stop = async () => {
  if (supervisor.exitCode !== null) return;
  supervisor.kill('SIGTERM');
  await Promise.race([new Promise((done) => supervisor.once('exit', done)), sleep(15_000)]);
};

const deadline = Date.now() + 15 * 60_000; // a first build takes minutes on two cores
while (!(await fetch(`${base}/api/health`).then((r) => r.ok, () => false))) {
  if (supervisor.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start; see ${logPath}`);
  await sleep(500);
}

const pid = servingPid(supervisor.pid!);
const rss = new RssSampler(pid);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
const statuses = new Map<string, number>();

/** One GET over the pooled keep-alive connections, its body read and dropped. */
const get = (path: string) =>
  new Promise<string>((resolve) => {
    const request = http.get({ agent, host: '127.0.0.1', port: PORT, path, headers: { 'accept-encoding': 'gzip, deflate, br' }, timeout: 30_000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.statusCode)));
      response.on('error', () => resolve('error'));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error) => resolve(error.message === 'timeout' ? 'timeout' : 'error'));
  });

let exitCode = 0;
try {
  // A few of each kind first, so "before" is a server that has rendered its pages once.
  for (let i = 0; i < 50; i++) await get(address(i));
  await settle(base);
  await sleep(3000);
  const before = rss.read();
  rss.start();
  console.log(`\nСервер ${base} (pid ${pid}, під наглядом pid ${supervisor.pid}), RSS перед потоком ${before.toFixed(0)} MB. ${REQUESTS} різних адрес, ${CONNECTIONS} зʼєднань keep-alive.`);

  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      for (let i = next++; i < REQUESTS; i = next++) {
        const status = await get(address(1000 + i));
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (i > 0 && i % 10_000 === 0) console.log(`  ${i} запитів, ${((Date.now() - started) / 1000).toFixed(0)} с, RSS ${rss.read().toFixed(0)} MB`);
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  await settle(base);
  await sleep(6000); // past the held answers' 5 s
  const after = rss.read();
  rss.stop();

  const health = await fetch(`${base}/api/health`).then((r) => r.status, () => 0);
  const samePid = servingPid(supervisor.pid!) === pid;
  const restarts = (readFileSync(logPath, 'utf8').match(/\[supervise\]/g) ?? []).length;
  const failed = [...statuses].filter(([status]) => !/^[23]/.test(status)).reduce((sum, [, count]) => sum + count, 0);
  console.log(
    `\n${table(
      ['', ''],
      [
        ['запитів', REQUESTS],
        ['за', `${seconds.toFixed(0)} с (${Math.round(REQUESTS / seconds)} за секунду)`],
        ['відповіді', [...statuses].sort().map(([status, count]) => `${status}: ${count}`).join(', ')],
        ['RSS перед', `${before.toFixed(0)} MB`],
        ['RSS найбільше', `${rss.max.toFixed(0)} MB`],
        ['RSS після (6 с спокою)', `${after.toFixed(0)} MB`],
        ['/api/health після', health],
        ['той самий процес', samePid ? `так (pid ${pid})` : 'ні: сервер перезапускався'],
        ['перезапусків у журналі', restarts],
      ],
    )}`,
  );
  const grown = rss.max - before;
  const ok = health === 200 && samePid && restarts === 0 && failed === 0 && grown <= MAX_GROWTH_MB;
  console.log(`\n${ok ? 'ok' : 'FAIL'}: сервер ${health === 200 && samePid ? 'живий і не перезапускався' : 'впав'}, ${failed} відповідей не 2xx/3xx, RSS виріс щонайбільше на ${grown.toFixed(0)} MB (межа ${MAX_GROWTH_MB} MB). Журнал: ${logPath}`);
  if (!ok) exitCode = 1;
} finally {
  await stop();
}
process.exit(exitCode);
