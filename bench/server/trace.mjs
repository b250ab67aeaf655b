// A diagnostic for the server under a benchmark, not part of it (FINDINGS F17): where do requests
// wait? Load it into the measured server only:
//   BENCH_SERVER_NODE_OPTIONS="--import ./bench/server/trace.mjs" npm run bench:load
// Every 5 s the server's log (bench/results/server/server-<port>.log) gets, for each thread that
// uses the database (the main one and the write thread, decision 021), its heap, the pools'
// average waiting and idle counts and the event loop's delay; the statements each thread sent,
// counted by their text (prepared ones by name), most frequent first: the main thread's when the
// server stops, a worker's every 30 s.
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
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
setInterval(() => {
  if (pools.size === 0) return;
  const ms = (p) => (delay.percentile(p) / 1e6).toFixed(1);
  const heap = getHeapStatistics();
  const mb = (bytes) => Math.round(bytes / 2 ** 20);
  const who = isMainThread ? `main, RSS ${mb(process.memoryUsage.rss())} MB` : `thread ${threadId}`;
  console.error(
    `[trace] ${who}: heap ${mb(heap.used_heap_size)} of ${mb(heap.total_heap_size)} MB; pools waiting ${(waiting / samples).toFixed(1)}, idle ${(idle / samples).toFixed(1)}; loop delay p50 ${ms(50)} ms, p99 ${ms(99)} ms`,
  );
  samples = waiting = idle = 0;
  delay.reset();
}, 5_000).unref();

function census(who) {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  console.error(`[trace] ${who}: ${sorted.reduce((n, [, c]) => n + c, 0)} statements`);
  for (const [text, n] of sorted.slice(0, 40)) console.error(`[trace] ${String(n).padStart(7)} ${text}`);
  counts.clear();
}

// A worker is terminated without a signal of its own: it tells its census every 30 s instead.
if (!isMainThread) setInterval(() => counts.size > 0 && census(`thread ${threadId}, the last 30 s`), 30_000).unref();

process.once('SIGTERM', () => {
  // A process that had no SIGTERM handler of its own must still stop on it.
  const stop = () => process.listenerCount('SIGTERM') === 0 && process.kill(process.pid, 'SIGTERM');
  if (counts.size > 0) census('main');
  stop();
});
