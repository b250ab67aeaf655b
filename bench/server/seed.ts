// Volume for the server benchmarks: 10 000 players in 2 000 teams, 10 games with statistics,
// 10 000 tournaments with applications and brackets, 100 000 recorded matches (200 000 sides) with
// the Elo ratings, streaks, totals and achievements they give, team chats and news.
//
// The database is prepared by the project's own code (openDatabase + migrate, the games through
// the game-management service), the volume goes in with multi-row inserts through drizzle, and the
// ratings are computed with the same pure rules the server applies (src/lib/domain).
//
//   node bench/server/seed.ts [--fresh] [--db bench_server]
//
// Without --fresh a database that already holds the volume is left alone. BENCH_SCALE (default 1)
// shrinks every count for quick runs while developing.
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { compileCondition } from '../../src/lib/domain/achievements.ts';
import { createBracket, setResult, champion, type Bracket } from '../../src/lib/domain/bracket.ts';
import { addTotals } from '../../src/lib/domain/match-result.ts';
import { nextStreak, rateMatch, winRate } from '../../src/lib/domain/rating.ts';
import type { TournamentStatus } from '../../src/lib/domain/tournament-status.ts';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/server/db/client.ts';
import {
  applications,
  chatMessages,
  earnedAchievements,
  matches,
  matchParticipants,
  news,
  playerGameStats,
  teamGameStats,
  teamMembers,
  teams,
  tournaments,
  users,
} from '../../src/server/db/schema/index.ts';
import { hashPassword } from '../../src/server/services/accounts/accounts.ts';
import { getStatsConfig, setupGame, setupPopularGames, type StatsConfig } from '../../src/server/services/competition/game-management.ts';
import { saveBracket } from '../../src/server/services/competition/bracket.ts';
import { createStage } from '../../src/server/services/competition/stages/commands.ts';
import { updateMatch } from '../../src/server/services/competition/stages/match-changes.ts';
import { databaseUrl, recreateDatabase, databaseExists } from './lib.ts';

export const BENCH_PASSWORD = 'bench12345';
/** The tournament whose 256-player double elimination `GET …/stages` is measured (issue 21). */
export const DE_256_TITLE = 'Бенчмарк: подвійне вибування на 256';
export const BENCH_EMAIL_DOMAIN = 'bench.kiberarena.local';

const SCALE = Number(process.env.BENCH_SCALE ?? '1');
export const VOLUME = {
  players: Math.round(10_000 * SCALE),
  teamSize: 5,
  tournaments: Math.round(10_000 * SCALE),
  matches: Math.round(100_000 * SCALE),
  participantsPerTournament: 8,
  chatPerTeam: 10,
  news: 300,
};

const EXTRA_GAMES = ['Rocket League', 'Apex Legends', 'Fortnite', 'PUBG', 'Overwatch 2', 'StarCraft II'];
const DAY = 24 * 60 * 60 * 1000;

/** A small deterministic generator, so every seeded database has the same shape. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(20240611);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
function sample<T>(list: readonly T[], n: number): T[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, list.length)) chosen.add(Math.floor(random() * list.length));
  return [...chosen].map((i) => list[i]!);
}

/** Inserts rows in multi-row statements, staying under PostgreSQL's 65 535 parameters. */
async function bulk<T extends PgTable>(db: Database, table: T, rows: readonly T['$inferInsert'][], columns: number): Promise<void> {
  const size = Math.max(1, Math.floor(60_000 / columns));
  for (let i = 0; i < rows.length; i += size) {
    await db.insert(table).values(rows.slice(i, i + size) as T['$inferInsert'][]);
  }
}

interface StatsRow {
  id: string;
  owner: string;
  gameId: string;
  rating: number;
  matchesPlayed: number;
  matchesWon: number;
  matchesLost: number;
  currentStreak: number;
  totals: Record<string, number>;
  updatedAt: Date;
}

/** The `when` of the newest committed migration: a database migrated by an older copy must be seeded again. */
function latestMigration(): number {
  const journal = JSON.parse(readFileSync('drizzle/meta/_journal.json', 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((e) => e.when));
}

/** Whether a database holds the full volume under the current migrations (so the benchmarks can reuse it). */
export async function isSeeded(target: DatabaseOptions): Promise<boolean> {
  const database = await openDatabase(target);
  try {
    const applied = (await database.db.execute(sql`select max(created_at)::bigint as at from drizzle.__drizzle_migrations`)) as unknown as { rows: { at: string }[] };
    if (Number(applied.rows[0]?.at) !== latestMigration()) {
      console.log('Міграції змінилися після заповнення бази: заповнюємо заново.');
      return false;
    }
    const { rows } = (await database.db.execute(
      sql`select (select count(*) from tournaments)::int as t, (select count(*) from matches)::int as m, (select count(*) from users where email like ${`%@${BENCH_EMAIL_DOMAIN}`})::int as u`,
    )) as unknown as { rows: { t: number; m: number; u: number }[] };
    const row = rows[0]!;
    return row.t >= VOLUME.tournaments && row.m >= VOLUME.matches && row.u >= VOLUME.players;
  } catch {
    return false;
  } finally {
    await database.close();
  }
}

/** Fills an empty database (PostgreSQL's `url`, or an embedded one's `dataDir`), migrating it first. Returns counts of what was written. */
export async function seed(target: DatabaseOptions): Promise<Record<string, number>> {
  const started = performance.now();
  const database = await openDatabase(target);
  await database.migrate();
  const db = database.db;
  const step = (label: string) => console.log(`  ${label} (${((performance.now() - started) / 1000).toFixed(1)} s)`);

  // Games with statistics, through the same service the admin panel uses.
  await setupPopularGames(db);
  for (const name of EXTRA_GAMES) await setupGame(db, { name, template: 'default' });
  const gameRows = (await db.execute(sql`select id, name from games order by name`)) as unknown as { rows: { id: string; name: string }[] };
  const gameList = gameRows.rows;
  const configs = new Map<string, StatsConfig>();
  for (const game of gameList) configs.set(game.id, (await getStatsConfig(db, game.id))!);
  step(`${gameList.length} games configured`);

  // Players: one argon2 hash shared by all (hashing 10 000 would take minutes).
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const now = Date.now();
  const players = Array.from({ length: VOLUME.players }, (_, i) => {
    const username = `bench_p${String(i + 1).padStart(5, '0')}`;
    return { id: randomUUID(), username, email: `${username}@${BENCH_EMAIL_DOMAIN}`, passwordHash, emailConfirmedAt: new Date(now - 400 * DAY), createdAt: new Date(now - 400 * DAY + i) };
  });
  await bulk(db, users, players, 6);
  step(`${players.length} players`);

  // Teams of five: every player is in one, the first member is the captain.
  const teamList: { id: string; name: string; captainId: string; memberIds: string[] }[] = [];
  for (let i = 0; i + VOLUME.teamSize <= players.length; i += VOLUME.teamSize) {
    const members = players.slice(i, i + VOLUME.teamSize).map((p) => p.id);
    teamList.push({ id: randomUUID(), name: `Bench Team ${String(teamList.length + 1).padStart(4, '0')}`, captainId: members[0]!, memberIds: members });
  }
  await bulk(
    db,
    teams,
    teamList.map((t, i) => ({ id: t.id, name: t.name, captainId: t.captainId, logoUrl: i % 3 === 0 ? `/games/cs2.jpg` : null, createdAt: new Date(now - 300 * DAY + i) })),
    5,
  );
  await bulk(
    db,
    teamMembers,
    teamList.flatMap((t) => t.memberIds.map((userId, k) => ({ teamId: t.id, userId, joinedAt: new Date(now - 300 * DAY + k) }))),
    3,
  );
  step(`${teamList.length} teams`);
  const teamName = new Map(teamList.map((t) => [t.id, t.name]));
  const teamById = new Map(teamList.map((t) => [t.id, t]));
  const userName = new Map(players.map((p) => [p.id, p.username]));

  // Tournaments over the last ~3 years and the next two months; each has 8 approved participants.
  const first = now - 1000 * DAY;
  const span = 1060 * DAY;
  type Planned = { id: string; gameId: string; date: Date; soloOnly: boolean; status: TournamentStatus; participants: string[]; bracket: Bracket; winner: string | null };
  const planned: Planned[] = [];
  const applicationRows: (typeof applications.$inferInsert)[] = [];
  for (let i = 0; i < VOLUME.tournaments; i++) {
    const date = new Date(first + Math.floor((i / VOLUME.tournaments) * span) + int(0, 12) * 3600_000);
    const age = now - date.getTime();
    const status = age < 0 ? 'pending' : age < 20 * DAY ? 'started' : 'finished';
    // Chosen at random, so every game has both solo and team tournaments.
    const soloOnly = random() < 0.5;
    const gameId = gameList[i % gameList.length]!.id;
    const id = randomUUID();
    const participants = soloOnly ? sample(players, VOLUME.participantsPerTournament).map((p) => p.id) : sample(teamList, VOLUME.participantsPerTournament).map((t) => t.id);
    let bracket: Bracket = [];
    if (status !== 'pending') {
      bracket = createBracket(participants);
      const rounds = status === 'finished' ? bracket.length : 1;
      for (let r = 0; r < rounds; r++) {
        bracket[r]!.matches.forEach((match, m) => {
          if (match.a && match.b) bracket = setResult(bracket, r, m, random() < 0.5 ? match.a : match.b, random() < 0.2 ? 'Напружена гра' : '');
        });
      }
    }
    const winner = status === 'finished' ? champion(bracket) : null;
    planned.push({ id, gameId, date, soloOnly, status, participants, bracket, winner });
    participants.forEach((pid, k) => {
      const team = soloOnly ? null : teamById.get(pid)!;
      applicationRows.push({
        tournamentId: id,
        userId: team ? team.captainId : pid,
        teamId: team ? team.id : null,
        status: 'approved',
        createdAt: new Date(date.getTime() - 7 * DAY + k * 1000),
      });
    });
    if (status === 'pending') {
      // Two applications still waiting for the admin.
      const taken = new Set(participants);
      const extra = soloOnly ? sample(players, 4).map((p) => p.id) : sample(teamList, 4).map((t) => t.id);
      for (const pid of extra.filter((x) => !taken.has(x)).slice(0, 2)) {
        const team = soloOnly ? null : teamById.get(pid)!;
        applicationRows.push({ tournamentId: id, userId: team ? team.captainId : pid, teamId: team ? team.id : null, status: 'pending', createdAt: new Date(date.getTime() - 3 * DAY) });
      }
    }
  }
  await bulk(
    db,
    tournaments,
    planned.map((p, i) => ({
      id: p.id,
      title: `${p.soloOnly ? 'Соло-кубок' : 'Командна ліга'} №${i + 1} · ${gameList.find((g) => g.id === p.gameId)!.name}`,
      description: `Турнір для бенчмарку №${i + 1}. Формат single elimination, ${VOLUME.participantsPerTournament} учасників, призовий фонд ${int(1, 50) * 1000} грн.`,
      date: p.date,
      status: p.status,
      soloOnly: p.soloOnly,
      gameId: p.gameId,
      image: i % 4 === 0 ? null : `/games/${['cs2', 'valorant', 'lol', 'dota2'][i % 4]}.jpg`,
      winnerType: p.winner ? (p.soloOnly ? ('user' as const) : ('team' as const)) : null,
      winnerId: p.winner,
      bracket: p.bracket,
      bracketVersion: p.bracket.length > 0 ? 1 : 0,
      statsEnabled: true,
      createdAt: new Date(p.date.getTime() - 14 * DAY),
      updatedAt: new Date(p.date.getTime() - 14 * DAY),
    })),
    16,
  );
  await bulk(db, applications, applicationRows, 6);
  step(`${planned.length} tournaments, ${applicationRows.length} applications`);

  // Matches of the tournaments that have begun, in time order, rated as the server rates them.
  const played = planned.filter((p) => p.status !== 'pending');
  const perTournament = Math.floor(VOLUME.matches / played.length);
  let remainder = VOLUME.matches - perTournament * played.length;
  const stats = new Map<string, StatsRow>();
  const statsOf = (owner: string, gameId: string, at: Date): StatsRow => {
    const key = `${owner}:${gameId}`;
    let row = stats.get(key);
    if (!row) {
      row = { id: randomUUID(), owner, gameId, rating: 1000, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0, totals: {}, updatedAt: at };
      stats.set(key, row);
    }
    return row;
  };
  const matchRows: (typeof matches.$inferInsert)[] = [];
  const sideRows: (typeof matchParticipants.$inferInsert)[] = [];
  for (const t of played) {
    const count = perTournament + (remainder-- > 0 ? 1 : 0);
    const config = configs.get(t.gameId)!;
    const numeric = config.statsFields.filter((f) => f.fieldType !== 'string');
    for (let k = 0; k < count; k++) {
      const [a, b] = sample(t.participants, 2) as [string, string];
      const at = new Date(t.date.getTime() + k * 40 * 60_000);
      const scores = [int(0, 16), int(0, 16)];
      if (scores[0] === scores[1]) scores[int(0, 1)]! += 1;
      const winnerIndex = scores[0]! > scores[1]! ? 0 : 1;
      const sides = [a, b].map((owner) => ({ owner, name: (t.soloOnly ? userName : teamName).get(owner)! }));
      const sideStats = sides.map(() => Object.fromEntries(numeric.map((f) => [f.fieldName, f.fieldType === 'percentage' ? int(0, 100) : int(0, 30)])));
      const before = sides.map((s) => statsOf(s.owner, t.gameId, at));
      const rated = rateMatch(before[winnerIndex]!, before[1 - winnerIndex]!);
      before.forEach((row, index) => {
        const won = index === winnerIndex;
        row.rating = won ? rated.winner : rated.loser;
        row.matchesPlayed += 1;
        row.matchesWon += won ? 1 : 0;
        row.matchesLost += won ? 0 : 1;
        row.currentStreak = nextStreak(row.currentStreak, won);
        row.totals = addTotals(row.totals, sideStats[index]!);
        row.updatedAt = at;
      });
      const matchId = randomUUID();
      const details: Record<string, number> = {};
      sides.forEach((side, index) => {
        for (const f of numeric.slice(0, 3)) details[`${f.displayName} · ${side.name}`] = sideStats[index]![f.fieldName]!;
      });
      matchRows.push({ id: matchId, tournamentId: t.id, gameId: t.gameId, status: 'completed', isDraw: false, duration: int(20, 60), gameSpecificData: details, completedAt: at, createdAt: at });
      sides.forEach((side, index) =>
        sideRows.push({
          matchId,
          participantType: t.soloOnly ? 'user' : 'team',
          userId: t.soloOnly ? side.owner : null,
          teamId: t.soloOnly ? null : side.owner,
          name: side.name,
          score: scores[index]!,
          isWinner: index === winnerIndex,
          stats: sideStats[index]!,
        }),
      );
    }
  }
  await bulk(db, matches, matchRows, 9);
  step(`${matchRows.length} matches`);
  await bulk(db, matchParticipants, sideRows, 8);
  step(`${sideRows.length} match sides`);

  const playerIds = new Set<string>(players.map((p) => p.id));
  const allStats = [...stats.values()];
  const row = (s: StatsRow) => ({
    id: s.id,
    gameId: s.gameId,
    rating: s.rating,
    matchesPlayed: s.matchesPlayed,
    matchesWon: s.matchesWon,
    matchesLost: s.matchesLost,
    currentStreak: s.currentStreak,
    totals: s.totals,
    updatedAt: s.updatedAt,
  });
  const playerStats = allStats.filter((s) => playerIds.has(s.owner));
  const teamStats = allStats.filter((s) => !playerIds.has(s.owner));
  await bulk(db, playerGameStats, playerStats.map((s) => ({ ...row(s), userId: s.owner })), 10);
  await bulk(db, teamGameStats, teamStats.map((s) => ({ ...row(s), teamId: s.owner })), 10);
  step(`${playerStats.length} player and ${teamStats.length} team rating rows`);

  // Achievements whose condition the final statistics meet.
  const earned: (typeof earnedAchievements.$inferInsert)[] = [];
  const compiled = new Map(
    [...configs.values()].map((config) => {
      const names = config.statsFields.map((f) => f.fieldName);
      return [config.gameId, config.gameAchievements.flatMap((a) => {
        const c = compileCondition(a.condition, names);
        return c.ok ? [{ id: a._id, evaluate: c.evaluate }] : [];
      })] as const;
    }),
  );
  for (const s of allStats) {
    const values = { ...s.totals, matchesPlayed: s.matchesPlayed, wins: s.matchesWon, losses: s.matchesLost, winRate: winRate(s.matchesWon, s.matchesPlayed), currentStreak: s.currentStreak, rating: s.rating };
    for (const a of compiled.get(s.gameId) ?? []) {
      if (!a.evaluate(values)) continue;
      const isPlayer = playerIds.has(s.owner);
      earned.push({ achievementId: a.id, userId: isPlayer ? s.owner : null, teamId: isPlayer ? null : s.owner, earnedAt: s.updatedAt });
    }
  }
  await bulk(db, earnedAchievements, earned, 4);
  step(`${earned.length} achievements earned`);

  const chatRows = teamList.flatMap((t, i) =>
    Array.from({ length: VOLUME.chatPerTeam }, (_, k) => ({
      teamId: t.id,
      userId: t.memberIds[k % t.memberIds.length]!,
      message: pick(['Привіт, команда!', 'Тренування о 19:00', 'Хто сьогодні грає?', 'GG WP', 'Дивіться сітку, ми у півфіналі', 'Оновіть клієнт перед матчем']),
      createdAt: new Date(now - 30 * DAY + i * 1000 + k * 60_000),
    })),
  );
  await bulk(db, chatMessages, chatRows, 4);
  const newsRows = Array.from({ length: VOLUME.news }, (_, i) => ({
    title: `Новина бенчмарку №${i + 1}: підсумки тижня`,
    content: `Огляд подій тижня №${i + 1}. `.repeat(12),
    imageUrl: i % 2 === 0 ? '/games/valorant.jpg' : null,
    archived: i % 10 === 9,
    date: new Date(now - i * DAY),
  }));
  await bulk(db, news, newsRows, 5);
  step(`${chatRows.length} chat messages, ${newsRows.length} news`);

  // Issue 21's largest stage: a double elimination of 256 players, its winners' first round played.
  const [big] = await db
    .insert(tournaments)
    .values({ title: DE_256_TITLE, date: new Date(now), gameId: gameList[0]!.id, soloOnly: true, status: 'pending' })
    .returning({ id: tournaments.id });
  await bulk(
    db,
    applications,
    players.slice(0, 256).map((p) => ({ tournamentId: big!.id, userId: p.id, status: 'approved' as const })),
    3,
  );
  // The audit log names an organiser; the bench has no admin, so its first player stands in.
  const organiser = { id: players[0]!.id, username: 'bench' };
  const created = await createStage(db, big!.id, { format: 'double_elimination', seeding: 'standard', settings: {} }, organiser);
  if (!created.ok) throw new Error(`bench seed: the 256-player stage was refused (${created.reason})`);
  for (const match of created.stage.matches.filter((m) => m.side === 'winners' && m.round === 1)) {
    await updateMatch(db, match._id, { scoreA: 2, scoreB: 1, version: match.version }, organiser);
  }
  step('a 256-player double elimination');

  await countSavedBrackets(db, organiser);
  step(`${SAVED_BRACKETS} brackets saved through the service`);

  await db.execute(sql`analyze`);
  await database.close();
  step('analyzed');
  return {
    games: gameList.length,
    players: players.length,
    teams: teamList.length,
    tournaments: planned.length,
    applications: applicationRows.length,
    matches: matchRows.length,
    matchSides: sideRows.length,
    playerStats: playerStats.length,
    teamStats: teamStats.length,
    earnedAchievements: earned.length,
    chatMessages: chatRows.length,
    news: newsRows.length,
  };
}

/** The started tournaments whose brackets the load mix saves and polls (bench/server/load.ts). */
export const SAVED_BRACKETS = 20;

/**
 * The seed writes brackets as JSON, beside their matches; a save through the service (PATCH
 * …/bracket) also keeps their stage matches and counts their results in the statistics. Without
 * this the load mix's first save of each bracket would do that whole catching-up (seconds on the
 * embedded database), which no real bracket, saved from its first result on, ever does.
 */
export async function countSavedBrackets(db: Database, actor: { id: string; username: string }): Promise<void> {
  const rows = (await db.execute(
    sql`select id, bracket, bracket_version from tournaments where status = 'started' and jsonb_array_length(bracket) > 0 order by date desc limit ${SAVED_BRACKETS}`,
  )) as unknown as { rows: { id: string; bracket: Bracket; bracket_version: number }[] };
  for (const row of rows.rows) {
    const saved = await saveBracket(db, row.id, row.bracket, row.bracket_version, actor);
    if (!saved.ok) throw new Error(`bench seed: a bracket save was refused (${saved.reason})`);
  }
}

/** Makes sure database `name` holds the volume: reuses it, or (re)creates and seeds it. */
export async function ensureSeeded(name: string, options: { fresh?: boolean } = {}): Promise<string> {
  const url = databaseUrl(name);
  if (!options.fresh && (await databaseExists(name)) && (await isSeeded({ url }))) {
    console.log(`База ${name} уже має обсяг для бенчмарку.`);
    return url;
  }
  console.log(`Заповнюємо базу ${name} (${VOLUME.tournaments} турнірів, ${VOLUME.matches} матчів, ${VOLUME.players} гравців)…`);
  await recreateDatabase(name);
  const counts = await seed({ url });
  console.log('  ' + Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(' '));
  return url;
}

/**
 * The same volume in an embedded database (issue 24: the load mix runs on both): seeded once into
 * `dir`, reused while it holds the volume under the current migrations. A run works on a copy.
 */
export async function ensureEmbeddedSeeded(dir: string): Promise<string> {
  if (existsSync(dir) && (await isSeeded({ dataDir: dir }))) {
    console.log(`Вбудована база ${dir} уже має обсяг для бенчмарку.`);
    return dir;
  }
  console.log(`Заповнюємо вбудовану базу ${dir} (${VOLUME.tournaments} турнірів, ${VOLUME.matches} матчів, ${VOLUME.players} гравців)…`);
  rmSync(dir, { recursive: true, force: true });
  const counts = await seed({ dataDir: dir });
  console.log('  ' + Object.entries(counts).map(([k, v]) => `${k}=${v}`).join(' '));
  return dir;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const dbIndex = args.indexOf('--db');
  const name = dbIndex >= 0 ? args[dbIndex + 1]! : 'bench_server';
  await ensureSeeded(name, { fresh: args.includes('--fresh') });
}
