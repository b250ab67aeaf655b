// `npm run bench:load` (issue 10): 200 connections for 60 s against the built server on a copy of
// the benchmark volume, as a realistic mix —
//   guests        read pages and lists (/, /tournaments, /games/{id}, /tournaments/{id}, /news,
//                 /leaderboards, /api/tournaments?game, a leaderboard, a tournament);
//   chat pollers  GET /api/team/{id}/chat with the ETag of their last answer (304 when unchanged);
//   bracket polls GET /api/tournaments/{id}/bracket with If-None-Match;
//   chat posters  POST /api/team/{id}/chat (players rotate, under the 30-a-minute limit);
//   admins        POST /api/tournaments/{id}/record-match and PATCH …/bracket with its version.
// Requirements: no 5xx, no lost write (every 2xx chat message, match and bracket save is in the
// database afterwards, checked with SQL), p99 and the server's RSS maximum reported.
//
// Env: BENCH_LOAD_SECONDS (default 60), BENCH_LOAD_CONNECTIONS (default 200), BENCH_PORT (default
// 4522), BENCH_SOURCE_DB (default bench_server, seeded when needed), BENCH_LOAD_DB (default
// bench_load: recreated from the source on every run, so each run starts from the same data).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { RequestStep } from 'autocannon';
import { openDatabase } from '../../src/server/db/client.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { ADMIN_EMAIL, AS_A_BROWSER, cannon, databaseUrl, ms, percentile, recreateDatabase, RESULTS_DIR, RssSampler, seconds, settle, startServer, type Run } from './lib.ts';
import { ensureSeeded } from './seed.ts';
import { table } from '../table.ts';

const SOURCE = process.env.BENCH_SOURCE_DB ?? 'bench_server';
const DB = process.env.BENCH_LOAD_DB ?? 'bench_load';
const PORT = Number(process.env.BENCH_PORT ?? 4522);
const DURATION = seconds('BENCH_LOAD_SECONDS', 60);
const TOTAL = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 200);
const TARGET_RSS = 200;
const RUN = Date.now().toString(36);

/** How the connections are shared out (fractions of TOTAL); writers are paced, readers are not. */
const SHARE = { guests: 0.55, chatPolls: 0.2, bracketPolls: 0.12, chatPosts: 0.08, admins: 0.05 };
const connections = (share: number) => Math.max(1, Math.round(TOTAL * share));

await ensureSeeded(SOURCE);
console.log(`Копіюємо ${SOURCE} → ${DB}…`);
await recreateDatabase(DB, SOURCE);

const server = await startServer({ port: PORT, database: DB });
const rss = new RssSampler(server.pid);
let exitCode = 0;
try {
  // ---------------------------------------------------------------- who takes part
  const client = new pg.Client({ connectionString: databaseUrl(DB) });
  await client.connect();
  const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await client.query<T>(text, values)).rows;

  const database = await openDatabase({ url: databaseUrl(DB) });
  const ttl = 1;
  // Players with sessions made directly (the login route is rate-limited per address): one per team.
  const members = await q<{ user_id: string; team_id: string }>(
    `select distinct on (team_id) user_id, team_id from team_members order by team_id, joined_at limit 400`,
  );
  const players: { token: string; teamId: string }[] = [];
  for (const m of members) players.push({ token: (await createSession(database.db, m.user_id, ttl)).token, teamId: m.team_id });
  const [admin] = await q<{ id: string }>(`select id from users where email = $1`, [ADMIN_EMAIL]);
  const adminToken = (await createSession(database.db, admin!.id, ttl)).token;
  await database.close();

  const games = await q<{ id: string }>(`select game_id as id from game_stats_configs order by game_id`);
  const pageTournaments = await q<{ id: string }>(`select id from tournaments order by date desc limit 300`);
  // Tournaments still running (pending or started): results are recorded on them.
  const open = await q<{ id: string; solo_only: boolean; game_id: string }>(
    `select id, solo_only, game_id from tournaments where status <> 'finished' and stats_enabled order by date limit 60`,
  );
  const rosters = new Map<string, string[]>();
  for (const t of open) {
    const rows = await q<{ id: string }>(
      `select ${t.solo_only ? 'user_id' : 'team_id'} as id from applications where tournament_id = $1 and status = 'approved' order by created_at`,
      [t.id],
    );
    rosters.set(t.id, rows.map((r) => r.id));
  }
  const fields = new Map<string, string[]>();
  for (const g of games) {
    fields.set(g.id, (await q<{ field_name: string }>(`select field_name from stat_fields where game_id = $1 and field_type = 'number' order by field_name limit 3`, [g.id])).map((r) => r.field_name));
  }
  // Started tournaments with a bracket: admins save them, players poll them.
  const brackets = await q<{ id: string; bracket: unknown; bracket_version: number }>(
    `select id, bracket, bracket_version from tournaments where status = 'started' and jsonb_array_length(bracket) > 0 order by date desc limit 20`,
  );
  await client.end();

  // ---------------------------------------------------------------- what each kind of client does
  const json = { 'content-type': 'application/json' };
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const pickOf = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
  const header = (headers: Record<string, string>, name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

  // BENCH_LOAD_GUESTS=light leaves out the pages that carry a whole list (home: every tournament;
  // a game's page: its 1 000 tournaments), to check the writers while those are being fixed.
  const light = process.env.BENCH_LOAD_GUESTS === 'light';
  const guestPaths = () => {
    const game = pickOf(games).id;
    const tournament = pickOf(pageTournaments).id;
    return pickOf([
      ...(light ? [] : ['/', `/games/${game}`, `/api/tournaments?game=${game}`]),
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
    ]);
  };
  // Readers ask for compression as browsers (and islands' fetch calls) do; the writers below do not,
  // because their answers are read here to check the writes, and autocannon does not decompress.
  const guests: RequestStep[] = [{ method: 'GET', setupRequest: (r) => ({ ...r, path: guestPaths(), headers: AS_A_BROWSER }) }];

  const chatTags = new Map<string, string>();
  const chatPolls: RequestStep[] = [
    {
      method: 'GET',
      setupRequest: (r, context) => {
        const player = pickOf(players);
        context.team = player.teamId;
        const tag = chatTags.get(player.teamId);
        return { ...r, path: `/api/team/${player.teamId}/chat`, headers: { ...AS_A_BROWSER, ...auth(player.token), ...(tag ? { 'if-none-match': tag } : {}) } };
      },
      onResponse: (status, _body, context, headers) => {
        const tag = header(headers, 'etag');
        if (status === 200 && tag) chatTags.set(context.team as string, tag);
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
        const headers: Record<string, string> = { ...AS_A_BROWSER, ...(tag ? { 'if-none-match': tag } : {}) };
        return { ...r, path: `/api/tournaments/${t}/bracket`, headers };
      },
      onResponse: (status, _body, context, headers) => {
        const tag = header(headers, 'etag');
        if (status === 200 && tag) bracketTags.set(context.tournament as string, tag);
      },
    },
  ];

  // Every acknowledged write, to look for in the database afterwards.
  const sentMessages = new Map<string, { teamId: string; message: string }>();
  let messageNo = 0;
  let playerNo = 0;
  const chatPosts: RequestStep[] = [
    {
      method: 'POST',
      setupRequest: (r, context) => {
        const player = players[playerNo++ % players.length]!;
        const message = `load ${RUN} #${++messageNo}`;
        context.message = message;
        context.team = player.teamId;
        return { ...r, path: `/api/team/${player.teamId}/chat`, headers: { ...json, ...auth(player.token) }, body: JSON.stringify({ message }) };
      },
      onResponse: (status, body, context) => {
        if (status !== 201) return;
        const saved = JSON.parse(body) as { _id: string; message: string };
        sentMessages.set(saved._id, { teamId: context.team as string, message: context.message as string });
      },
    },
  ];

  const recorded = new Set<string>();
  const savedBrackets = new Map<string, { version: number; comment: string }[]>();
  const bracketState = new Map(brackets.map((b) => [b.id, { bracket: b.bracket as { matches: { comment: string }[] }[], version: b.bracket_version, initial: b.bracket_version }]));
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
            body: JSON.stringify({ participant1Type: type, participant1Id: a, participant2Type: type, participant2Id: b, score1, score2: score1 + 1 + Math.floor(Math.random() * 5), gameSpecificStats: { participant1: stat(), participant2: stat() } }),
          };
        }
        const t = pickOf(brackets).id;
        const state = bracketState.get(t)!;
        const comment = `load ${RUN} save ${++saveNo}`;
        const bracket = structuredClone(state.bracket);
        bracket[0]!.matches[0]!.comment = comment;
        context.kind = 'bracket';
        context.tournament = t;
        context.comment = comment;
        return { ...r, method: 'PATCH', path: `/api/tournaments/${t}/bracket`, headers: { ...json, ...auth(adminToken) }, body: JSON.stringify({ bracket, version: state.version }) };
      },
      onResponse: (status, body, context) => {
        if (context.kind === 'record') {
          if (status === 201) recorded.add((JSON.parse(body) as { match: { _id: string } }).match._id);
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
          if (status === 200) savedBrackets.set(t, [...(savedBrackets.get(t) ?? []), { version: answer.version, comment: context.comment as string }]);
        }
      },
    },
  ];

  // ---------------------------------------------------------------- the run
  const kinds = {
    guests: { requests: guests, connections: connections(SHARE.guests) },
    chatPolls: { requests: chatPolls, connections: connections(SHARE.chatPolls) },
    bracketPolls: { requests: bracketPolls, connections: connections(SHARE.bracketPolls) },
    chatPosts: { requests: chatPosts, connections: connections(SHARE.chatPosts), connectionRate: 4 },
    admins: { requests: admins, connections: connections(SHARE.admins), connectionRate: 3 },
  };
  const total = Object.values(kinds).reduce((n, k) => n + k.connections, 0);
  console.log(`\nСервер ${server.url} (pid ${server.pid}). ${light ? 'Гості без важких сторінок (light). ' : ''}${total} зʼєднань на ${DURATION} с: ${Object.entries(kinds).map(([k, v]) => `${k} ${v.connections}`).join(', ')}.`);
  await settle(server.url);
  const idle = rss.read();
  rss.start();
  const runs: Record<string, Run> = Object.fromEntries(
    await Promise.all(
      Object.entries(kinds).map(async ([name, kind]) => [name, await cannon({ url: server.url, duration: DURATION, ...kind })] as const),
    ),
  );
  rss.stop();

  // ---------------------------------------------------------------- verification
  await settle(server.url);
  const check = new pg.Client({ connectionString: databaseUrl(DB) });
  await check.connect();
  const messageIds = [...sentMessages.keys()];
  const storedMessages = (await check.query<{ id: string; team_id: string; message: string }>('select id, team_id, message from chat_messages where id = any($1::uuid[])', [messageIds])).rows;
  const lostMessages = messageIds.filter((id) => {
    const row = storedMessages.find((r) => r.id === id);
    const sent = sentMessages.get(id)!;
    return !row || row.message !== sent.message || row.team_id !== sent.teamId;
  });
  const matchIds = [...recorded];
  const storedMatches = (await check.query<{ id: string; sides: number }>('select m.id, count(p.id)::int as sides from matches m join match_participants p on p.match_id = m.id where m.id = any($1::uuid[]) group by m.id', [matchIds])).rows;
  const lostMatches = matchIds.filter((id) => storedMatches.find((r) => r.id === id)?.sides !== 2);
  const lostBrackets: string[] = [];
  let bracketSaves = 0;
  for (const [t, saves] of savedBrackets) {
    bracketSaves += saves.length;
    const [row] = (await check.query<{ bracket_version: number; bracket: { matches: { comment: string }[] }[] }>('select bracket_version, bracket from tournaments where id = $1', [t])).rows;
    const last = saves.reduce((a, b) => (b.version > a.version ? b : a));
    const versions = new Set(saves.map((s) => s.version));
    const initial = bracketState.get(t)!.initial;
    // Each acknowledged save got its own version, the newest is stored, and no acknowledged save was overwritten unseen.
    if (versions.size !== saves.length || row!.bracket_version < last.version || row!.bracket_version - initial < saves.length) lostBrackets.push(t);
    else if (row!.bracket_version === last.version && row!.bracket[0]!.matches[0]!.comment !== last.comment) lostBrackets.push(t);
  }
  await check.end();

  // ---------------------------------------------------------------- report
  const all = Object.values(runs).flatMap((r) => r.latencies);
  const count5xx = (r: Run) => [...r.statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0);
  const codes = (r: Run) => [...r.statuses].sort(([a], [b]) => a - b).map(([s, c]) => `${s}:${c}`).join(' ');
  const rows = Object.entries(runs).map(([name, r]) => [
    name,
    kinds[name as keyof typeof kinds].connections,
    r.latencies.length,
    Math.round(r.latencies.length / DURATION),
    ms(percentile(r.latencies, 50)),
    ms(percentile(r.latencies, 99)),
    count5xx(r),
    r.result.errors,
    r.result.timeouts,
    codes(r),
  ]);
  const fiveXX = Object.values(runs).reduce((n, r) => n + count5xx(r), 0);
  const errors = Object.values(runs).reduce((n, r) => n + r.result.errors, 0);
  const timeouts = Object.values(runs).reduce((n, r) => n + r.result.timeouts, 0);
  rows.push(['all', total, all.length, Math.round(all.length / DURATION), ms(percentile(all, 50)), ms(percentile(all, 99)), fiveXX, errors, timeouts, '']);
  console.log(`\nНавантаження ${total} зʼєднань, ${DURATION} с:`);
  console.log(table(['clients', 'conns', 'responses', 'rps', 'p50', 'p99', '5xx', 'errors', 'timeouts', 'status codes'], rows));
  const writes = [
    ['chat messages (201)', messageIds.length, lostMessages.length],
    ['recorded matches (201)', matchIds.length, lostMatches.length],
    [`bracket saves (200) on ${savedBrackets.size} tournaments`, bracketSaves, lostBrackets.length],
  ];
  console.log('\nПідтверджені записи, перевірені в базі:');
  console.log(table(['write', 'acknowledged', 'lost'], writes));
  console.log(`\nRSS сервера: перед навантаженням ${idle.toFixed(0)} MB, максимум ${rss.max.toFixed(0)} MB (ціль < ${TARGET_RSS} MB).`);

  const lost = lostMessages.length + lostMatches.length + lostBrackets.length;
  const verdict = [
    ['no 5xx', fiveXX === 0],
    ['no lost writes', lost === 0],
    ['no connection errors or timeouts', errors + timeouts === 0],
    [`RSS < ${TARGET_RSS} MB`, rss.max < TARGET_RSS],
  ] as const;
  for (const [what, ok] of verdict) console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (fiveXX > 0 || lost > 0) exitCode = 1;
  if (process.env.BENCH_STRICT === '1' && verdict.some(([, ok]) => !ok)) exitCode = 1;

  const stamp = new Date().toISOString();
  writeFileSync(
    join(RESULTS_DIR, `load-${stamp.replace(/[:.]/g, '-')}.json`),
    JSON.stringify({ stamp, duration: DURATION, connections: total, rows, writes, rss: { idle, max: rss.max }, lost: { messages: lostMessages, matches: lostMatches, brackets: lostBrackets } }, null, 2),
  );
} finally {
  rss.stop();
  await server.stop();
}
process.exit(exitCode);
