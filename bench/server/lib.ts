// Shared by the server benchmarks: databases, the built server (start, stop, memory), autocannon
// runs with every latency kept, and the tables they print.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import autocannon, { type Client, type Options, type Request, type Result } from 'autocannon';
import pg from 'pg';

export const PG_BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
export const BUILD_DIR = 'dist-bench-server';
export const RESULTS_DIR = resolve('bench/results/server');
export const ADMIN_EMAIL = 'bench-admin@bench.kiberarena.local';
export const ADMIN_PASSWORD = 'bench-admin-password-2024';

/**
 * The benchmarks' ports: a block of 20 from BENCH_PORT_BASE (default 4520, so 4520–4539), each
 * benchmark at its own offsets. Another base moves every benchmark together, away from another
 * run on the same machine.
 */
export const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 4520);
/** The port at `offset` (0–19) of the block. */
export const benchPort = (offset: number): number => {
  if (offset < 0 || offset > 19) throw new Error(`a bench port's offset is 0–19, not ${offset}`);
  return PORT_BASE + offset;
};

/** What every browser sends, so the server answers compressed as it would to a reader. */
export const AS_A_BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

export const databaseUrl = (name: string) => `${PG_BASE}/${name}`;

/** Runs statements on the maintenance database `postgres` (create, drop, copy databases). */
async function onMaintenance<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl('postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const ident = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name) || name === 'test' || name === 'postgres') throw new Error(`not a bench database name: ${name}`);
  return `"${name}"`;
};

export const databaseExists = (name: string) =>
  onMaintenance(async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);

/** Drops and creates an empty database (benchmark databases only, never `test`). */
export function recreateDatabase(name: string, template?: string): Promise<void> {
  return onMaintenance(async (c) => {
    await c.query(`drop database if exists ${ident(name)} with (force)`);
    await c.query(`create database ${ident(name)}${template ? ` template ${ident(template)}` : ''}`);
  });
}

/** A PostgreSQL benchmark database by name, or an embedded one by its folder. */
export type DatabaseChoice = string | { embedded: string };

/** A running build of the site (scripts/start.ts) on PostgreSQL. */
export interface Server {
  url: string;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node scripts/start.ts` (which builds into BUILD_DIR when the sources changed) and waits
 * until /api/health answers. The process started here becomes the supervisor; `pid` is its child,
 * the server, whose memory is sampled.
 */
export async function startServer(options: { port: number; database: DatabaseChoice; env?: Record<string, string>; cwd?: string; log?: string }): Promise<Server> {
  if (options.port < PORT_BASE || options.port > PORT_BASE + 19) throw new Error(`bench ports are ${PORT_BASE}–${PORT_BASE + 19} (BENCH_PORT_BASE)`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  // `log`: a name of its own (a baseline commit's server on the same port as this code's).
  const logPath = join(RESULTS_DIR, `server-${options.port}${options.log ? `-${options.log}` : ''}.log`);
  const log = createWriteStream(logPath);
  // `cwd`: another checkout of the project (a git worktree of an older commit, to measure against it).
  const child = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: options.cwd ?? process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BUILD_DIR,
      PORT: String(options.port),
      HOST: '127.0.0.1',
      // An embedded database: no DATABASE_URL, its folder as DATA_DIR (issue 24 runs the load mix on both).
      ...(typeof options.database === 'string' ? { DATABASE_URL: databaseUrl(options.database) } : {}),
      DATA_DIR: typeof options.database === 'string' ? '.bench-server-data' : options.database.embedded,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      SEED_DEMO: 'false',
      TRUST_PROXY: 'false',
      // Node flags for the measured server only (a heap cap, say), not for the benchmark itself.
      NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS ?? '',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const url = `http://127.0.0.1:${options.port}`;
  let exited = false;
  child.once('exit', () => (exited = true));
  const stop = async () => {
    if (exited) return;
    const gone = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await Promise.race([gone, sleep(5000)]);
    if (!exited) child.kill('SIGKILL');
    await gone;
  };
  const deadline = Date.now() + 15 * 60_000; // a first build takes a few minutes on two cores
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the server stopped while starting; see ${logPath}`);
    try {
      const response = await fetch(`${url}/api/health`);
      if (response.ok) return { url, pid: servingPid(child.pid!), process: child, stop };
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  await stop();
  throw new Error(`the server did not answer within 15 minutes; see ${logPath}`);
}

/** The server `npm start` runs (scripts/supervise.mjs): the one child of the process started as `supervisorPid`. */
export function servingPid(supervisorPid: number): number {
  const children = readFileSync(`/proc/${supervisorPid}/task/${supervisorPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one server under the supervisor ${supervisorPid}, found ${children.length}`);
  return Number(children[0]);
}

/** Samples a process's resident memory (VmRSS) while load runs. */
export class RssSampler {
  max = 0;
  samples: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly pid: number;
  constructor(pid: number) {
    this.pid = pid;
  }
  /** Resident memory now, in MB. */
  read(): number {
    const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const kb = Number(status.match(/VmRSS:\s+(\d+)\s+kB/)?.[1] ?? 0);
    return kb / 1024;
  }
  start(everyMs = 200): this {
    this.timer = setInterval(() => {
      try {
        const mb = this.read();
        this.samples.push(mb);
        this.max = Math.max(this.max, mb);
      } catch {
        // the process is gone
      }
    }, everyMs);
    return this;
  }
  stop(): this {
    clearInterval(this.timer);
    return this;
  }
}

/**
 * CPU time (user + system) a set of processes has used, read from /proc: the serving process, or
 * PostgreSQL's backends (every process named `postgres`). The load bench divides it by the answers
 * a kind got, to say what one answer of that kind costs on the core.
 */
export function cpuSeconds(which: number | 'postgres'): number {
  const ticks = (pid: string | number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start at the last ')': utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  if (which !== 'postgres') return ticks(which) / CLOCK_TICKS;
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += ticks(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total / CLOCK_TICKS;
}
/** Linux's USER_HZ, the unit of /proc/<pid>/stat's times, is 100 on every architecture Node runs on. */
const CLOCK_TICKS = 100;

/** What one autocannon run measured, with every response's latency kept (so runs can be merged). */
export interface Run {
  result: Result;
  latencies: number[];
  /** When each response came (ms since the run began), beside `latencies`. */
  at: number[];
  statuses: Map<number, number>;
  /** Each request that got no answer — a timeout, a connection error, a close with it unanswered — named, for the report. */
  unanswered: string[];
}

/** A run's failed requests: answers other than 2xx, and requests that got no answer at all. */
export const failures = (run: Run): number => run.result.non2xx + run.unanswered.length;

/**
 * One autocannon run; resolves when it ends. Its answers' bodies are dropped as they come
 * (`withoutBodies`) unless a request step has an `onResponse`, which may read them; one that does
 * not can say so with its own `setupClient`.
 */
export function cannon(options: Options): Promise<Run> {
  const latencies: number[] = [];
  const at: number[] = [];
  const statuses = new Map<number, number>();
  const began = performance.now();
  const unanswered: string[] = [];
  const mayReadBodies = options.requests?.some((step) => step.onResponse) ?? false;
  const setup = options.setupClient ?? (mayReadBodies ? undefined : withoutBodies);
  const setupClient = (client: Client) => {
    setup?.(client);
    watchUnanswered(client, unanswered, began);
  };
  return new Promise((done, failed) => {
    const instance = autocannon({ timeout: 10, ...options, setupClient }, (error, result) =>
      error ? failed(error) : done({ result, latencies, at, statuses, unanswered }),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      latencies.push(time);
      at.push(performance.now() - began);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    });
  });
}

/** "GET /path" from a request's bytes, if they hold a request line. */
const requestLine = (bytes: Buffer | undefined): string | undefined => bytes?.subarray(0, 2048).toString('latin1').match(/^(\S+ \S+) HTTP\//)?.[1];

/**
 * Notes in `unanswered` each request of `client`'s that gets no answer, with its path and when (seconds
 * into the run): a timeout, a connection error, or the server closing the connection with it
 * unanswered (autocannon then connects again and goes on, counting nothing). Reads autocannon's
 * client from the inside: its request iterator and queue are not its documented API.
 */
function watchUnanswered(client: Client, unanswered: string[], began: number): void {
  const when = () => `${((performance.now() - began) / 1000).toFixed(1)} s`;
  // The bytes sent name it: a step's `setupRequest` (a rotating path) leaves its definition's path unset.
  const named = (request: (Request & { requestBuffer?: Buffer }) | undefined) =>
    request && (requestLine(request.requestBuffer) ?? `${request.method ?? 'GET'} ${request.path ?? '?'}`);
  const waiting = () => named(client.pipelinedRequests.peek()?.req);
  // A timeout drops the connection, its queue with it, and sends the next request before it is told.
  let dropped: string | undefined;
  const destroyConnection = client._destroyConnection;
  client._destroyConnection = function (this: Client) {
    dropped = waiting();
    destroyConnection.call(this);
  };
  client.on('timeout', () => unanswered.push(`timeout: ${dropped ?? '?'} at ${when()}`));
  client.on('connError', (error: NodeJS.ErrnoException) => unanswered.push(`${error.code ?? error.message}: ${waiting() ?? '?'} at ${when()}`));
  const connect = client._connect;
  client._connect = function (this: Client) {
    connect.call(this);
    // Before autocannon's own listener, which connects again and sends the next request.
    this.conn.prependListener('end', () => {
      const request = waiting();
      if (request !== undefined && !this.destroyed) unanswered.push(`closed by the server: ${request} at ${when()}`);
    });
  };
}

/**
 * autocannon's `setupClient` for readers whose answers no one reads. autocannon keeps each body for
 * callbacks that might (`body += chunk`: every answer decoded as UTF-8 and concatenated), on the
 * same two cores as the server; a browser does no such work on the server's machine. Against the
 * held stages of a 256-player double elimination that was most of the load generator's work, and
 * in the load mix a fifth of a core (decision 032, F35). `BENCH_CANNON_BODIES=1` keeps the bodies.
 */
export const withoutBodies = (client: Client): void => {
  if (process.env.BENCH_CANNON_BODIES !== '1') client.pipelinedRequests.addBody = () => {};
};

/** autocannon requests that GET `paths` in turn, from `start` (each connection takes the next). */
export function rotating(paths: readonly string[], start = 0) {
  let next = start;
  return [{ method: 'GET', setupRequest: (request: { path?: string }) => ({ ...request, path: paths[next++ % paths.length]! }) }];
}

const CANNON_THREADS = Number(process.env.BENCH_CANNON_THREADS ?? 2);

/** A GET load over `paths` in turn, for `cannonThreads`: what can be sent to a thread. */
export interface SpreadOptions {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
  paths: string[];
}

/** What one thread of `cannonThreads` sends back. */
export interface ThreadRun {
  latencies: number[];
  answers: number;
  /** As sent, headers included. */
  bytes: number;
  seconds: number;
  /** Non-2xx answers, errors and timeouts. */
  failed: number;
}

/** A `cannonThreads` run: every latency, answers and bytes a second, and what failed. */
export interface SpreadRun {
  latencies: number[];
  rps: number;
  bytesPerSecond: number;
  failed: number;
}

/**
 * `cannon` spread over `threads` threads, each with its share of the connections, as one run: every
 * latency kept, counts summed. One autocannon thread parsed at most about 70 MB of answers a second
 * on this machine: against a held 13.7 KB answer it ran at 100 % of a core while the server used
 * 31 %, so its p99 was the load generator's own queue (decision 032, F32; most of it was decoding the
 * bodies, which `cannon` drops: F35). For the API's p99 at 50
 * connections (issue 24 target 5); the ratios against a static file or nginx keep one thread each.
 * `BENCH_CANNON_THREADS=1` measures with one thread.
 */
export async function cannonThreads(options: SpreadOptions, threads = CANNON_THREADS): Promise<SpreadRun> {
  const shares = Array.from({ length: threads }, (_, i) => Math.floor(options.connections / threads) + (i < options.connections % threads ? 1 : 0));
  const runs = await Promise.all(
    shares.map(
      (connections, i) =>
        new Promise<ThreadRun>((done, failed) => {
          const worker = new Worker(new URL('./cannon-thread.ts', import.meta.url), { workerData: { ...options, connections, offset: i } });
          worker.once('message', done);
          worker.once('error', failed);
        }),
    ),
  );
  const sum = (pick: (run: ThreadRun) => number) => runs.reduce((total, run) => total + pick(run), 0);
  return {
    latencies: runs.flatMap((run) => run.latencies),
    rps: sum((run) => run.answers / run.seconds),
    bytesPerSecond: sum((run) => run.bytes / run.seconds),
    failed: sum((run) => run.failed),
  };
}

/**
 * Waits until the server has worked off what a previous run left queued: /api/health must answer
 * within `quickMs` three times in a row.
 */
export async function settle(url: string, quickMs = 30, limitMs = 120_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let quick = 0;
  while (quick < 3 && Date.now() < deadline) {
    const started = performance.now();
    try {
      await (await fetch(`${url}/api/health`)).arrayBuffer();
    } catch {
      // still busy
    }
    quick = performance.now() - started <= quickMs ? quick + 1 : 0;
    await sleep(200);
  }
}

/** `count` requests made one at a time (no queueing): what one request costs, and the mean body size. */
export async function serial(url: string, paths: readonly string[], count = 20): Promise<{ times: number[]; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    bytes += (await (await fetch(`${url}${paths[i % paths.length]}`)).arrayBuffer()).byteLength;
    times.push(performance.now() - started);
  }
  return { times, bytes: bytes / count };
}

/** The p-th percentile (0–100) of latencies in ms. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The median of a benchmark's runs: issue 24 judges each target on the median of at least three. */
export const median = (values: readonly number[]) => percentile(values, 50);

export const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(1) : Math.round(value)} ms` : '—');

/** Seconds from the environment (quick runs while developing), else the default. */
export const seconds = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
