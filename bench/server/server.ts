// `npm run bench:server` (issue 11): on a PostgreSQL holding 10 000 tournaments, 100 000 matches
// and 10 000 players —
//   1. API latency of the tournament lists and leaderboards at 50 connections, asking for a
//      compressed answer as a browser does (target p99 ≤ 20 ms),
//      beside /api/health as the floor of this server on this machine;
//   2. throughput of server-rendered pages against a static file of the same byte size served by
//      the same server, side by side (target ≥ 50 %; the run fails under it);
//   3. the server's resident memory during all of it (within the process's budget, LOAD_TARGETS'
//      384 MB: issue 24 retired issue 11's 200 MB, decision 019).
//
// Exits 1 when a list's median p99, a page's ratio or the memory misses its target.
// Env: BENCH_SECONDS (per latency run, default 10), BENCH_RUNS (latency rounds, default 3),
// BENCH_PAGE_SECONDS (per throughput run, default 10), BENCH_CONNECTIONS (default 50),
// BENCH_PORT (4520–4539, default 4521: BENCH_PORT_BASE + 1), BENCH_DB (default bench_server).
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import pg from 'pg';
import { AS_A_BROWSER, benchPort, BUILD_DIR, cannon, cannonThreads, databaseUrl, failures, median, ms, percentile, RESULTS_DIR, rotating, RssSampler, seconds, serial, settle, startServer, type Run } from './lib.ts';
import { LOAD_TARGETS } from './load.ts';
import { DE_256_TITLE, ensureSeeded } from './seed.ts';
import { table } from '../table.ts';

const DB = process.env.BENCH_DB ?? 'bench_server';
const PORT = Number(process.env.BENCH_PORT ?? benchPort(1));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const API_SECONDS = seconds('BENCH_SECONDS', 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PAGE_SECONDS = seconds('BENCH_PAGE_SECONDS', 10);
const TARGET_P99 = 20;
const TARGET_RATIO = 0.5;

await ensureSeeded(DB);

// Ids to ask about: every game (requests rotate through them), the busiest one for pages.
const client = new pg.Client({ connectionString: databaseUrl(DB) });
await client.connect();
const gameIds = (await client.query<{ id: string }>('select g.id from games g join game_stats_configs c on c.game_id = g.id order by g.name')).rows.map((r) => r.id);
const [de256] = (await client.query<{ id: string }>('select id from tournaments where title = $1', [DE_256_TITLE])).rows.map((r) => r.id);
await client.end();

/** One path per game: `rotating` (lib.ts) sends a different game on each call. */
const perGame = (make: (id: string) => string) => gameIds.map(make);

const API_ROUTES: { name: string; paths: string[] }[] = [
  { name: 'baseline: /api/health', paths: ['/api/health'] },
  { name: '/api/tournaments?game', paths: perGame((id) => `/api/tournaments?game=${id}`) },
  { name: '/api/tournaments?game&soloOnly=true', paths: perGame((id) => `/api/tournaments?game=${id}&soloOnly=true`) },
  { name: '/api/tournaments?game&soloOnly=false', paths: perGame((id) => `/api/tournaments?game=${id}&soloOnly=false`) },
  { name: '/api/tournaments (all)', paths: ['/api/tournaments'] },
  { name: '/api/stats/games', paths: ['/api/stats/games'] },
  { name: 'leaderboard/game (rating_desc)', paths: perGame((id) => `/api/stats/leaderboard/game/${id}?limit=50`) },
  { name: 'leaderboard/game (wins_desc)', paths: perGame((id) => `/api/stats/leaderboard/game/${id}?limit=50&sort=wins_desc`) },
  { name: 'leaderboard/game (winrate_desc)', paths: perGame((id) => `/api/stats/leaderboard/game/${id}?limit=50&sort=winrate_desc`) },
  { name: 'leaderboard/teams/game (rating_desc)', paths: perGame((id) => `/api/stats/leaderboard/teams/game/${id}?limit=50`) },
  { name: '/api/tournaments/{id}/stages (DE 256)', paths: [`/api/tournaments/${de256}/stages`] },
  { name: 'leaderboard/teams/game (winrate_desc)', paths: perGame((id) => `/api/stats/leaderboard/teams/game/${id}?limit=50&sort=winrate_desc`) },
];

/** API clients are browsers, which always ask for a compressed answer; the page-against-file runs ask for none, on both sides. */

const PAGES = [
  { name: '/tournaments', path: '/tournaments' },
  { name: '/games/{id}', path: `/games/${gameIds[0]}` },
  { name: '/leaderboards', path: '/leaderboards' },
];

// Each page's twin, a static file of the same size. sirv lists the build's files when the server
// starts, so they are written first, from the sizes a server started for that alone answers.
const staticFiles: string[] = [];
const sizing = await startServer({ port: PORT, database: DB });
try {
  for (const [index, page] of PAGES.entries()) {
    const response = await fetch(`${sizing.url}${page.path}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`${page.path} answered ${response.status}`);
    const filePath = join(BUILD_DIR, 'client', `bench-static-${index}-${body.length}.html`);
    writeFileSync(filePath, Buffer.alloc(body.length, 'x'));
    staticFiles.push(filePath);
  }
} catch (error) {
  for (const file of staticFiles) rmSync(file, { force: true });
  throw error;
} finally {
  await sizing.stop();
}

const server = await startServer({ port: PORT, database: DB });
const rss = new RssSampler(server.pid);
let exitCode = 0;
try {
  const idle = rss.read();
  rss.start();
  console.log(`\nСервер ${server.url} (pid ${server.pid}), RSS у спокої ${idle.toFixed(0)} MB. ${CONNECTIONS} зʼєднань.`);

  // Warm-up: the first requests compile queries and fill the pool.
  await cannon({ url: server.url, connections: 10, duration: 3, headers: AS_A_BROWSER, requests: rotating(API_ROUTES.flatMap((r) => r.paths)) });

  // 1. API latency: every route once per round, RUNS rounds, so a noisy minute of this shared
  // machine falls on different routes; each route's p99 is the median of its rounds (issue 24).
  const runs = new Map<string, { single: number; bytes: number; p50: number[]; p99: number[]; rps: number[]; failed: number; rss: number }>();
  for (let round = 0; round < RUNS; round++) {
    for (const route of API_ROUTES) {
      await settle(server.url);
      let entry = runs.get(route.name);
      if (!entry) {
        const alone = await serial(server.url, route.paths);
        entry = { single: percentile(alone.times, 50), bytes: alone.bytes, p50: [], p99: [], rps: [], failed: 0, rss: 0 };
        runs.set(route.name, entry);
      }
      const run = await cannonThreads({ url: server.url, connections: CONNECTIONS, duration: API_SECONDS, headers: AS_A_BROWSER, paths: route.paths });
      entry.p50.push(percentile(run.latencies, 50));
      entry.p99.push(percentile(run.latencies, 99));
      entry.rps.push(run.rps);
      entry.failed += run.failed;
      entry.rss = rss.max;
      console.log(`  run ${round + 1} ${route.name}: p50 ${ms(entry.p50.at(-1)!)}, p99 ${ms(entry.p99.at(-1)!)}, ${Math.round(entry.rps.at(-1)!)} rps`);
    }
  }
  const latency: Record<string, { single: number; p50: number; p99: number; p99s: number[]; rps: number; bytes: number; failed: number }> = {};
  const baselineP99 = median(runs.get(API_ROUTES[0]!.name)!.p99);
  const apiRows = [...runs].map(([name, r]) => {
    const p99 = median(r.p99);
    const isBaseline = name.startsWith('baseline');
    const pass = isBaseline ? '' : p99 <= TARGET_P99 ? 'ok' : 'MISS';
    if (pass === 'MISS') exitCode = 1;
    latency[name] = { single: r.single, p50: median(r.p50), p99, p99s: r.p99, rps: median(r.rps), bytes: r.bytes, failed: r.failed };
    return [name, ms(r.single), ms(median(r.p50)), ms(p99), r.p99.map(ms).join(' / '), Math.round(median(r.rps)), `${(r.bytes / 1024).toFixed(1)} KB`, isBaseline ? '1.0×' : `${(p99 / baselineP99).toFixed(1)}×`, r.failed, `${r.rss.toFixed(0)} MB`, pass];
  });
  console.log(`\nAPI, ${CONNECTIONS} зʼєднань, ${RUNS} прогони по ${API_SECONDS} с, медіани (ціль p99 ≤ ${TARGET_P99} ms):`);
  console.log(table(['route', 'alone p50', 'p50', 'p99', 'p99 per run', 'rps', 'body', 'p99 vs health', 'non-2xx/errors', 'RSS max (cumulative)', 'target'], apiRows));

  // 2. Pages against a static file of the same size, served by the same server.
  const pageRows: (string | number)[][] = [];
  const pages: Record<string, { bytes: number; pageRps: number; staticRps: number; ratio: number; pageP99: number }> = {};
  for (const [index, page] of PAGES.entries()) {
    const response = await fetch(`${server.url}${page.path}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (!response.ok) throw new Error(`${page.path} answered ${response.status}`);
    const file = basename(staticFiles[index]!);
    const check = await fetch(`${server.url}/${file}`, { redirect: 'manual' });
    const staticBytes = (await check.arrayBuffer()).byteLength;
    if (check.status !== 200 || staticBytes !== statSync(staticFiles[index]!).size) throw new Error(`static ${file} answered ${check.status} with ${staticBytes} bytes`);
    // Static, page, static: the baseline is the mean of the two static runs around the page.
    const options = { url: server.url, connections: CONNECTIONS, duration: PAGE_SECONDS };
    const measure = async (path: string) => {
      await settle(server.url);
      return cannon({ ...options, requests: rotating([path]) });
    };
    const s1: Run = await measure(`/${file}`);
    const p: Run = await measure(page.path);
    const s2: Run = await measure(`/${file}`);
    const staticRps = (s1.result.requests.average + s2.result.requests.average) / 2;
    const pageRps = p.result.requests.average;
    const ratio = pageRps / staticRps;
    const pass = ratio >= TARGET_RATIO ? 'ok' : 'FAIL';
    if (pass === 'FAIL') exitCode = 1;
    pages[page.name] = { bytes: body.length, pageRps, staticRps, ratio, pageP99: percentile(p.latencies, 99) };
    pageRows.push([page.name, `${(body.length / 1024).toFixed(1)} KB`, Math.round(pageRps), Math.round(staticRps), `${(ratio * 100).toFixed(0)} %`, ms(percentile(p.latencies, 50)), ms(percentile(p.latencies, 99)), ms(percentile([...s1.latencies, ...s2.latencies], 99)), failures(p), pass]);
    console.log(`  ${page.name}: ${Math.round(pageRps)} rps vs static ${Math.round(staticRps)} rps = ${(ratio * 100).toFixed(0)} %`);
  }
  console.log(`\nСторінки проти статичного файлу того самого розміру, ${CONNECTIONS} зʼєднань по ${PAGE_SECONDS} с (ціль ≥ ${TARGET_RATIO * 100} %):`);
  console.log(table(['page', 'size', 'page rps', 'static rps', 'ratio', 'page p50', 'page p99', 'static p99', 'non-2xx/errors', 'target'], pageRows));

  // 3. Memory.
  rss.stop();
  const rssPass = rss.max <= LOAD_TARGETS.rssMb;
  if (!rssPass) exitCode = 1;
  console.log(`\nRSS сервера: у спокої ${idle.toFixed(0)} MB, максимум під навантаженням ${rss.max.toFixed(0)} MB (бюджет ≤ ${LOAD_TARGETS.rssMb} MB): ${rssPass ? 'ok' : 'MISS'}`);

  const stamp = new Date().toISOString();
  writeFileSync(join(RESULTS_DIR, `server-${stamp.replace(/[:.]/g, '-')}.json`), JSON.stringify({ stamp, connections: CONNECTIONS, apiSeconds: API_SECONDS, pageSeconds: PAGE_SECONDS, latency, pages, rss: { idle, max: rss.max } }, null, 2));
} finally {
  rss.stop();
  for (const file of staticFiles) rmSync(file, { force: true });
  await server.stop();
}
process.exit(exitCode);
