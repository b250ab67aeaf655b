// `npm run bench:live` (issue 24, target 4: 10 000 live viewers). On a copy of the bench database:
//   one instance   guests read pages (autocannon) with no stream open, for reference; then 10 000
//                  event streams to one tournament are opened by a second process
//                  (bench/server/live-viewers.ts) from many loopback addresses; the admin enters a
//                  result of a stage match ROUNDS times, and each viewer does what the page's live
//                  script does (islands/live): takes the event, waits 150 ms and up to a second at
//                  random, reads the page's regions at the address the event names, and counts as
//                  served when the new result is in them. p50/p99/max from the PATCH and the share
//                  served within 2 s, beside the event's own arrival; then guests read pages again
//                  with the streams open while BUSY_ROUNDS more results come (reported beside). The
//                  server's RSS idle, with the streams open and at its peak;
//   two instances  behind Debian's nginx running the shipped deploy/nginx.conf (deploy/nginx-local.ts,
//                  as bench:nginx and tests/e2e/nginx.spec.ts run it), on one PostgreSQL: all the
//                  viewers open their streams and read the regions through nginx, which spreads the
//                  streams over A and B (least_conn); results are entered on A directly, and B's
//                  viewers hear of them by NOTIFY. Each instance logs how many streams it wrote to.
// Prints a table and ok/FAIL per target, writes bench/results/server/live-*.json, exits 1 on a miss.
// BENCH_LIVE_ON=embedded runs the one instance on a copy of the embedded database the load mix
// uses (what `npm start` serves by default; two instances need PostgreSQL, so that part is
// skipped). BENCH_LIVE_VIEWERS, BENCH_LIVE_ROUNDS, BENCH_LIVE_GUEST_SECONDS make quicker runs while
// developing; BENCH_LIVE_BUILD_DIR another build directory than the benchmarks' own; BENCH_CURRENT
// another checkout or a commit (HEAD: in a worktree of its own, bench/server/baseline.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { type LocalNginx, startLocalNginx } from '../../deploy/nginx-local.ts';
import { ensureAdmin } from '../../src/server/bootstrap.ts';
import { openDatabase, type DatabaseOptions } from '../../src/server/db/client.ts';
import { createSession } from '../../src/server/services/accounts/sessions.ts';
import { table } from '../table.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AS_A_BROWSER,
  benchPort,
  BUILD_DIR,
  cannon,
  databaseUrl,
  median,
  ms,
  percentile,
  recreateDatabase,
  RESULTS_DIR,
  RssSampler,
  seconds,
  settle,
  startServer,
  type DatabaseChoice,
  type Server,
} from './lib.ts';
import { currentCheckout } from './baseline.ts';
import { copyEmbeddedSource, ensureSources, rows as queried } from './load.ts';

const SOURCE = process.env.BENCH_SOURCE_DB ?? 'bench_server';
const DB = 'bench_live';
const ON = process.env.BENCH_LIVE_ON === 'embedded' ? 'embedded' : 'postgres';
/** The embedded copy's folder (the server keeps its database in DATA_DIR/db: src/server/runtime.ts). */
const EMBEDDED_COPY = '.bench-live-data';
const CHOICE: DatabaseChoice = ON === 'postgres' ? DB : { embedded: EMBEDDED_COPY };
const DATABASE: DatabaseOptions = ON === 'postgres' ? { url: databaseUrl(DB) } : { dataDir: join(EMBEDDED_COPY, 'db') };
const PORTS = [benchPort(10), benchPort(11)] as const;
/** nginx in front of the two: its HTTP redirect, its TLS site, and the site on plain HTTP, which the viewers use (no TLS on the loopback). */
const NGINX_PORTS = { http: benchPort(7), https: benchPort(8), plain: benchPort(9) } as const;
const NGINX_PREFIX = join(tmpdir(), 'bench-live-nginx');
const VIEWERS = Number(process.env.BENCH_LIVE_VIEWERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 5);
/** Results recorded while guests read, reported beside the target's. */
const BUSY_ROUNDS = 3;
const GUEST_SECONDS = seconds('BENCH_LIVE_GUEST_SECONDS', 20);
const GUEST_CONNECTIONS = 50;
/** Streams a viewer process opens per source address: under the server's cap of 16. */
const PER_ADDRESS = 10;
const TARGET = { withinMs: 2000, share: 0.99, rssMb: 384, guestsP99: 500 };

/** The process's open-file limit: each stream is a socket, in the viewers' process and the server's. */
function openFileLimit(): number {
  const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? 0);
}
if (openFileLimit() < VIEWERS + 1000) {
  console.error(`Ліміт відкритих файлів ${openFileLimit()} замалий для ${VIEWERS} потоків: запускайте через npm run bench:live (ulimit -n 65536).`);
  process.exit(1);
}

if (ON === 'postgres') {
  await ensureSources(['postgres']);
  console.log(`Копіюємо ${SOURCE} → ${DB}…`);
  // Another benchmark may be reading the source a moment: try again for a while.
  for (let attempt = 1; ; attempt++) {
    try {
      await recreateDatabase(DB, SOURCE);
      break;
    } catch (error) {
      if (attempt >= 40) throw error;
      await sleep(3000);
    }
  }
} else {
  await ensureSources(['embedded']);
  console.log(`Копіюємо вбудовану базу → ${EMBEDDED_COPY}…`);
  copyEmbeddedSource(EMBEDDED_COPY);
}

// ------------------------------------------------------------------ the tournament and the admin
// Read before the server starts: the embedded database is the server's alone once it runs. The
// admin's session is made directly (the login route is rate-limited per address).
const database = await openDatabase(DATABASE);
const q = <T>(query: ReturnType<typeof sql>) => queried<T>(database.db, query);
const [live] = await q<{ id: string; solo_only: boolean; game_id: string }>(
  sql`select t.id, t.solo_only, t.game_id from tournaments t
    where t.status = 'started' and t.stats_enabled
      and (select count(*) from applications a where a.tournament_id = t.id and a.status = 'approved') >= 2
    order by t.date limit 1`,
);
if (!live) throw new Error('no started tournament with two approved participants in the bench database');
const others = (await q<{ id: string }>(sql`select id from tournaments order by date desc limit 300`)).map((r) => r.id);
await ensureAdmin(database.db, ADMIN_EMAIL, ADMIN_PASSWORD);
const [adminRow] = await q<{ id: string }>(sql`select id from users where email = ${ADMIN_EMAIL}`);
const adminToken = (await createSession(database.db, adminRow!.id, 1)).token;
await database.close();
// The load mix's guests (bench/server/load.ts, without the whole-list pages being reworked), and the live tournament's page, which its viewers read.
const guestPaths = () => {
  const other = others[Math.floor(Math.random() * others.length)]!;
  const paths = ['/tournaments', `/tournaments/${live!.id}`, `/tournaments/${live!.id}`, `/tournaments/${other}`, '/news', '/leaderboards', `/api/tournaments/${other}`, `/api/tournaments/${live!.id}`, '/api/games', '/api/news'];
  return paths[Math.floor(Math.random() * paths.length)]!;
};
const guestRequests = [{ method: 'GET' as const, setupRequest: (r: object) => ({ ...r, path: guestPaths(), headers: AS_A_BROWSER }) }];

// The target is every viewer on one instance: its cap on streams (EVENT_STREAMS_MAX, 4000 by
// default, decision 031) is raised to the viewers, so the run shows what they cost, not the cap.
// Both instances believe nginx's X-Forwarded-For (loopback), so the cap per address counts the
// viewers' addresses, not nginx's; a viewer connecting directly sends none and is counted by its own.
const buildEnv = { BUILD_DIR: process.env.BENCH_LIVE_BUILD_DIR ?? BUILD_DIR, EVENT_STREAMS_MAX: String(VIEWERS), TRUST_PROXY: 'loopback' };
/** What is measured: the working directory, or BENCH_CURRENT (a folder, or a commit in a worktree of its own: baseline.ts). */
const CODE = currentCheckout().dir;
const a = await startServer({ port: PORTS[0], database: CHOICE, env: buildEnv, cwd: CODE });

/** The stage match whose result the admin enters each round: one of the live tournament's, both sides known. */
async function resultMatch(server: Server): Promise<string> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` };
  type Stages = { stages: { matches: { _id: string; a: string | null; b: string | null; bye?: boolean }[] }[] };
  const read = async () => ((await (await fetch(`${server.url}/api/tournaments/${live!.id}/stages`)).json()) as Stages).stages;
  let stages = await read();
  if (stages.length === 0) {
    const made = await fetch(`${server.url}/api/tournaments/${live!.id}/stages`, { method: 'POST', headers, body: JSON.stringify({ format: 'single_elimination' }) });
    if (made.status !== 201) throw new Error(`creating a stage answered ${made.status}: ${await made.text()}`);
    stages = await read();
  }
  const match = stages.flatMap((stage) => stage.matches).find((m) => m.a && m.b && !m.bye);
  if (!match) throw new Error('the live tournament has no stage match with both sides');
  return match._id;
}

/**
 * The words the page's history shows once result `n` (from 0) is entered: the first result, then
 * each correction (`history.resultEntered`, `history.resultCorrected`): how a viewer knows the new
 * result is on its page.
 */
const resultWords = (n: number) => (n === 0 ? `результат ${n + 1}:0` : `→ ${n + 1}:0`);

/** Results entered so far: the next is number `resultNo` (its score `resultNo + 1 : 0`). */
let resultNo = 0;
/** The admin enters result `resultNo` of the match on `server`; the wall-clock time the request left. */
async function enterResult(server: Server, matchId: string): Promise<{ sentAt: number; tookMs: number }> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` };
  const { match } = (await (await fetch(`${server.url}/api/matches/${matchId}`, { headers })).json()) as { match: { version: number } };
  const sentAt = performance.timeOrigin + performance.now();
  const response = await fetch(`${server.url}/api/matches/${matchId}`, { method: 'PATCH', headers, body: JSON.stringify({ version: match.version, scoreA: ++resultNo, scoreB: 0 }) });
  const tookMs = performance.timeOrigin + performance.now() - sentAt;
  if (response.status !== 200) throw new Error(`entering a result answered ${response.status}: ${await response.text()}`);
  return { sentAt, tookMs };
}

// ------------------------------------------------------------------ the viewers' process
const viewerProcesses: ChildProcess[] = [];
/** Starts the viewers' process under a raised open-file limit. */
function startViewers(): { child: ChildProcess; ask<T>(message: object, answer: string): Promise<T> } {
  const child = spawn('bash', ['-c', `ulimit -n 65536 2>/dev/null || ulimit -n ${openFileLimit()}; exec "${process.execPath}" bench/server/live-viewers.ts`], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  viewerProcesses.push(child);
  const ask = <T>(message: object, answer: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (reply: { type: string }) => {
        if (reply.type !== answer) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(reply as T);
      };
      const onExit = (code: number | null) => reject(new Error(`the viewers' process exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send(message);
    });
  return { child, ask };
}

interface Delivery {
  /** Milliseconds from the PATCH leaving to the new result being on the viewer's page, per viewer served. */
  latencies: number[];
  /** The same to the event's arrival. */
  arrivals: number[];
  missed: number;
  viewers: number;
}
const summary = (d: Delivery) => {
  const within = d.latencies.filter((l) => l <= TARGET.withinMs).length / d.viewers;
  const max = Math.max(...d.latencies);
  return { p50: percentile(d.latencies, 50), p99: percentile(d.latencies, 99), max, arrivalP99: percentile(d.arrivals, 99), within, missed: d.missed };
};

/**
 * Enters `count` results on `writer` and collects, per target, when each viewer heard each and when
 * the result was on its page (the viewers' `first`th match event on).
 */
async function rounds(viewers: ReturnType<typeof startViewers>, writer: Server, matchId: string, targets: number, count = ROUNDS, first = 0): Promise<{ perTarget: Delivery[][]; posts: number[] }> {
  const perTarget: Delivery[][] = Array.from({ length: targets }, () => []);
  const posts: number[] = [];
  for (let round = first; round < first + count; round++) {
    await sleep(2500);
    await viewers.ask({ type: 'expect', round, words: resultWords(resultNo) }, 'expecting');
    const { sentAt, tookMs } = await enterResult(writer, matchId);
    posts.push(tookMs);
    const { times, served } = await viewers.ask<{ times: (number | null)[][]; served: (number | null)[][] }>({ type: 'arrivals', round, timeoutMs: 8000 }, 'arrivals');
    for (let t = 0; t < targets; t++) {
      const onPage = (served[t] ?? []).filter((x): x is number => x !== null);
      const arrived = (times[t] ?? []).filter((x): x is number => x !== null);
      perTarget[t]!.push({ latencies: onPage.map((x) => x - sentAt), arrivals: arrived.map((x) => x - sentAt), missed: (served[t] ?? []).length - onPage.length, viewers: (served[t] ?? []).length });
    }
  }
  return { perTarget, posts };
}

const rows: (string | number)[][] = [];
const verdict: [string, boolean][] = [];
const report: Record<string, unknown> = { stamp: new Date().toISOString(), on: ON, viewers: VIEWERS, rounds: ROUNDS, tournament: live.id, load: readFileSync('/proc/loadavg', 'utf8').trim() };

/** A row per round and the median row; returns the medians. */
function deliveryRows(label: string, deliveries: Delivery[], posts: number[]) {
  const each = deliveries.map(summary);
  each.forEach((s, i) => rows.push([`${label} #${i + 1}`, deliveries[i]!.viewers, ms(posts[i]!), ms(s.arrivalP99), ms(s.p50), ms(s.p99), ms(s.max), `${(s.within * 100).toFixed(2)} %`, s.missed]));
  const medians = {
    arrivalP99: median(each.map((s) => s.arrivalP99)),
    p50: median(each.map((s) => s.p50)),
    p99: median(each.map((s) => s.p99)),
    max: median(each.map((s) => s.max)),
    within: median(each.map((s) => s.within)),
  };
  rows.push([`${label}: median`, deliveries[0]?.viewers ?? 0, ms(median(posts)), ms(medians.arrivalP99), ms(medians.p50), ms(medians.p99), ms(medians.max), `${(medians.within * 100).toFixed(2)} %`, '']);
  return { each, medians };
}

/** What a server logged of its own writing (services/live/live-streams.ts): the fan-out without the viewers' side. */
function fanOut(port: number): { streams: number; ms: number }[] {
  return readFileSync(join(RESULTS_DIR, `server-${port}.log`), 'utf8')
    .split('\n')
    .map((line) => /^\[live\] match: (\d+) потоків за (\d+) мс/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ streams: Number(m[1]), ms: Number(m[2]) }));
}

// ------------------------------------------------------------------ one instance, 10 000 viewers
let b: Server | undefined;
let nginx: LocalNginx | undefined;
let exitCode = 0;
try {
  const rss = new RssSampler(a.pid);
  // Warm: the pages guests read, once, so the idle figure is the server's working size.
  await cannon({ url: a.url, connections: 10, amount: 300, requests: guestRequests });
  await settle(a.url);
  // The same guests with no stream open: what the streams cost them.
  const guestsAlone = await cannon({ url: a.url, connections: GUEST_CONNECTIONS, duration: GUEST_SECONDS, requests: guestRequests });
  await settle(a.url);
  const idle = rss.read();
  rss.start();
  const matchId = await resultMatch(a);
  const viewers = startViewers();
  const opening = performance.now();
  const opened = await viewers.ask<{ ready: number; failed: number; statuses: Record<string, number> }>(
    { type: 'open', targets: [{ port: PORTS[0], count: VIEWERS }], tournamentId: live.id, regions: `/tournaments/${live.id}/live`, perAddress: PER_ADDRESS },
    'opened',
  );
  const openSeconds = (performance.now() - opening) / 1000;
  await sleep(2000);
  const withStreams = rss.read();
  console.log(`\n${opened.ready} із ${VIEWERS} потоків відкрито за ${openSeconds.toFixed(1)} с (${JSON.stringify(opened.statuses)}); RSS ${idle.toFixed(0)} → ${withStreams.toFixed(0)} MB.`);
  const one = await rounds(viewers, a, matchId, 1);
  // Then guests read pages with the streams open, and a few more results come meanwhile (a server
  // that autocannon saturates: those results wait for the renders as every request does).
  const guests = cannon({ url: a.url, connections: GUEST_CONNECTIONS, duration: GUEST_SECONDS, requests: guestRequests });
  await sleep(2000);
  const busy = await rounds(viewers, a, matchId, 1, BUSY_ROUNDS, ROUNDS);
  const guestRun = await guests;
  rss.stop();
  const delivered = deliveryRows(`1 instance, ${VIEWERS}`, one.perTarget[0]!, one.posts);
  const deliveredBusy = deliveryRows(`1 instance, ${VIEWERS}, guests reading`, busy.perTarget[0]!, busy.posts);
  const guestP99 = percentile(guestRun.latencies, 99);
  const guestErrors = guestRun.unanswered.length + [...guestRun.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  await viewers.ask({ type: 'close' }, 'closed');
  viewers.child.kill();
  report.single = {
    opened,
    openSeconds,
    rss: { idle, withStreams, max: rss.max, perStreamKb: ((withStreams - idle) * 1024) / Math.max(1, opened.ready) },
    rounds: delivered.each,
    medians: delivered.medians,
    postMs: one.posts,
    busy: { rounds: deliveredBusy.each, medians: deliveredBusy.medians, postMs: busy.posts },
    guests: { connections: GUEST_CONNECTIONS, seconds: GUEST_SECONDS, requests: guestRun.latencies.length, p50: percentile(guestRun.latencies, 50), p99: guestP99, errors: guestErrors },
    guestsAlone: { requests: guestsAlone.latencies.length, p50: percentile(guestsAlone.latencies, 50), p99: percentile(guestsAlone.latencies, 99) },
  };
  verdict.push([`${VIEWERS} streams open (ready)`, opened.ready === VIEWERS]);
  verdict.push([`1 instance: ≥ ${TARGET.share * 100} % within ${TARGET.withinMs} ms (median of ${ROUNDS})`, delivered.medians.within >= TARGET.share]);
  verdict.push([`RSS ≤ ${TARGET.rssMb} MB with ${VIEWERS} streams (peak ${rss.max.toFixed(0)} MB)`, rss.max <= TARGET.rssMb]);
  verdict.push([`guests p99 ≤ ${TARGET.guestsP99} ms meanwhile (${ms(guestP99)}), no errors`, guestP99 <= TARGET.guestsP99 && guestErrors === 0]);
  console.log(
    `Гості (${GUEST_CONNECTIONS} зʼєднань, ${GUEST_SECONDS} с) з потоками: ${guestRun.latencies.length} відповідей, p50 ${ms(percentile(guestRun.latencies, 50))}, p99 ${ms(guestP99)}, помилок ${guestErrors}; ` +
      `без потоків: ${guestsAlone.latencies.length} відповідей, p50 ${ms(percentile(guestsAlone.latencies, 50))}, p99 ${ms(percentile(guestsAlone.latencies, 99))}. ` +
      `RSS: ${idle.toFixed(0)} / ${withStreams.toFixed(0)} / пік ${rss.max.toFixed(0)} MB.`,
  );

  // ---------------------------------------------------------------- two instances, one database
  // The embedded database is one process's alone: two instances need PostgreSQL.
  if (ON === 'embedded') console.log('\nДва екземпляри: лише на PostgreSQL (вбудована база належить одному процесу).');
  else {
    b = await startServer({ port: PORTS[1], database: DB, env: buildEnv, cwd: CODE });
    rmSync(NGINX_PREFIX, { recursive: true, force: true });
    nginx = await startLocalNginx({ prefix: NGINX_PREFIX, upstreams: PORTS, ...NGINX_PORTS });
    console.log(`\nnginx (deploy/nginx.conf) на ${nginx.plainUrl} перед ${a.url} і ${b.url}.`);
    // What each instance wrote to before: its log's fan-out lines from here on are the pair's.
    const fanOutBefore = { a: fanOut(PORTS[0]).length, b: fanOut(PORTS[1]).length };
    const rssB = new RssSampler(b.pid).start();
    const rssA = new RssSampler(a.pid).start();
    const pair = startViewers();
    const openedPair = await pair.ask<{ ready: number; failed: number; statuses: Record<string, number> }>(
      { type: 'open', targets: [{ port: NGINX_PORTS.plain, count: VIEWERS }], tournamentId: live.id, regions: `/tournaments/${live.id}/live`, perAddress: PER_ADDRESS },
      'opened',
    );
    console.log(`Через nginx: ${openedPair.ready} із ${VIEWERS} потоків відкрито (${JSON.stringify(openedPair.statuses)}).`);
    await sleep(2000);
    const two = await rounds(pair, a, matchId, 1);
    rssA.stop();
    rssB.stop();
    await pair.ask({ type: 'close' }, 'closed');
    pair.child.kill();
    const through = deliveryRows(`nginx, 2 instances, ${VIEWERS}`, two.perTarget[0]!, two.posts);
    // How nginx spread the streams: each instance's log says to how many streams it wrote each event.
    const spread = { a: fanOut(PORTS[0]).slice(fanOutBefore.a), b: fanOut(PORTS[1]).slice(fanOutBefore.b) };
    const streamsOn = (writes: { streams: number }[]) => (writes.length ? Math.max(...writes.map((w) => w.streams)) : 0);
    console.log(`Потоки за nginx: A ${streamsOn(spread.a)}, B ${streamsOn(spread.b)}.`);
    const refused = Object.entries(openedPair.statuses).filter(([status]) => status !== '200').reduce((n, [, count]) => n + count, 0);
    report.pair = {
      opened: openedPair,
      through: { rounds: through.each, medians: through.medians },
      streams: { a: streamsOn(spread.a), b: streamsOn(spread.b) },
      rssMax: { a: rssA.max, b: rssB.max },
      postMs: two.posts,
      nginxErrors: nginx.errors().trim().split('\n').slice(-20),
    };
    verdict.push([`through nginx, 2 instances: ${openedPair.ready} of ${VIEWERS} streams open, none refused (${refused}: no 503)`, openedPair.ready === VIEWERS && refused === 0]);
    verdict.push([
      `through nginx, 2 instances (A ${streamsOn(spread.a)} streams, B ${streamsOn(spread.b)}): ≥ ${TARGET.share * 100} % within ${TARGET.withinMs} ms (median of ${ROUNDS})`,
      through.medians.within >= TARGET.share && streamsOn(spread.a) > 0 && streamsOn(spread.b) > 0,
    ]);
  }

  const servers = ON === 'postgres' ? ([['A', PORTS[0]], ['B', PORTS[1]]] as const) : ([['A', PORTS[0]]] as const);
  report.fanOut = Object.fromEntries(servers.map(([name, port]) => [name.toLowerCase(), fanOut(port)]));
  for (const [name, port] of servers) {
    const writes = fanOut(port);
    if (writes.length > 0) console.log(`Сервер ${name} записав подію в усі свої потоки за: ${writes.map((w) => `${w.ms} мс (${w.streams})`).join(', ')}.`);
  }
  console.log(`\nРезультат на сторінці глядача (мс від PATCH; подія — коли вона прийшла), ${ROUNDS} результатів:`);
  console.log(table(['viewers', 'streams', 'PATCH', 'event p99', 'p50', 'p99', 'max', `≤ ${TARGET.withinMs} ms`, 'missed'], rows));
  for (const [what, ok] of verdict) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (verdict.some(([, ok]) => !ok)) exitCode = 1;
  report.verdict = verdict;
  report.loadAfter = readFileSync('/proc/loadavg', 'utf8').trim();
  writeFileSync(join(RESULTS_DIR, `live-${String(report.stamp).replace(/[:.]/g, '-')}.json`), JSON.stringify(report, null, 2));
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  for (const child of viewerProcesses) child.kill();
  await nginx?.stop();
  await Promise.allSettled([a.stop(), b?.stop()]);
  rmSync(NGINX_PREFIX, { recursive: true, force: true });
}
process.exit(exitCode);
