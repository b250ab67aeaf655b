// `npm run bench:nginx` (issue 55: nginx in front where it scales). Debian's nginx runs the shipped
// deploy/nginx.conf (through deploy/nginx-local.ts: ports and folders moved, nothing else; the
// site's server also listens on plain HTTP here, so TLS costs neither side on the loopback) in front of two
// instances (`npm start`'s server, its memory settings) on one PostgreSQL with Redis:
//   1. the load mix of bench/server/load.ts (its clients, warm-up and check of every acknowledged
//      write, unchanged) through nginx, and the same mix against one instance alone (with Redis
//      too), alternating alone / nginx, nginx / alone… BENCH_NGINX_RUNS pairs (default 3), each on a
//      fresh copy of the volume. Targets, on the medians: guests get at least twice the answers a
//      second through nginx; no kind of client is worse through nginx than alone (p99 at most
//      NOT_WORSE above alone's, and an unpaced reader's answers a second at least alone's less
//      NOT_WORSE); no 5xx, no lost write, no request unanswered.
//   2. held guest pages through nginx (its micro-cache) against the same nginx serving the same
//      bytes from disk (a static twin: a file of the page's compressed bytes, sent with the page's
//      headers, in a server added to the same configuration, so the same workers, logs and
//      keep-alive): static, held, held, static… BENCH_NGINX_ROUNDS pairs (default 3); the median
//      ratio of answers a second (target ≥ 90 %), and nginx's CPU per answer beside it.
// Loopback only. Writes bench/results/server/nginx-*.json; exits 1 on a miss.
//
// Env: BENCH_LOAD_SECONDS (measured, default 60), BENCH_LOAD_WARM_SECONDS (default 30),
// BENCH_LOAD_CONNECTIONS (default 200) as for bench:load; BENCH_NGINX_RUNS (default 3),
// BENCH_NGINX_ROUNDS (default 3), BENCH_PAGE_SECONDS (per held-page run, default 8),
// BENCH_CONNECTIONS (held pages, default 50), BENCH_NGINX_ONLY=load|held, BENCH_NGINX_READER_RATE and
// BENCH_NGINX_GUEST_RATE (the readers' pace, below), BENCH_NGINX_REDIS (default
// redis://127.0.0.1:6379/10, emptied before each run: rate-limit windows do not carry over),
// BENCH_NGINX_DB (default bench_nginx, copied from BENCH_SOURCE_DB, default bench_server).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createClient } from 'redis';
import { type LocalNginx, startLocalNginx } from '../../deploy/nginx-local.ts';
import { table } from '../table.ts';
import {
  AS_A_BROWSER,
  benchPort,
  cannon,
  cpuSeconds,
  databaseUrl,
  failures,
  median,
  ms,
  percentile,
  RESULTS_DIR,
  RssSampler,
  seconds,
  settle,
  startServer,
  type Run,
} from './lib.ts';

// load.ts reads its database's name when loaded: this benchmark's own, so a bench:load run beside it keeps its own.
process.env.BENCH_LOAD_DB ??= process.env.BENCH_NGINX_DB ?? 'bench_nginx';
const { count5xx, ensureSources, mix, prepare, verify, warmUp } = await import('./load.ts');
const DB = process.env.BENCH_LOAD_DB;

const DURATION = seconds('BENCH_LOAD_SECONDS', 60);
const WARM_SECONDS = seconds('BENCH_LOAD_WARM_SECONDS', 30);
const RUNS = Number(process.env.BENCH_NGINX_RUNS ?? 3);
const ROUNDS = Number(process.env.BENCH_NGINX_ROUNDS ?? 3);
const PAGE_SECONDS = seconds('BENCH_PAGE_SECONDS', 8);
const HELD_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_NGINX_ONLY;
const REDIS = process.env.BENCH_NGINX_REDIS ?? 'redis://127.0.0.1:6379/10';
/** Instances A and B, nginx's site over TLS, its HTTP redirect, the site on plain HTTP, the static twin. */
const PORTS = { a: benchPort(13), b: benchPort(14), https: benchPort(15), http: benchPort(16), plain: benchPort(17), twin: benchPort(18) } as const;
const FOLDER = resolve('.bench-nginx');
const TARGET = { guestsTimes: 2, heldRatio: 0.9 };
/** How much worse than alone a kind may measure through nginx before it counts as worse: the machine's noise between runs. */
const NOT_WORSE = 0.1;
/** Clients that send as fast as they are answered (the others are paced: their answers a second are set by the mix). */
const UNPACED = ['guests', 'chatPolls', 'bracketPolls'];
/**
 * The most a reader's connection asks a second, in both setups (BENCH_NGINX_READER_RATE; 0: as
 * fast as answered, as load.ts). Unpaced, the readers nginx answers from its cache (guests, the
 * bracket polls) ask tens of times more than one instance can answer, and the load generator — one
 * thread on the same two cores — spends its time on their answers: every other kind's latency then
 * measures its queue, not the servers (decision 032, F32). Ten a second is twice what a guest's
 * connection gets from one instance alone under the mix, so alone is not held back by it.
 */
const READER_RATE = Number(process.env.BENCH_NGINX_READER_RATE ?? 10);
/**
 * The guests' pace, in both setups (BENCH_NGINX_GUEST_RATE; unset: measured). Their line is twice
 * one instance's answers, so their pace must allow more than that, or the benchmark, not nginx,
 * sets their rate: on a fast machine one instance answers a guest's connection about 8 times a
 * second, and READER_RATE would cap nginx at 1.2×. Unset, a short run of one instance with the
 * guests unpaced measures what it answers a guest's connection, and the guests are paced at
 * GUEST_HEADROOM times that (at least READER_RATE) in every run: alone is not held back by it,
 * nginx may show more than twice, and the load generator is not swamped by nginx's cached answers.
 */
const GUEST_RATE = process.env.BENCH_NGINX_GUEST_RATE ? Number(process.env.BENCH_NGINX_GUEST_RATE) : undefined;
const GUEST_HEADROOM = 3;
/** How long the calibration's measured part runs (its warm-up as the runs'). */
const CALIBRATION_SECONDS = 20;
/** Requests a second per connection for named kinds, in both setups (BENCH_NGINX_RATES=chatPolls=1.2,guests=5): what-ifs. */
const RATES = new Map(
  (process.env.BENCH_NGINX_RATES ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.split('=')[0]!.trim(), Number(pair.split('=')[1])] as const),
);

type Setup = 'alone' | 'nginx';

/** The instances (and nginx) serving one run. */
interface Serving {
  url: string;
  /** The instances' server processes. */
  pids: number[];
  nginx?: LocalNginx;
  stop(): Promise<void>;
}

/** Empties this benchmark's Redis database: a run starts with no rate-limit window open. */
async function emptyRedis(): Promise<void> {
  const client = createClient({ url: REDIS });
  await client.connect();
  await client.flushDb();
  await client.close();
}

/** One instance as `npm start` runs it, with Redis; behind nginx it believes nginx's X-Forwarded-* (loopback). */
function instance(port: number, name: string, behindNginx: boolean) {
  return startServer({
    port,
    database: DB,
    env: { REDIS_URL: REDIS, DATA_DIR: join(FOLDER, `data-${name}`), TRUST_PROXY: behindNginx ? 'loopback' : 'false' },
  });
}

/** Starts `setup`: one instance on A's port, or A and B (one after the other: the first may build) behind nginx. */
async function serve(setup: Setup, extra?: string): Promise<Serving> {
  const a = await instance(PORTS.a, 'a', setup === 'nginx');
  if (setup === 'alone') return { url: a.url, pids: [a.pid], stop: a.stop };
  let b: Awaited<ReturnType<typeof instance>> | undefined;
  try {
    b = await instance(PORTS.b, 'b', true);
    rmSync(join(FOLDER, 'nginx'), { recursive: true, force: true });
    const nginx = await startLocalNginx({
      prefix: join(FOLDER, 'nginx'),
      upstreams: [PORTS.a, PORTS.b],
      http: PORTS.http,
      https: PORTS.https,
      plain: PORTS.plain,
      extra,
    });
    const both = b;
    return {
      url: nginx.plainUrl!,
      pids: [a.pid, b.pid],
      nginx,
      stop: async () => {
        await nginx.stop();
        await Promise.all([a.stop(), both.stop()]);
      },
    };
  } catch (error) {
    await Promise.all([a.stop(), b?.stop()]);
    throw error;
  }
}

/** nginx's worker processes (the master's children). */
function nginxWorkers(nginx: LocalNginx): number[] {
  try {
    return readChildren(nginx.pid);
  } catch {
    return [];
  }
}
const readChildren = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

/** CPU seconds of a list of processes (those gone meanwhile count nothing). */
const cpuOf = (pids: number[]) =>
  pids.reduce((sum, pid) => {
    try {
      return sum + cpuSeconds(pid);
    } catch {
      return sum;
    }
  }, 0);

/** A copy of the volume made fresh; another benchmark copying the source a moment holds it, so try again for a while. */
async function prepareRun(run: string) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prepare('postgres', run);
    } catch (error) {
      if (attempt >= 20 || !/being accessed by other users/.test(String((error as Error).message))) throw error;
      await sleep(3000);
    }
  }
}

interface LoadResult {
  setup: Setup;
  runs: Record<string, Run>;
  lost: Awaited<ReturnType<typeof verify>>;
  rssMax: number[];
  cpu: { instances: number; nginx: number; postgres: number; generator: number };
  /** The load generator's own event loop delay (ms): part of every latency it measured. */
  generatorLag: { p50: number; p99: number };
  /** Each kind's connections. */
  connections: Record<string, number>;
}

/** How fast each kind of client may ask in a run: the readers at READER_RATE, the guests at `guestRate` (0: as fast as answered). */
interface Pace {
  guestRate: number;
  duration: number;
}

/** One run of the load mix against `setup`, as load.ts's `oneRun` does it: fresh copy, warm-up, measured mix, every write checked. */
async function loadRun(setup: Setup, number: number, pace: Pace): Promise<LoadResult> {
  const run = `${Date.now().toString(36)}-${setup}-${number}`;
  console.log(`\n━ ${setup === 'nginx' ? 'nginx + два екземпляри' : 'один екземпляр'}, прогін ${number || 'калібрування'}: готуємо копію…`);
  const prepared = await prepareRun(run);
  await emptyRedis();
  const serving = await serve(setup);
  const samplers = serving.pids.map((pid) => new RssSampler(pid));
  try {
    const clients = mix(prepared, run);
    for (const [name, kind] of Object.entries(clients.kinds)) {
      const rate = name === 'guests' ? pace.guestRate : READER_RATE;
      if (rate > 0 && UNPACED.includes(name)) Object.assign(kind, { connectionRate: rate });
      if (RATES.has(name)) Object.assign(kind, { connectionRate: RATES.get(name) });
    }
    const total = Object.values(clients.kinds).reduce((n, k) => n + k.connections, 0);
    console.log(`${serving.url} (сервери ${serving.pids.join(', ')}). ${total} зʼєднань на ${pace.duration} с.`);
    await settle(serving.url);
    for (const sampler of samplers) sampler.start();
    console.log(`Розігрів: ${clients.readAddresses.length} адрес читачів по разу за ${await warmUp(serving.url, clients.readAddresses)} с.`);
    await Promise.all(Object.values(clients.kinds).map((k) => cannon({ url: serving.url, duration: WARM_SECONDS, ...k })));
    await settle(serving.url);
    const workers = serving.nginx ? nginxWorkers(serving.nginx) : [];
    const before = { instances: cpuOf(serving.pids), nginx: cpuOf(workers), postgres: cpuSeconds('postgres'), generator: process.cpuUsage() };
    // The clients share this thread: while it is busy with answers, a latency measured here includes its own wait.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const runs: Record<string, Run> = Object.fromEntries(
      await Promise.all(
        Object.entries(clients.kinds).map(async ([name, k]) => [name, await cannon({ url: serving.url, duration: pace.duration, ...k })] as const),
      ),
    );
    lag.disable();
    const used = process.cpuUsage(before.generator);
    const cpu = {
      instances: cpuOf(serving.pids) - before.instances,
      nginx: cpuOf(workers) - before.nginx,
      postgres: cpuSeconds('postgres') - before.postgres,
      generator: (used.user + used.system) / 1e6,
    };
    const generatorLag = { p50: lag.percentile(50) / 1e6, p99: lag.percentile(99) / 1e6 };
    console.log(
      `Генератор навантаження: ${((cpu.generator / pace.duration) * 100).toFixed(0)} % ядра, затримка свого циклу p50 ${generatorLag.p50.toFixed(0)} мс, p99 ${generatorLag.p99.toFixed(0)} мс.`,
    );
    for (const sampler of samplers) sampler.stop();
    await settle(serving.url);
    await serving.stop();
    const lost = await verify('postgres', prepared, clients.written);
    const rows = Object.entries(runs).map(([name, r]) => [
      name,
      Math.round(r.latencies.length / pace.duration),
      ms(percentile(r.latencies, 50)),
      ms(percentile(r.latencies, 99)),
      count5xx(r),
      r.unanswered.length,
    ]);
    console.log(table(['clients', 'rps', 'p50', 'p99', '5xx', 'unanswered'], rows));
    if (lost.count > 0) console.log(table(['write', 'acknowledged', 'lost'], lost.table));
    const connections = Object.fromEntries(Object.entries(clients.kinds).map(([name, k]) => [name, k.connections]));
    return { setup, runs, lost, rssMax: samplers.map((s) => s.max), cpu, generatorLag, connections };
  } finally {
    for (const sampler of samplers) sampler.stop();
    await serving.stop();
  }
}

/** The guests' pace (GUEST_RATE's rule): what one instance answers a guest's connection with the guests unpaced, times GUEST_HEADROOM. */
async function calibratedGuestRate(): Promise<number> {
  const { runs, connections } = await loadRun('alone', 0, { guestRate: 0, duration: CALIBRATION_SECONDS });
  const perConnection = runs.guests!.latencies.length / CALIBRATION_SECONDS / connections.guests!;
  const rate = Math.max(READER_RATE, Math.ceil(perConnection * GUEST_HEADROOM));
  console.log(`Гості: один екземпляр відповідає ${perConnection.toFixed(1)} раза на секунду на зʼєднання; темп гостей у прогонах — ${rate} на секунду.`);
  return rate;
}

/** 1. The load mix alone and through nginx, alternating. */
async function loadMix(verdicts: [string, boolean][], summary: Record<string, unknown>): Promise<void> {
  await ensureSources(['postgres']);
  const guestRate = GUEST_RATE ?? (await calibratedGuestRate());
  const pace = { guestRate, duration: DURATION };
  const results: Record<Setup, LoadResult[]> = { alone: [], nginx: [] };
  for (let n = 1; n <= RUNS; n++) {
    const order: Setup[] = n % 2 === 1 ? ['alone', 'nginx'] : ['nginx', 'alone'];
    for (const setup of order) results[setup].push(await loadRun(setup, n, pace));
  }
  const kinds = Object.keys(results.alone[0]!.runs);
  const rpsOf = (setup: Setup, kind: string) => median(results[setup].map((r) => r.runs[kind]!.latencies.length / DURATION));
  const p99Of = (setup: Setup, kind: string) => median(results[setup].map((r) => percentile(r.runs[kind]!.latencies, 99)));
  const p50Of = (setup: Setup, kind: string) => median(results[setup].map((r) => percentile(r.runs[kind]!.latencies, 50)));
  const worse: string[] = [];
  const rows = kinds.map((kind) => {
    const [rpsAlone, rpsNginx, p99Alone, p99Nginx] = [rpsOf('alone', kind), rpsOf('nginx', kind), p99Of('alone', kind), p99Of('nginx', kind)];
    const slower = p99Nginx > p99Alone * (1 + NOT_WORSE);
    const fewer = UNPACED.includes(kind) && rpsNginx < rpsAlone * (1 - NOT_WORSE);
    if (slower || fewer) worse.push(kind);
    return [
      kind,
      Math.round(rpsAlone),
      Math.round(rpsNginx),
      `${(rpsNginx / rpsAlone).toFixed(2)}×`,
      ms(p50Of('alone', kind)),
      ms(p50Of('nginx', kind)),
      ms(p99Alone),
      ms(p99Nginx),
      results.nginx.map((r) => ms(percentile(r.runs[kind]!.latencies, 99))).join(' / '),
      slower || fewer ? 'worse' : 'ok',
    ];
  });
  console.log(`\nСуміш навантаження (${RUNS} пари по ${DURATION} с, медіани): один екземпляр проти nginx + два екземпляри:`);
  console.log(table(['clients', 'rps alone', 'rps nginx', 'nginx/alone', 'p50 alone', 'p50 nginx', 'p99 alone', 'p99 nginx', 'p99 nginx per run', ''], rows));
  const guestsTimes = rpsOf('nginx', 'guests') / rpsOf('alone', 'guests');
  const all = [...results.alone, ...results.nginx];
  const fiveXX = all.reduce((n, r) => n + Object.values(r.runs).reduce((m, run) => m + count5xx(run), 0), 0);
  const lost = all.reduce((n, r) => n + r.lost.count, 0);
  const unanswered = all.reduce((n, r) => n + Object.values(r.runs).reduce((m, run) => m + run.unanswered.length, 0), 0);
  const totalRps = (setup: Setup) => median(results[setup].map((r) => Object.values(r.runs).reduce((n, run) => n + run.latencies.length, 0) / DURATION));
  const cpu = (setup: Setup, part: keyof LoadResult['cpu']) => median(results[setup].map((r) => r.cpu[part] / DURATION));
  console.log(
    `Усього відповідей за секунду: ${Math.round(totalRps('alone'))} (один) і ${Math.round(totalRps('nginx'))} (nginx). ` +
      `CPU, частка ядра: екземпляри ${cpu('alone', 'instances').toFixed(2)} / ${cpu('nginx', 'instances').toFixed(2)}, nginx — / ${cpu('nginx', 'nginx').toFixed(2)}, ` +
      `PostgreSQL ${cpu('alone', 'postgres').toFixed(2)} / ${cpu('nginx', 'postgres').toFixed(2)}, генератор ${cpu('alone', 'generator').toFixed(2)} / ${cpu('nginx', 'generator').toFixed(2)}. ` +
      `Затримка циклу генератора p99: ${results.alone.map((r) => r.generatorLag.p99.toFixed(0)).join(' / ')} мс (один), ${results.nginx.map((r) => r.generatorLag.p99.toFixed(0)).join(' / ')} мс (nginx). ` +
      `RSS максимум: ${results.alone.map((r) => r.rssMax.map((v) => v.toFixed(0)).join('+')).join(' / ')} MB один; ${results.nginx.map((r) => r.rssMax.map((v) => v.toFixed(0)).join('+')).join(' / ')} MB два.`,
  );
  verdicts.push(
    [`guests through nginx ≥ ${TARGET.guestsTimes}× the answers a second of one instance (${guestsTimes.toFixed(2)}×)`, guestsTimes >= TARGET.guestsTimes],
    [
      `no kind of client worse through nginx (p99 within ${NOT_WORSE * 100} %, unpaced readers' rps too)${worse.length ? `: ${worse.join(', ')}` : ''}`,
      worse.length === 0,
    ],
    [`no 5xx (${fiveXX})`, fiveXX === 0],
    [`no lost write (${lost})`, lost === 0],
    [`no request unanswered (${unanswered})`, unanswered === 0],
  );
  summary.load = {
    duration: DURATION,
    runs: RUNS,
    kinds: Object.fromEntries(
      kinds.map((kind) => [
        kind,
        {
          rpsAlone: rpsOf('alone', kind),
          rpsNginx: rpsOf('nginx', kind),
          p99Alone: p99Of('alone', kind),
          p99Nginx: p99Of('nginx', kind),
          p50Alone: p50Of('alone', kind),
          p50Nginx: p50Of('nginx', kind),
        },
      ]),
    ),
    guestsTimes,
    totalRps: { alone: totalRps('alone'), nginx: totalRps('nginx') },
    readerRate: READER_RATE,
    guestRate,
    rates: Object.fromEntries(RATES),
    cpu: { alone: results.alone.map((r) => r.cpu), nginx: results.nginx.map((r) => r.cpu) },
    generatorLag: { alone: results.alone.map((r) => r.generatorLag), nginx: results.nginx.map((r) => r.generatorLag) },
    rssMax: { alone: results.alone.map((r) => r.rssMax), nginx: results.nginx.map((r) => r.rssMax) },
    fiveXX,
    lost,
    unanswered,
  };
}

/** A GET whose body is kept as sent (compressed), with its headers. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((done, failed) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', failed);
      })
      .on('error', failed);
  });
}

/** Headers nginx writes itself for a file (or for every answer), left to it on the twin. */
const NGINX_OWN = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-type',
  'etag',
  'last-modified',
  'accept-ranges',
  'server',
]);

/** The twin of a page in nginx's syntax: its file, sent with the page's headers. */
function twinLocation(path: string, file: string, headers: http.IncomingHttpHeaders): string {
  const added = Object.entries(headers).flatMap(([name, value]) =>
    NGINX_OWN.has(name) || value === undefined
      ? []
      : // A value nginx would read as a variable or could not quote is left out (none of ours so far).
        (Array.isArray(value) ? value : [value]).filter((v) => !/["$\\]/.test(v)).map((v) => `            add_header ${name} "${v}";`),
  );
  return [
    `        location = ${path} {`,
    `            alias ${file};`,
    '            types { }',
    `            default_type "${String(headers['content-type'])}";`,
    ...added,
    '        }',
  ].join('\n');
}

const rps = (run: Run) => run.latencies.length / PAGE_SECONDS;
const pct = (value: number) => `${Math.round(value * 100)} %`;

/** 2. Held guest pages through nginx against nginx serving their bytes from disk. */
async function heldPages(verdicts: [string, boolean][], summary: Record<string, unknown>): Promise<void> {
  await ensureSources(['postgres']);
  await prepareRun(`${Date.now().toString(36)}-held`);
  await emptyRedis();
  const client = new pg.Client({ connectionString: databaseUrl(DB) });
  await client.connect();
  const [game] = (await client.query<{ id: string }>('select g.id from games g join game_stats_configs c on c.game_id = g.id order by g.name limit 1')).rows;
  const [running] = (await client.query<{ id: string }>("select id from tournaments where status = 'started' and not solo_only order by date desc, id limit 1"))
    .rows;
  await client.end();
  const pages = [
    { name: '/tournaments', path: '/tournaments' },
    { name: '/tournaments/{id}', path: `/tournaments/${running!.id}` },
    { name: '/games/{id}', path: `/games/${game!.id}` },
  ];

  // The bytes nginx holds are what an instance sends for the encoding nginx asks for (its `Accept-Encoding` is reduced to `br`).
  const sizing = await serve('alone');
  const twins = join(FOLDER, 'twins');
  rmSync(twins, { recursive: true, force: true });
  mkdirSync(twins, { recursive: true });
  const served: { name: string; path: string; twin: string; bytes: number; encoding: string | undefined; location: string }[] = [];
  try {
    for (const [index, page] of pages.entries()) {
      await rawGet(`${sizing.url}${page.path}`, { 'accept-encoding': 'br' });
      const answer = await rawGet(`${sizing.url}${page.path}`, { 'accept-encoding': 'br' });
      if (answer.status !== 200) throw new Error(`${page.path} answered ${answer.status}`);
      const file = join(twins, `page-${index}`);
      writeFileSync(file, answer.body);
      // The held answer carries nginx's X-Cache-Status; so does its twin.
      const location = twinLocation(`/twin-${index}`, file, { ...answer.headers, 'x-cache-status': 'HIT' });
      served.push({ ...page, twin: `/twin-${index}`, bytes: answer.body.length, encoding: answer.headers['content-encoding'] as string | undefined, location });
    }
  } finally {
    await sizing.stop();
  }
  const extra = ['    server {', `        listen 127.0.0.1:${PORTS.twin};`, ...served.map((page) => page.location), '    }'].join('\n');
  const serving = await serve('nginx', extra);
  const twinUrl = `http://127.0.0.1:${PORTS.twin}`;
  const rows: (string | number)[][] = [];
  const results: Record<string, unknown> = {};
  try {
    const workers = nginxWorkers(serving.nginx!);
    const measure = async (url: string) => {
      await settle(serving.url);
      const cpuBefore = cpuOf(workers);
      const run = await cannon({ url, connections: HELD_CONNECTIONS, duration: PAGE_SECONDS, headers: AS_A_BROWSER });
      return { run, cpu: cpuOf(workers) - cpuBefore };
    };
    for (const page of served) {
      const heldUrl = `${serving.url}${page.path}`;
      const twinOfPage = `${twinUrl}${page.twin}`;
      const [held, twin] = [await rawGet(heldUrl, AS_A_BROWSER), await rawGet(twinOfPage, AS_A_BROWSER)];
      await rawGet(heldUrl, AS_A_BROWSER);
      if (held.status !== 200 || twin.status !== 200 || twin.body.length !== page.bytes)
        throw new Error(`${page.path}: held ${held.status}, twin ${twin.status} with ${twin.body.length} of ${page.bytes} bytes`);
      // Warm-up of both: nginx's first connections to the instances and to the readers.
      await cannon({ url: heldUrl, connections: HELD_CONNECTIONS, duration: 2, headers: AS_A_BROWSER });
      await cannon({ url: twinOfPage, connections: HELD_CONNECTIONS, duration: 2, headers: AS_A_BROWSER });
      const ours: { run: Run; cpu: number }[] = [];
      const theirs: { run: Run; cpu: number }[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The twin first in even rounds, the held page first in odd ones: load that rises or falls through a pair favours neither side.
        if (round % 2 === 0) {
          theirs.push(await measure(twinOfPage));
          ours.push(await measure(heldUrl));
        } else {
          ours.push(await measure(heldUrl));
          theirs.push(await measure(twinOfPage));
        }
        console.log(`  ${page.name}: з кешу ${Math.round(rps(ours[round]!.run))} rps, з диска ${Math.round(rps(theirs[round]!.run))} rps`);
      }
      const ratios = ours.map((o, i) => rps(o.run) / rps(theirs[i]!.run));
      const ratio = median(ratios);
      const failed = [...ours, ...theirs].reduce((sum, m) => sum + failures(m.run), 0);
      const usPerAnswer = (list: { run: Run; cpu: number }[]) => median(list.map((m) => (m.cpu * 1e6) / m.run.latencies.length));
      const statuses = new Map<number, number>();
      for (const m of ours) for (const [status, count] of m.run.statuses) statuses.set(status, (statuses.get(status) ?? 0) + count);
      results[page.name] = {
        bytes: page.bytes,
        encoding: page.encoding,
        held: ours.map((m) => rps(m.run)),
        twin: theirs.map((m) => rps(m.run)),
        ratios,
        ratio,
        failed,
        cpuUsHeld: usPerAnswer(ours),
        cpuUsTwin: usPerAnswer(theirs),
      };
      verdicts.push([
        `held ${page.name} through nginx ≥ ${pct(TARGET.heldRatio)} of nginx from disk (${pct(ratio)}), none failed (${failed})`,
        ratio >= TARGET.heldRatio && failed === 0,
      ]);
      rows.push([
        page.name,
        `${(page.bytes / 1024).toFixed(1)} KB ${page.encoding ?? ''}`.trim(),
        ours.map((m) => Math.round(rps(m.run))).join(' / '),
        theirs.map((m) => Math.round(rps(m.run))).join(' / '),
        ratios.map(pct).join(' / '),
        pct(ratio),
        `${usPerAnswer(ours).toFixed(0)} / ${usPerAnswer(theirs).toFixed(0)} µs`,
        ms(
          percentile(
            ours.flatMap((m) => m.run.latencies),
            99,
          ),
        ),
        ms(
          percentile(
            theirs.flatMap((m) => m.run.latencies),
            99,
          ),
        ),
        failed,
      ]);
    }
    const cacheStatuses = serving.nginx!.accessLog();
    const counts = ['HIT', 'STALE', 'UPDATING', 'MISS', 'EXPIRED'].map((status) => `${status} ${cacheStatuses.split(`cache=${status}`).length - 1}`).join(', ');
    console.log(`Кеш nginx за час вимірювання (журнал, ще не весь записаний): ${counts}.`);
  } finally {
    await serving.stop();
  }
  console.log(
    `\nЗбережені сторінки гостя через nginx проти того самого nginx з диска, ${HELD_CONNECTIONS} зʼєднань по ${PAGE_SECONDS} с, ${ROUNDS} пари (ціль ≥ ${pct(TARGET.heldRatio)}):`,
  );
  console.log(
    table(
      [
        'page',
        'bytes as sent',
        'held rps',
        'from disk rps',
        'ratio per pair',
        'median',
        'nginx CPU per answer held / disk',
        'held p99',
        'disk p99',
        'non-2xx/errors',
      ],
      rows,
    ),
  );
  summary.held = results;
}

const verdicts: [string, boolean][] = [];
const summary: Record<string, unknown> = {};
mkdirSync(FOLDER, { recursive: true });
if (ONLY !== 'held') await loadMix(verdicts, summary);
if (ONLY !== 'load') await heldPages(verdicts, summary);
console.log(`\nnginx попереду (issue 55):\n${verdicts.map(([what, ok]) => `  ${ok ? 'ok  ' : 'FAIL'} ${what}`).join('\n')}`);
const stamp = new Date().toISOString();
mkdirSync(RESULTS_DIR, { recursive: true });
writeFileSync(join(RESULTS_DIR, `nginx-${stamp.replace(/[:.]/g, '-')}.json`), JSON.stringify({ stamp, summary, verdicts }, null, 2));
process.exit(verdicts.every(([, ok]) => ok) ? 0 : 1);
