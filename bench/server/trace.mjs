// A diagnostic for the server under a benchmark, not part of it (decision 032, F17): where do requests
// wait? Load it into the measured server only:
//   BENCH_SERVER_NODE_OPTIONS="--import ./bench/server/trace.mjs" npm run bench:load
// Every 5 s the server's log (bench/results/server/server-<port>.log) gets, for each thread that
// uses the database (the main one and the write thread, decision 021), how busy its loop was, its
// heap, the pools' average waiting and idle counts and the event loop's delay (the embedded
// database's thread: how busy, and its heap); the statements each thread sent,
// counted by their text (prepared ones by name), most frequent first: the main thread's when the
// server stops, a worker's every 30 s.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const require = createRequire(`${process.cwd()}/package.json`);
const pg = require('pg');
const pools = new Set();
const counts = new Map();

const connect = pg.Pool.prototype.connect;
pg.Pool.prototype.connect = function (...args) {
  pools.add(this);
  return connect.apply(this, args);
};
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : `${config?.name ?? ''} ${config?.text ?? ''}`;
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 100);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, ...rest);
};

// On the embedded database's thread: what PGlite spends its time on, by statement (a transaction
// counted whole), told with the census below.
const spent = new Map();
/** PGlite's WebAssembly memory, which never shrinks. */
let wasmBytes = 0;
if (!isMainThread) {
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const timed = (name, method, keyOf) => {
      const original = PGlite.prototype[method];
      PGlite.prototype[method] = async function (...args) {
        const began = performance.now();
        try {
          return await original.apply(this, args);
        } finally {
          const key = keyOf(args);
          const [n, ms] = spent.get(key) ?? [0, 0];
          spent.set(key, [n + 1, ms + performance.now() - began]);
        }
      };
    };
    // Statements sent by name (db/pglite-prepared.ts) run under PGlite's lock, not through `query`.
    for (const method of ['query', 'runExclusive']) {
      const original = PGlite.prototype[method];
      PGlite.prototype[method] = function (...args) {
        wasmBytes = this.mod?.HEAPU8?.length ?? wasmBytes;
        return original.apply(this, args);
      };
    }
    timed('query', 'query', ([text]) => String(text).replace(/\s+/g, ' ').trim().slice(0, 100));
    timed('runExclusive', 'runExclusive', () => '(a statement sent by name)');
    timed('transaction', 'transaction', () => '(a transaction, whole)');
  } catch {
    // Not the embedded database's thread.
  }
}

// How long the server took over each request, from its arrival to the end of its answer, by kind:
// the load generator's figures include its own waits (decision 032, F19).
const KINDS = [
  ['chat poll', (m, u) => m === 'GET' && /^\/api\/team\/[^/]+\/chat/.test(u)],
  ['bracket poll', (m, u) => m === 'GET' && /^\/api\/tournaments\/[^/]+\/bracket/.test(u)],
  ['match read', (m, u) => m === 'GET' && u.startsWith('/api/matches/')],
  ['player action', (m, u) => m === 'POST' && /^\/api\/matches\/[^/]+\/(report|confirm|dispute)$/.test(u)],
  ['api read', (m, u) => m === 'GET' && u.startsWith('/api/')],
  ['page', (m) => m === 'GET'],
  ['write', () => true],
];
const took = new Map();
/** Requests over SLOW_MS by path shape (ids as `:id`), to tell which pages wait. */
const SLOW_MS = 500;
const slow = new Map();
const shape = (url) => url.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/gi, ':id').replace(/=[^&]*/g, '=…');
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res, ...rest) {
  if (event === 'request') {
    const kind = KINDS.find(([, test]) => test(req.method, req.url ?? ''))[0];
    const began = performance.now();
    res.once('finish', () => {
      const list = took.get(kind) ?? [];
      const ms = performance.now() - began;
      list.push(ms);
      if (ms > SLOW_MS) {
        const path = shape(req.url ?? '');
        slow.set(path, (slow.get(path) ?? 0) + 1);
      }
      took.set(kind, list);
    });
  }
  return emit.call(this, event, req, res, ...rest);
};

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let samples = 0;
let waiting = 0;
let idle = 0;
setInterval(() => {
  samples += 1;
  for (const pool of pools) {
    waiting += pool.waitingCount;
    idle += pool.idleCount;
  }
}, 50).unref();
let utilization = performance.eventLoopUtilization();
setInterval(() => {
  // How much of the last 5 s this thread's loop was busy: a thread near 100 % queues what it is sent.
  const now = performance.eventLoopUtilization();
  const busy = `busy ${(performance.eventLoopUtilization(now, utilization).utilization * 100).toFixed(0)} %`;
  utilization = now;
  const heap = getHeapStatistics();
  const mb = (bytes) => Math.round(bytes / 2 ** 20);
  // A thread with neither a pool nor requests (the embedded database's) tells only how busy it was.
  if (pools.size === 0 && took.size === 0) return void console.error(`[trace] thread ${threadId}: ${busy}; heap ${mb(heap.used_heap_size)} of ${mb(heap.total_heap_size)} MB${wasmBytes ? `, WebAssembly ${mb(wasmBytes)} MB` : ''}`);
  if (isMainThread) {
    // Where the resident memory is: the heap the threads share the process with, buffers, the rest.
    const usage = process.memoryUsage();
    const rollup = readFileSync('/proc/self/smaps_rollup', 'utf8');
    const kb = (name) => Math.round(Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(rollup)?.[1] ?? 0) / 1024);
    console.error(`[trace] memory: RSS ${mb(usage.rss)} MB (anonymous ${kb('Anonymous')}, file ${kb('Rss')- kb('Anonymous')}); main heap ${mb(usage.heapUsed)} of ${mb(usage.heapTotal)} MB, external ${mb(usage.external)} MB, array buffers ${mb(usage.arrayBuffers)} MB`);
    // The main heap by space, used of committed: which of them grows under a long run.
    const spaces = getHeapSpaceStatistics().filter((s) => s.space_size > 0).map((s) => `${s.space_name.replace('_space', '')} ${mb(s.space_used_size)}/${mb(s.space_size)}`);
    console.error(`[trace] main heap by space: ${spaces.join(', ')}`);
    // What the process holds on purpose (bounded stores), which fill as a run goes on.
    const store = (name) => globalThis[Symbol.for(`kiberarena.${name}`)];
    const answers = store('publicAnswers')?.stats();
    const held = [
      answers && `answers ${answers.entries} (${mb(answers.bytes)} MB)`,
      store('heldSessions') && `sessions ${store('heldSessions').held.size}`,
      store('heldChats') && `chats ${store('heldChats').newest.size}`,
    ].filter(Boolean);
    console.error(`[trace] held: ${held.join(', ')}`);
  }
  const ms = (p) => (delay.percentile(p) / 1e6).toFixed(1);
  const who = isMainThread ? `main, RSS ${mb(process.memoryUsage.rss())} MB` : `thread ${threadId}`;
  console.error(
    `[trace] ${who}: ${busy}; heap ${mb(heap.used_heap_size)} of ${mb(heap.total_heap_size)} MB; pools waiting ${(waiting / samples).toFixed(1)}, idle ${(idle / samples).toFixed(1)}; loop delay p50 ${ms(50)} ms, p99 ${ms(99)} ms`,
  );
  samples = waiting = idle = 0;
  delay.reset();
  for (const [kind, list] of took) {
    list.sort((a, b) => a - b);
    const at = (q) => list[Math.min(list.length - 1, Math.floor(q * list.length))].toFixed(0);
    console.error(`[trace]   ${kind}: ${list.length} answered, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${list.at(-1).toFixed(0)} ms in the server`);
  }
  took.clear();
  const slowest = [...slow].sort((a, b) => b[1] - a[1]).slice(0, 8);
  if (slowest.length > 0) console.error(`[trace]   over ${SLOW_MS} ms: ${slowest.map(([path, n]) => `${path} ${n}`).join(', ')}`);
  slow.clear();
}, 5_000).unref();

function census(who) {
  if (spent.size > 0) {
    const sorted = [...spent].sort((a, b) => b[1][1] - a[1][1]);
    console.error(`[trace] ${who}: PGlite's time by statement (count, total ms, mean ms)`);
    for (const [text, [n, ms]] of sorted.slice(0, 25)) console.error(`[trace] ${String(n).padStart(7)} ${ms.toFixed(0).padStart(7)} ${(ms / n).toFixed(2).padStart(7)} ${text}`);
    spent.clear();
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  console.error(`[trace] ${who}: ${sorted.reduce((n, [, c]) => n + c, 0)} statements`);
  for (const [text, n] of sorted.slice(0, 40)) console.error(`[trace] ${String(n).padStart(7)} ${text}`);
  counts.clear();
}

// A worker is terminated without a signal of its own: it tells its census every 30 s instead.
if (!isMainThread) setInterval(() => (counts.size > 0 || spent.size > 0) && census(`thread ${threadId}, the last 15 s`), 15_000).unref();

process.once('SIGTERM', () => {
  // A process that had no SIGTERM handler of its own must still stop on it.
  const stop = () => process.listenerCount('SIGTERM') === 0 && process.kill(process.pid, 'SIGTERM');
  if (counts.size > 0) census('main');
  stop();
});
