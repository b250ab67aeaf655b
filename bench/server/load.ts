// `npm run bench:load` (issues 10, 24 and 55): 200 connections for 60 s against the built server on a
// copy of the benchmark volume, as a realistic mix —
//   guests        read pages and lists (/, /tournaments, /games/{id}, /tournaments/{id}, /news,
//                 /leaderboards, /api/tournaments?game, a leaderboard, a tournament);
//   chat pollers  GET /api/team/{id}/chat?after=<newest message> with the ETag of their last answer
//                 (304 when unchanged), as the team page polls;
//   bracket polls GET /api/tournaments/{id}/bracket with If-None-Match;
//   chat posters  POST /api/team/{id}/chat (players rotate, under the 30-a-minute limit);
//   admins        POST /api/tournaments/{id}/record-match and PATCH …/bracket with its version;
//   reporters     players of match-day stages (issue 22): one side reports its score, the other
//                 confirms, and the next round opens; between turns they read their match.
// Each database of BENCH_LOAD_ON gets BENCH_LOAD_RUNS runs, each on a fresh copy; on PostgreSQL
// as many of the baseline commit (cdc24b6) alternate with them. Target (issue 55), on the medians:
// each kind's p99 at most 1.25× the baseline's. Issue 24's, judged without a baseline (the embedded
// database) and printed beside it otherwise, on the median of the runs: each kind of reader (guests, chat polls, bracket
// polls) p99 ≤ 500 ms, each kind of writer p99 ≤ 500 ms; in every run no 5xx, no lost write (every acknowledged chat message,
// match, bracket save, report and confirmation is in the database afterwards) and the server's
// RSS ≤ 384 MB.
//
// Env: BENCH_LOAD_SECONDS (default 60), BENCH_LOAD_CONNECTIONS (default 200), BENCH_LOAD_RUNS
// (default 3), BENCH_LOAD_ON (default `postgres`; `postgres,embedded`), BENCH_PORT (default 4522),
// BENCH_SOURCE_DB (default bench_server, seeded when needed), BENCH_LOAD_DB (default bench_load:
// recreated from the source for every run), BENCH_EMBEDDED_SOURCE (default .bench-load-source: the
// embedded copy of the volume, seeded once), BENCH_LOAD_WARM (default 1: every reader's address is
// read once, then the whole mix runs BENCH_LOAD_WARM_SECONDS, default 30, unmeasured, before the
// measured mix; 0 measures a cold start), BENCH_LOAD_SERIES=1 (each kind's tail per 5 s of the run).
// The baseline (issue 55): BENCH_LOAD_BASE_COMMIT (default cdc24b6; `none`: this code alone),
// BENCH_LOAD_BASE_ENV (its server's environment, `HELD_FRONT=false`), BENCH_LOAD_VS_BASE (the
// p99 ratio allowed, default 1.25), BENCH_CURRENT (what is measured as this code: a folder, or a
// commit in a worktree of its own); bench/server/baseline.ts makes the worktrees.
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { RequestStep } from 'autocannon';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/server/db/client.ts';
import { applications, tournaments } from '../../src/server/db/schema/index.ts';
import { ensureAdmin } from '../../src/server/bootstrap.ts';
import { createSession } from '../../src/server/services/accounts/sessions.ts';
import { createStage } from '../../src/server/services/competition/stages/commands.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  AS_A_BROWSER,
  benchPort,
  cannon,
  cpuSeconds,
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
  withoutBodies,
  type DatabaseChoice,
  type Run,
} from './lib.ts';
import { alternating, checkout, currentCheckout, envList, type Checkout } from './baseline.ts';
import { ensureEmbeddedSeeded, ensureSeeded, SAVED_BRACKETS } from './seed.ts';
import { table } from '../table.ts';

const SOURCE = process.env.BENCH_SOURCE_DB ?? 'bench_server';
const DB = process.env.BENCH_LOAD_DB ?? 'bench_load';
const EMBEDDED_SOURCE = process.env.BENCH_EMBEDDED_SOURCE ?? '.bench-load-source';
const EMBEDDED_COPY = '.bench-load-data';
const PORT = Number(process.env.BENCH_PORT ?? benchPort(2));
const DURATION = seconds('BENCH_LOAD_SECONDS', 60);
const TOTAL = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const RUNS = Number(process.env.BENCH_LOAD_RUNS ?? 3);
/** Only these kinds of clients (names as in `mix`), to measure what each costs alone; not a run of the target. */
const ONLY = process.env.BENCH_LOAD_ONLY?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
/** Issue 55 retired the embedded database's load targets: PostgreSQL by default, `postgres,embedded` for both. */
const ON = (process.env.BENCH_LOAD_ON ?? 'postgres').split(',').map((s) => s.trim()) as ('postgres' | 'embedded')[];
/** Whether the readers' addresses are read once before the measured mix (`warmUp`); `BENCH_LOAD_WARM=0` measures a cold start. */
const WARM = process.env.BENCH_LOAD_WARM !== '0';
/**
 * How long the whole mix runs, unmeasured, after the readers' warm-up, as on a process that has
 * been serving: a fresh one's writers compile their code and read each competition into memory in
 * their first seconds, and every answer the readers' warm-up rendered at once reaches its end
 * together 30 s later (PUBLIC_ANSWER_TTL_MS), its renders then filling the lines. Both
 * were the tail of the measured mix (decision 032, F28); after one answer's time they are behind it.
 * Its writes are checked with the rest.
 */
const WARM_SECONDS = seconds('BENCH_LOAD_WARM_SECONDS', 30);

/** Issue 24's targets: what a reader or a writer waits at most (p99), and the server's memory. */
export const LOAD_TARGETS = { readP99Ms: 500, writeP99Ms: 500, rssMb: 384 };
/**
 * Issue 55's: on PostgreSQL each kind's p99 at most this many times the baseline commit's, measured
 * in the same run (BENCH_LOAD_VS_BASE: 1.0 for "no worse", as against cdc24b6 without its front).
 */
const P99_VS_BASE = Number(process.env.BENCH_LOAD_VS_BASE ?? 1.25);
/**
 * The baseline on PostgreSQL (issue 55: cdc24b6, issue 24's final code), run alternately with this
 * code, each on a fresh copy; `none` runs this code alone, judged by issue 24's absolute lines.
 * Its server's environment: BENCH_LOAD_BASE_ENV (`HELD_FRONT=false`: cdc24b6 without its front).
 */
const BASE_COMMIT = process.env.BENCH_LOAD_BASE_COMMIT ?? 'cdc24b6';
const BASE_ENV = envList(process.env.BENCH_LOAD_BASE_ENV);
/** This code: the working directory, or BENCH_CURRENT (a folder, or a commit such as HEAD in a worktree of its own). */
const CURRENT: Checkout = import.meta.main ? currentCheckout() : { label: 'this code', dir: process.cwd(), env: {} };

/** How the connections are shared out (fractions of TOTAL); writers are paced, readers are not. */
const SHARE = { guests: 0.5, chatPolls: 0.18, bracketPolls: 0.12, chatPosts: 0.07, admins: 0.05, reporters: 0.08 };
const connections = (share: number) => Math.max(1, Math.round(TOTAL * share));

/**
 * Match-day stages played by the reporters: single eliminations of FIELD players each. Enough for
 * the unmeasured 30 s and the measured 60 s at the reporters' pace (32 actions a second, two a
 * match: 2 976 actions for 2 880): with 40, their last 15 s were the stages' last rounds, all
 * finishing together (decision 032, F28), a phase the measured mix had not reached before the warm-up
 * grew. With 60 the embedded database slowed by half: more live competitions than the server keeps
 * in memory (KEPT_COMPETITIONS in services/competition/stages/store.ts), so each action read its own again.
 */
const STAGES = 48;
const FIELD = 32;

export type Kind = 'postgres' | 'embedded';
export const choice = (kind: Kind): DatabaseChoice => (kind === 'postgres' ? DB : { embedded: EMBEDDED_COPY });
/** The server keeps its embedded database in DATA_DIR/db (src/server/runtime.ts). */
const EMBEDDED_DB = join(EMBEDDED_COPY, 'db');
const target = (kind: Kind): DatabaseOptions => (kind === 'postgres' ? { url: databaseUrl(DB) } : { dataDir: EMBEDDED_DB });

/** Rows of a raw query (the same on both drivers). */
export async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

interface StageMatch {
  id: string;
  round: number;
  position: number;
  a: string | null;
  b: string | null;
  stageId: string;
}

/** Everything a run's clients need, read from (and, for the reporters' stages, written to) a fresh copy before the server starts. */
export async function prepare(kind: Kind, run: string) {
  if (kind === 'postgres') await recreateDatabase(DB, SOURCE);
  else copyEmbeddedSource(EMBEDDED_COPY);
  const database = await openDatabase(target(kind));
  try {
    const db = database.db;
    await ensureAdmin(db, ADMIN_EMAIL, ADMIN_PASSWORD);
    const ttl = 1;
    const [admin] = await rows<{ id: string; username: string }>(db, sql`select id, username from users where email = ${ADMIN_EMAIL}`);
    const adminToken = (await createSession(db, admin!.id, ttl)).token;
    // Players with sessions made directly (the login route is rate-limited per address): one per team.
    const members = await rows<{ user_id: string; team_id: string }>(
      db,
      sql`select distinct on (team_id) user_id, team_id from team_members order by team_id, joined_at limit 400`,
    );
    const players: { token: string; teamId: string }[] = [];
    for (const m of members) players.push({ token: (await createSession(db, m.user_id, ttl)).token, teamId: m.team_id });

    const games = await rows<{ id: string }>(db, sql`select game_id as id from game_stats_configs order by game_id`);
    const pageTournaments = await rows<{ id: string }>(db, sql`select id from tournaments order by date desc limit 300`);
    // Tournaments still running (pending or started): results are recorded on them.
    const open = await rows<{ id: string; solo_only: boolean; game_id: string }>(
      db,
      sql`select id, solo_only, game_id from tournaments where status <> 'finished' and stats_enabled order by date limit 60`,
    );
    const rosters = new Map<string, string[]>();
    for (const t of open) {
      const found = await rows<{ id: string }>(
        db,
        t.solo_only
          ? sql`select user_id as id from applications where tournament_id = ${t.id} and status = 'approved' order by created_at`
          : sql`select team_id as id from applications where tournament_id = ${t.id} and status = 'approved' order by created_at`,
      );
      rosters.set(
        t.id,
        found.map((r) => r.id),
      );
    }
    const fields = new Map<string, string[]>();
    for (const g of games) {
      const found = await rows<{ field_name: string }>(
        db,
        sql`select field_name from stat_fields where game_id = ${g.id} and field_type = 'number' order by field_name limit 3`,
      );
      fields.set(
        g.id,
        found.map((r) => r.field_name),
      );
    }
    // Started tournaments with a bracket: admins save them, players poll them.
    const brackets = await rows<{ id: string; bracket: unknown; bracket_version: number }>(
      db,
      sql`select id, bracket, bracket_version from tournaments where status = 'started' and jsonb_array_length(bracket) > 0 order by date desc limit ${SAVED_BRACKETS}`,
    );

    // The reporters' stages: players who post no chat, FIELD to a tournament, drawn into a single elimination.
    const field = await rows<{ id: string }>(
      db,
      sql`select id from users where email like ${'%@bench.kiberarena.local'} and id not in (select user_id from team_members where user_id in (select distinct on (team_id) user_id from team_members order by team_id, joined_at)) order by username limit ${STAGES * FIELD}`,
    );
    const tokens = new Map<string, string>();
    const matches: StageMatch[] = [];
    const organiser = { id: admin!.id, username: admin!.username };
    for (let s = 0; s < STAGES; s++) {
      const entrants = field.slice(s * FIELD, (s + 1) * FIELD).map((r) => r.id);
      const [t] = await db
        .insert(tournaments)
        .values({
          title: `Навантаження ${run}: день матчів ${s + 1}`,
          date: new Date(),
          gameId: games[s % games.length]!.id,
          soloOnly: true,
          status: 'pending',
        })
        .returning({ id: tournaments.id });
      await db.insert(applications).values(entrants.map((userId) => ({ tournamentId: t!.id, userId, status: 'approved' as const })));
      const created = await createStage(db, t!.id, { format: 'single_elimination', seeding: 'standard', settings: {} }, organiser);
      if (!created.ok) throw new Error(`load bench: a match-day stage was refused (${created.reason})`);
      for (const m of created.stage.matches) matches.push({ id: m._id, round: m.round, position: m.position, a: m.a, b: m.b, stageId: created.stage._id });
      for (const userId of entrants) tokens.set(userId, (await createSession(db, userId, ttl)).token);
    }
    // The seed's notices and the draws' "your match is ready" wait as letters: a backlog no evening starts
    // with. Sent before the run, so the mix's own letters (reports, next rounds) are what the sweep sends.
    await db.execute(sql`update notifications set mail_state = 'sent' where mail_state = 'pending'`);
    return { adminToken, players, games, pageTournaments, open, rosters, fields, brackets, matches, tokens };
  } finally {
    await database.close();
  }
}

export type Prepared = Awaited<ReturnType<typeof prepare>>;

/** A fresh copy of the embedded source as a server's DATA_DIR `dataDir` (its database in `dataDir`/db). */
export function copyEmbeddedSource(dataDir: string): void {
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(EMBEDDED_SOURCE, join(dataDir, 'db'), { recursive: true });
}

/** Seeds (once) the sources the runs copy: PostgreSQL's template database, the embedded folder. */
export async function ensureSources(kinds: readonly Kind[]): Promise<void> {
  if (kinds.includes('postgres')) await ensureSeeded(SOURCE);
  if (kinds.includes('embedded')) await ensureEmbeddedSeeded(EMBEDDED_SOURCE);
}

/**
 * One run of the mix: prepares a fresh copy, starts the server (this code's, or `code`: a baseline
 * commit's checkout, baseline.ts), loads it for `duration` seconds, stops it, checks every acknowledged write.
 */
export async function oneRun(kind: Kind, number: number, duration = DURATION, warmSeconds = WARM_SECONDS, code: Checkout = CURRENT) {
  const run = `${Date.now().toString(36)}-${kind}-${number}`;
  console.log(`\n━ ${kind === 'postgres' ? 'PostgreSQL' : 'вбудована база'}, ${code.label}, прогін ${number}: готуємо копію…`);
  const setup = await prepare(kind, run);
  const server = await startServer({ port: PORT, database: choice(kind), cwd: code.dir, env: code.env, log: code === CURRENT ? undefined : code.label });
  const rss = new RssSampler(server.pid);
  try {
    const clients = mix(setup, run);
    const total = Object.values(clients.kinds).reduce((n, k) => n + k.connections, 0);
    console.log(
      `Сервер ${server.url} (pid ${server.pid}). ${total} зʼєднань на ${duration} с: ${Object.entries(clients.kinds)
        .map(([k, v]) => `${k} ${v.connections}`)
        .join(', ')}.`,
    );
    await settle(server.url);
    const idle = rss.read();
    rss.start();
    if (WARM) {
      console.log(`Розігрів: ${clients.readAddresses.length} адрес читачів по разу за ${await warmUp(server.url, clients.readAddresses)} с.`);
      await Promise.all(Object.values(clients.kinds).map((k) => cannon({ url: server.url, duration: warmSeconds, ...k })));
      // What the warm-up's clients left under way when they hung up is worked off before the clock starts.
      await settle(server.url);
      console.log(`Розігрів: уся суміш ${warmSeconds} с без вимірювання.`);
    }
    // The samples taken from here on are the measured mix's (those before, the warm-up's: they count in the peak).
    const measuredFrom = rss.samples.length;
    const cpuBefore = { server: cpuSeconds(server.pid), postgres: kind === 'postgres' ? cpuSeconds('postgres') : 0 };
    // The clients share this thread: while it is busy with answers, a latency measured here includes its own wait.
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const runs: Record<string, Run> = Object.fromEntries(
      await Promise.all(Object.entries(clients.kinds).map(async ([name, k]) => [name, await cannon({ url: server.url, duration, ...k })] as const)),
    );
    lag.disable();
    if (process.env.BENCH_LOAD_SERIES === '1') printSeries(runs);
    console.log(
      `Генератор навантаження: затримка свого циклу p50 ${(lag.percentile(50) / 1e6).toFixed(0)} мс, p99 ${(lag.percentile(99) / 1e6).toFixed(0)} мс.`,
    );
    rss.stop();
    const cpu = {
      server: cpuSeconds(server.pid) - cpuBefore.server,
      postgres: kind === 'postgres' ? cpuSeconds('postgres') - cpuBefore.postgres : 0,
    };
    await settle(server.url);
    await server.stop();
    const lost = await verify(kind, setup, clients.written);
    return { runs, idle, maxRss: rss.max, rssSamples: rss.samples, measuredFrom, lost, written: clients.written, total, cpu };
  } finally {
    rss.stop();
    await server.stop();
  }
}

/** Each kind's p99 and slowest answer per 5 s of the run (BENCH_LOAD_SERIES=1): when in the run its tail came. */
function printSeries(runs: Record<string, Run>): void {
  for (const [name, { latencies, at }] of Object.entries(runs)) {
    const windows: number[][] = [];
    at.forEach((ms, i) => (windows[Math.floor(ms / 5000)] ??= []).push(latencies[i]!));
    const cells = windows.map((w) => (w ? `${Math.round(percentile(w, 99))}/${Math.round(Math.max(...w))}` : '—'));
    console.log(`  ${name.padEnd(12)} p99/max за 5 с: ${cells.join(' ')}`);
  }
}

interface Written {
  messages: Map<string, { teamId: string; message: string }>;
  recorded: Set<string>;
  brackets: Map<string, { version: number; comment: string }[]>;
  bracketInitial: Map<string, number>;
  /** Acknowledged reports (match → the reporting player) and confirmations (match → the score). */
  reports: Map<string, string>;
  confirmed: Set<string>;
}

/** The clients of one run, each kind an autocannon run of its own (bench/server/nginx.ts runs them through nginx too). */
export function mix(setup: Prepared, run: string) {
  const { adminToken, players, games, pageTournaments, open, rosters, fields, brackets, matches, tokens } = setup;
  const json = { 'content-type': 'application/json' };
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const pickOf = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const header = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const written: Written = {
    messages: new Map(),
    recorded: new Set(),
    brackets: new Map(),
    bracketInitial: new Map(),
    reports: new Map(),
    confirmed: new Set(),
  };

  /** What a guest reads, for a game and a tournament: one is picked per request. */
  const guestReads = (game: string, tournament: string) => [
    '/',
    `/games/${game}`,
    `/api/tournaments?game=${game}`,
    '/tournaments',
    `/tournaments/${tournament}`,
    `/tournaments/${tournament}`,
    '/news',
    '/leaderboards',
    `/leaderboards?game=${game}&tab=teams`,
    `/api/tournaments/${tournament}`,
    `/api/stats/leaderboard/game/${game}?limit=50`,
    '/api/games',
    '/api/news',
  ];
  const guestPaths = () => pickOf(guestReads(pickOf(games).id, pickOf(pageTournaments).id));
  // Every address the readers ask for, for the warm-up (`warmUp`).
  const readAddresses = new Set([
    ...games.flatMap((game) => guestReads(game.id, pageTournaments[0]!.id)),
    ...pageTournaments.flatMap((tournament) => guestReads(games[0]!.id, tournament.id)),
    ...brackets.map((b) => `/api/tournaments/${b.id}/bracket`),
  ]);
  // Readers ask for compression as browsers (and islands' fetch calls) do; the writers below do not,
  // because their answers are read here to check the writes, and autocannon does not decompress.
  const guests: RequestStep[] = [{ method: 'GET', setupRequest: (r) => ({ ...r, path: guestPaths(), headers: AS_A_BROWSER }) }];

  // As the team page's chat polls (islands/team/TeamChat.tsx): the first read takes the latest
  // messages, the next ones only those after the newest it has (`after`), with the ETag of the last
  // answer to that same question. This client cannot read a compressed body, so "the newest it has"
  // is the newest message posted to that team in this run (`lastPosted`), or none.
  const chatCursors = new Map<string, { after?: string; tag?: string }>();
  const lastPosted = new Map<string, string>();
  const chatPolls: RequestStep[] = [
    {
      method: 'GET',
      setupRequest: (r, context) => {
        const player = pickOf(players);
        const { after, tag } = chatCursors.get(player.teamId) ?? {};
        context.team = player.teamId;
        context.after = after;
        const query = after ? `?after=${after}` : '';
        return {
          ...r,
          path: `/api/team/${player.teamId}/chat${query}`,
          headers: { ...AS_A_BROWSER, ...auth(player.token), ...(tag ? { 'if-none-match': tag } : {}) },
        };
      },
      onResponse: (status, _body, context, headers) => {
        if (status !== 200) return;
        const team = context.team as string;
        const asked = context.after as string | undefined;
        const newest = lastPosted.get(team) ?? asked;
        // Nothing newer than what it asked after: keep the tag; otherwise ask after the newest next.
        chatCursors.set(team, newest === asked ? { after: asked, tag: header(headers, 'etag') } : { after: newest });
      },
    },
  ];

  const bracketTags = new Map<string, string>();
  const bracketPolls: RequestStep[] = [
    {
      method: 'GET',
      setupRequest: (r, context) => {
        const t = pickOf(brackets).id;
        context.tournament = t;
        const tag = bracketTags.get(t);
        return { ...r, path: `/api/tournaments/${t}/bracket`, headers: { ...AS_A_BROWSER, ...(tag ? { 'if-none-match': tag } : {}) } };
      },
      onResponse: (status, _body, context, headers) => {
        const tag = header(headers, 'etag');
        if (status === 200 && tag) bracketTags.set(context.tournament as string, tag);
      },
    },
  ];

  let messageNo = 0;
  let playerNo = 0;
  const chatPosts: RequestStep[] = [
    {
      method: 'POST',
      setupRequest: (r, context) => {
        const player = players[playerNo++ % players.length]!;
        const message = `load ${run} #${++messageNo}`;
        context.message = message;
        context.team = player.teamId;
        return { ...r, path: `/api/team/${player.teamId}/chat`, headers: { ...json, ...auth(player.token) }, body: JSON.stringify({ message }) };
      },
      onResponse: (status, body, context) => {
        if (status !== 201) return;
        const saved = JSON.parse(body) as { _id: string; message: string };
        written.messages.set(saved._id, { teamId: context.team as string, message: context.message as string });
        lastPosted.set(context.team as string, saved._id);
      },
    },
  ];

  const bracketState = new Map(brackets.map((b) => [b.id, { bracket: b.bracket as { matches: { comment: string }[] }[], version: b.bracket_version }]));
  for (const b of brackets) written.bracketInitial.set(b.id, b.bracket_version);
  let saveNo = 0;
  let adminNo = 0;
  const admins: RequestStep[] = [
    {
      setupRequest: (r, context) => {
        if (adminNo++ % 2 === 0) {
          const t = pickOf(open);
          const roster = rosters.get(t.id)!;
          const [a, b] = [roster[0]!, roster[1 + Math.floor(Math.random() * (roster.length - 1))]!];
          const type = t.solo_only ? 'user' : 'team';
          const stat = () => Object.fromEntries((fields.get(t.game_id) ?? []).map((f) => [f, Math.floor(Math.random() * 30)]));
          const score1 = Math.floor(Math.random() * 16);
          context.kind = 'record';
          return {
            ...r,
            method: 'POST',
            path: `/api/tournaments/${t.id}/record-match`,
            headers: { ...json, ...auth(adminToken) },
            body: JSON.stringify({
              participant1Type: type,
              participant1Id: a,
              participant2Type: type,
              participant2Id: b,
              score1,
              score2: score1 + 1 + Math.floor(Math.random() * 5),
              gameSpecificStats: { participant1: stat(), participant2: stat() },
            }),
          };
        }
        const t = pickOf(brackets).id;
        const state = bracketState.get(t)!;
        const comment = `load ${run} save ${++saveNo}`;
        const bracket = structuredClone(state.bracket);
        bracket[0]!.matches[0]!.comment = comment;
        context.kind = 'bracket';
        context.tournament = t;
        context.comment = comment;
        return {
          ...r,
          method: 'PATCH',
          path: `/api/tournaments/${t}/bracket`,
          headers: { ...json, ...auth(adminToken) },
          body: JSON.stringify({ bracket, version: state.version }),
        };
      },
      onResponse: (status, body, context) => {
        if (context.kind === 'record') {
          if (status === 201) written.recorded.add((JSON.parse(body) as { match: { _id: string } }).match._id);
          return;
        }
        const t = context.tournament as string;
        const state = bracketState.get(t)!;
        if (status === 200 || status === 409) {
          const answer = JSON.parse(body) as { bracket: { matches: { comment: string }[] }[]; version: number };
          if (answer.version >= state.version) {
            state.version = answer.version;
            state.bracket = answer.bracket;
          }
          if (status === 200) written.brackets.set(t, [...(written.brackets.get(t) ?? []), { version: answer.version, comment: context.comment as string }]);
        }
      },
    },
  ];

  // ---------------------------------------------------------------- match day: report, confirm, next round
  // Single elimination: match (round r, position p) feeds (r + 1, ⌈p / 2⌉), odd positions into side a (domain/stage/plan.ts).
  const byPlace = new Map(matches.map((m) => [`${m.stageId}:${m.round}:${m.position}`, m]));
  const winners = new Map<string, string>();
  /** Matches whose two players are known, waiting for side a's report; then for side b's confirmation. */
  const toReport: StageMatch[] = matches.filter((m) => m.round === 1 && m.a && m.b);
  const toConfirm: StageMatch[] = [];
  const played = (m: StageMatch) => {
    winners.set(m.id, m.a!);
    const next = byPlace.get(`${m.stageId}:${m.round + 1}:${Math.ceil(m.position / 2)}`);
    if (!next) return;
    const sibling = byPlace.get(`${m.stageId}:${m.round}:${m.position % 2 === 1 ? m.position + 1 : m.position - 1}`);
    const other = sibling && winners.get(sibling.id);
    if (!other) return;
    next.a = m.position % 2 === 1 ? m.a! : other;
    next.b = m.position % 2 === 1 ? other : m.a!;
    toReport.push(next);
  };
  let readNo = 0;
  const reporters: RequestStep[] = [
    {
      setupRequest: (r, context) => {
        // Confirm first (the other side is waiting), then report; with neither, read one's match as a player's page does.
        const confirming = toConfirm.shift();
        const reporting = confirming ? undefined : toReport.shift();
        if (confirming) {
          context.kind = 'confirm';
          context.match = confirming;
          return { ...r, method: 'POST', path: `/api/matches/${confirming.id}/confirm`, headers: { ...json, ...auth(tokens.get(confirming.b!)!) }, body: '{}' };
        }
        if (reporting) {
          context.kind = 'report';
          context.match = reporting;
          return {
            ...r,
            method: 'POST',
            path: `/api/matches/${reporting.id}/report`,
            headers: { ...json, ...auth(tokens.get(reporting.a!)!) },
            body: JSON.stringify({ scoreA: 2, scoreB: 1 }),
          };
        }
        context.kind = 'read';
        const m = matches[readNo++ % matches.length]!;
        return { ...r, method: 'GET', path: `/api/matches/${m.id}`, headers: AS_A_BROWSER, body: undefined };
      },
      onResponse: (status, _body, context) => {
        const m = context.match as StageMatch | undefined;
        if (context.kind === 'report' && m) {
          if (status === 200) {
            written.reports.set(m.id, m.a!);
            toConfirm.push(m);
          } else toReport.push(m);
        } else if (context.kind === 'confirm' && m) {
          if (status === 200) {
            written.confirmed.add(m.id);
            played(m);
          } else toConfirm.push(m);
        }
      },
    },
  ];

  const all = {
    guests: { requests: guests, connections: connections(SHARE.guests) },
    // The polls read their answers' status and headers, not their bodies (lib.ts: `cannon`).
    chatPolls: { requests: chatPolls, connections: connections(SHARE.chatPolls), setupClient: withoutBodies },
    bracketPolls: { requests: bracketPolls, connections: connections(SHARE.bracketPolls), setupClient: withoutBodies },
    chatPosts: { requests: chatPosts, connections: connections(SHARE.chatPosts), connectionRate: 4 },
    admins: { requests: admins, connections: connections(SHARE.admins), connectionRate: 3 },
    reporters: { requests: reporters, connections: connections(SHARE.reporters), connectionRate: 2 },
  };
  const kinds = ONLY?.length ? Object.fromEntries(Object.entries(all).filter(([name]) => ONLY.includes(name))) : all;
  return { kinds, written, readAddresses: [...readAddresses] };
}

/**
 * Asks for every address the readers read once, a few at a time, before the measured mix: the
 * final's evening is served by a process that has been serving for hours, its answers held and its
 * code compiled. A restart under the full mix renders them all in its first 20–25 s while every
 * reader waits (decision 032, F21); BENCH_LOAD_WARM=0 measures that.
 */
export async function warmUp(base: string, addresses: readonly string[]): Promise<string> {
  const began = performance.now();
  const queue = [...addresses];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const answer = await fetch(`${base}${path}`, { headers: AS_A_BROWSER });
      await answer.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ((performance.now() - began) / 1000).toFixed(1);
}

/** Every acknowledged write, looked for in the database after the server stopped. */
export async function verify(kind: Kind, setup: Prepared, written: Written) {
  const database = await openDatabase(target(kind));
  try {
    const db = database.db;
    const messageIds = [...written.messages.keys()];
    const storedMessages = messageIds.length
      ? await rows<{ id: string; team_id: string; message: string }>(
          db,
          sql`select id, team_id, message from chat_messages where id in (${sql.join(
            messageIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        )
      : [];
    const lostMessages = messageIds.filter((id) => {
      const row = storedMessages.find((r) => r.id === id);
      const sent = written.messages.get(id)!;
      return !row || row.message !== sent.message || row.team_id !== sent.teamId;
    });
    const matchIds = [...written.recorded];
    const storedMatches = matchIds.length
      ? await rows<{ id: string; sides: number }>(
          db,
          sql`select m.id, count(p.id)::int as sides from matches m join match_participants p on p.match_id = m.id where m.id in (${sql.join(
            matchIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) group by m.id`,
        )
      : [];
    const lostMatches = matchIds.filter((id) => storedMatches.find((r) => r.id === id)?.sides !== 2);
    const lostBrackets: string[] = [];
    let bracketSaves = 0;
    for (const [t, saves] of written.brackets) {
      bracketSaves += saves.length;
      const [row] = await rows<{ bracket_version: number; bracket: { matches: { comment: string }[] }[] }>(
        db,
        sql`select bracket_version, bracket from tournaments where id = ${t}`,
      );
      const last = saves.reduce((a, b) => (b.version > a.version ? b : a));
      const versions = new Set(saves.map((s) => s.version));
      const initial = written.bracketInitial.get(t)!;
      // Each acknowledged save got its own version, the newest is stored, and no acknowledged save was overwritten unseen.
      if (versions.size !== saves.length || row!.bracket_version < last.version || row!.bracket_version - initial < saves.length) lostBrackets.push(t);
      else if (row!.bracket_version === last.version && row!.bracket[0]!.matches[0]!.comment !== last.comment) lostBrackets.push(t);
    }
    // A report is kept as the reporter's action; a confirmation as the match's result, its winner side a.
    const stageIds = [...new Set(setup.matches.map((m) => m.stageId))];
    const reportRows = await rows<{ match_id: string; user_id: string }>(
      db,
      sql`select a.match_id, a.user_id from match_actions a join stage_matches m on m.id = a.match_id where a.kind = 'report' and m.stage_id in (${sql.join(
        stageIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    const reported = new Set(reportRows.map((r) => `${r.match_id}:${r.user_id}`));
    const lostReports = [...written.reports].filter(([match, user]) => !reported.has(`${match}:${user}`)).map(([match]) => match);
    const resultRows = await rows<{ id: string; winner: string | null; participant_a: string | null; status: string }>(
      db,
      sql`select id, winner, participant_a, status from stage_matches where stage_id in (${sql.join(
        stageIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    );
    const results = new Map(resultRows.map((r) => [r.id, r]));
    const lostResults = [...written.confirmed].filter((id) => {
      const r = results.get(id);
      return !r || r.status !== 'completed' || r.winner !== r.participant_a;
    });
    return {
      table: [
        ['chat messages (201)', messageIds.length, lostMessages.length],
        ['recorded matches (201)', matchIds.length, lostMatches.length],
        [`bracket saves (200) on ${written.brackets.size} tournaments`, bracketSaves, lostBrackets.length],
        ['players’ reports (200)', written.reports.size, lostReports.length],
        ['confirmed results (200)', written.confirmed.size, lostResults.length],
      ] as [string, number, number][],
      count: lostMessages.length + lostMatches.length + lostBrackets.length + lostReports.length + lostResults.length,
    };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------- the runs
const READS = ['guests', 'chatPolls', 'bracketPolls'];
const WRITES = ['chatPosts', 'admins'];
export const count5xx = (r: Run) => [...r.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
const codes = (r: Run) =>
  [...r.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s}:${c}`)
    .join(' ');

if (import.meta.main) await main();

type RunResult = Awaited<ReturnType<typeof oneRun>>;

/** A run's table, its unanswered requests, its writes, memory and CPU. */
function printRun(kind: Kind, result: RunResult): void {
  const rowsOf = Object.entries(result.runs).map(([name, r]) => [
    name,
    r.latencies.length,
    Math.round(r.latencies.length / DURATION),
    ms(percentile(r.latencies, 50)),
    ms(percentile(r.latencies, 99)),
    count5xx(r),
    r.result.errors,
    r.result.timeouts,
    codes(r),
  ]);
  console.log(table(['clients', 'responses', 'rps', 'p50', 'p99', '5xx', 'errors', 'timeouts', 'status codes'], rowsOf));
  const unanswered = Object.entries(result.runs).flatMap(([name, r]) => r.unanswered.map((line) => `${name} ${line}`));
  if (unanswered.length > 0) console.log(`Без відповіді (${unanswered.length}):\n  ${unanswered.slice(0, 20).join('\n  ')}`);
  console.log(table(['write', 'acknowledged', 'lost'], result.lost.table));
  console.log(`RSS: ${result.idle.toFixed(0)} MB перед навантаженням, максимум ${result.maxRss.toFixed(0)} MB.`);
  const answers = Object.values(result.runs).reduce((n, r) => n + r.latencies.length, 0);
  console.log(
    `CPU: сервер ${result.cpu.server.toFixed(1)} с (${((result.cpu.server / DURATION) * 100).toFixed(0)} % ядра, ${((result.cpu.server * 1000) / answers).toFixed(2)} мс на відповідь)` +
      (kind === 'postgres' ? `, PostgreSQL ${result.cpu.postgres.toFixed(1)} с (${((result.cpu.postgres * 1000) / answers).toFixed(2)} мс на відповідь).` : '.'),
  );
}

/** The medians of a set of runs, and what failed in any of them. */
function summarise(results: RunResult[]) {
  const p99Of = (name: string) => median(results.map((r) => percentile(r.runs[name]?.latencies ?? [], 99)));
  const p50Of = (name: string) => median(results.map((r) => percentile(r.runs[name]?.latencies ?? [], 50)));
  // Each kind of client against the target, the worst of them named: merged, the many quick
  // answers of one kind (guests from memory) hid another kind's tail (the chat polls'; decision 032, F21).
  // The reporters' answers count as writes (their reads are few and of the same route family).
  const worstOf = (names: string[]) => {
    const present = names.filter((name) => results[0]!.runs[name]);
    const p99s = present.map((name) => [name, p99Of(name)] as const).sort((a, b) => b[1] - a[1]);
    const p99 = p99s[0]?.[1] ?? 0;
    return { p99, figure: `${ms(p99)} (${p99s.map(([name, value]) => `${name} ${ms(value)}`).join(', ')})` };
  };
  return {
    kinds: Object.keys(results[0]!.runs),
    p99Of,
    p50Of,
    rpsOf: (name: string) => median(results.map((r) => (r.runs[name]?.latencies.length ?? 0) / DURATION)),
    p99PerRun: (name: string) => results.map((r) => ms(percentile(r.runs[name]?.latencies ?? [], 99))).join(' / '),
    reads: worstOf(READS),
    writes: worstOf([...WRITES, 'reporters']),
    rssMax: results.map((r) => r.maxRss),
    idle: results.map((r) => r.idle),
    fiveXX: results.reduce((n, r) => n + Object.values(r.runs).reduce((m, run) => m + count5xx(run), 0), 0),
    lost: results.reduce((n, r) => n + r.lost.count, 0),
    acknowledged: results.reduce((n, r) => n + r.lost.table.reduce((m, [, acknowledged]) => m + acknowledged, 0), 0),
    // Each request that got no answer once (autocannon counts a timeout as an error too, and a close with a request unanswered not at all).
    failures: results.reduce((n, r) => n + Object.values(r.runs).reduce((m, run) => m + run.unanswered.length, 0), 0),
    rps: results.map((r) => Object.values(r.runs).reduce((n, run) => n + run.latencies.length, 0) / DURATION),
    cpuPerAnswer: results.map((r) => (r.cpu.server * 1000) / Object.values(r.runs).reduce((n, run) => n + run.latencies.length, 0)),
    writesTable: results.map((r) => r.lost.table),
  };
}

async function main() {
  await ensureSources(ON);
  let exitCode = 0;
  const verdicts: string[] = [];
  const summary: Record<string, unknown> = {};
  // The baseline runs on PostgreSQL only (issue 55 retired the embedded database's load targets).
  const baseline = BASE_COMMIT === 'none' || !ON.includes('postgres') ? undefined : checkout(BASE_COMMIT, BASE_ENV);
  for (const kind of ON) {
    const label = kind === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)';
    const base = kind === 'postgres' ? baseline : undefined;
    let results: RunResult[];
    let baseResults: RunResult[] = [];
    if (base) {
      // Base, this, this, base, base, this: each on a fresh copy of the volume, the same clients.
      const both = await alternating(RUNS, async (side, round) => {
        const result = await oneRun(kind, round + 1, DURATION, WARM_SECONDS, side === 'base' ? base : CURRENT);
        printRun(kind, result);
        return result;
      });
      results = both.current;
      baseResults = both.base;
    } else {
      results = [];
      for (let n = 1; n <= RUNS; n++) {
        const result = await oneRun(kind, n);
        printRun(kind, result);
        results.push(result);
      }
    }
    const ours = summarise(results);
    const theirs = base ? summarise(baseResults) : undefined;
    console.log(`\n${label}, ${CURRENT.label}: ${RUNS} прогонів по ${DURATION} с, ${results[0]!.total} зʼєднань, медіани:`);
    console.log(
      table(
        ['clients', 'p50', 'p99', 'p99 per run', 'rps'],
        ours.kinds.map((name) => [name, ms(ours.p50Of(name)), ms(ours.p99Of(name)), ours.p99PerRun(name), Math.round(ours.rpsOf(name))]),
      ),
    );
    const worseThanBase: string[] = [];
    if (base && theirs) {
      console.log(`\n${label}: ${CURRENT.label} проти ${base.label}${Object.keys(base.env).length ? ` (${Object.entries(base.env).map(([k, v]) => `${k}=${v}`).join(' ')})` : ''}, по черзі, медіани (ціль: p99 ≤ ${P99_VS_BASE}× базового):`);
      const rows = ours.kinds.map((name) => {
        const ratio = ours.p99Of(name) / theirs.p99Of(name);
        if (!(ratio <= P99_VS_BASE)) worseThanBase.push(`${name} ${ratio.toFixed(2)}×`);
        return [
          name,
          ms(theirs.p50Of(name)),
          ms(ours.p50Of(name)),
          ms(theirs.p99Of(name)),
          ms(ours.p99Of(name)),
          `${ratio.toFixed(2)}×`,
          theirs.p99PerRun(name),
          Math.round(theirs.rpsOf(name)),
          Math.round(ours.rpsOf(name)),
          ratio <= P99_VS_BASE ? 'ok' : 'FAIL',
        ];
      });
      console.log(table(['clients', 'p50 base', 'p50 this', 'p99 base', 'p99 this', 'p99 this/base', 'base p99 per run', 'rps base', 'rps this', ''], rows));
      console.log(
        `  ${base.label}: ${Math.round(median(theirs.rps))} відповідей за секунду, ${median(theirs.cpuPerAnswer).toFixed(2)} мс CPU сервера на відповідь; ` +
          `${CURRENT.label}: ${Math.round(median(ours.rps))}, ${median(ours.cpuPerAnswer).toFixed(2)} мс. ` +
          `${base.label}: 5xx ${theirs.fiveXX}, без відповіді ${theirs.failures}, втрачених записів ${theirs.lost}, RSS максимум ${theirs.rssMax.map((v) => v.toFixed(0)).join(' / ')} MB.`,
      );
    }
    // `null`: reported beside the targets, not judged.
    const checks: [string, boolean | null, string][] = [
      // With a baseline the latency line is issue 55's (relative); issue 24's absolute lines are then reported, not judged.
      ...(base
        ? ([[`every kind's p99 ≤ ${P99_VS_BASE}× ${base.label}'s in the same run`, worseThanBase.length === 0, worseThanBase.length ? worseThanBase.join(', ') : 'all within']] as [string, boolean, string][])
        : []),
      [`every reader's p99 ≤ ${LOAD_TARGETS.readP99Ms} ms${base ? ' (issue 24)' : ''}`, base ? null : ours.reads.p99 <= LOAD_TARGETS.readP99Ms, ours.reads.figure],
      [`every writer's p99 ≤ ${LOAD_TARGETS.writeP99Ms} ms${base ? ' (issue 24)' : ''}`, base ? null : ours.writes.p99 <= LOAD_TARGETS.writeP99Ms, ours.writes.figure],
      ['no 5xx', ours.fiveXX === 0, String(ours.fiveXX)],
      ['no lost write', ours.lost === 0, `${ours.lost} of ${ours.acknowledged}`],
      ['no request unanswered (connection error, timeout, close)', ours.failures === 0, String(ours.failures)],
      [
        `RSS ≤ ${LOAD_TARGETS.rssMb} MB`,
        Math.max(...ours.rssMax) <= LOAD_TARGETS.rssMb,
        `${Math.round(median(ours.idle))} MB idle, max ${ours.rssMax.map((v) => v.toFixed(0)).join(' / ')} MB`,
      ],
    ];
    console.log(
      table(
        ['target', 'result', ''],
        checks.map(([what, ok, figure]) => [what, figure, ok === null ? 'reported' : ok ? 'ok' : 'FAIL']),
      ),
    );
    console.log(`  ${Math.round(median(ours.rps))} відповідей за секунду (медіана).`);
    for (const [what, ok] of checks) {
      if (ok === null) continue;
      verdicts.push(`${ok ? 'ok  ' : 'FAIL'} ${label}: ${what}`);
      if (!ok) exitCode = 1;
    }
    const figures = (of: ReturnType<typeof summarise>) => ({
      readsP99: of.reads.p99,
      writesP99: of.writes.p99,
      p99: Object.fromEntries(of.kinds.map((name) => [name, of.p99Of(name)])),
      p50: Object.fromEntries(of.kinds.map((name) => [name, of.p50Of(name)])),
      rssMax: of.rssMax,
      idle: of.idle,
      rps: of.rps,
      cpuPerAnswerMs: of.cpuPerAnswer,
      fiveXX: of.fiveXX,
      lost: of.lost,
      failures: of.failures,
      writes: of.writesTable,
    });
    summary[kind] = { ...figures(ours), ...(base && theirs ? { base: { commit: base.label, env: base.env, ...figures(theirs) }, worseThanBase } : {}) };
  }
  console.log(`\nНавантаження (issues 24, 55):\n${verdicts.map((v) => `  ${v}`).join('\n')}`);
  const stamp = new Date().toISOString();
  writeFileSync(
    join(RESULTS_DIR, `load-${stamp.replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ stamp, current: CURRENT.label, duration: DURATION, connections: TOTAL, runs: RUNS, summary }, null, 2),
  );
  process.exit(exitCode);
}
