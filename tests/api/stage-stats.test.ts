import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlayerEntry } from '../../src/lib/api/leaderboards.ts';
import { INITIAL_RATING, nextStreak, rateMatch } from '../../src/lib/domain/rating.ts';
import {
  achievements,
  applications,
  earnedAchievements,
  matches,
  matchParticipants,
  notifications,
  playerGameStats,
  stageMatches,
  stageRounds,
  stages,
  teamGameStats,
  users,
} from '../../src/server/db/schema/index.ts';
import { countStageResults } from '../../src/server/services/statistics/stage-stats.ts';
import { lockTournament } from '../../src/server/services/competition/stages/store.ts';
import { accounts, team as buildTeam, recordedMatch, statsGame, statsOn, tournament, useTestApi } from '../support/builders.ts';

/*
 * Stage results in the statistics (issue 21). The stage service does not exist in this file's
 * world: stage rows are written straight into the tables, and `countStageResults` is called in a
 * transaction right after, as the service will. Expected numbers come from record-match on a
 * twin setup, from hand-computed Elo, or from `replayDuels` below, which replays a sequence with
 * the rating functions only.
 */

const api = useTestApi();
let gameId: string;

beforeAll(async () => {
  gameId = await statsGame(api, {
    fields: [{ fieldName: 'kills', displayName: 'Вбивства', fieldType: 'number', isMainStat: true }],
    achievements: [
      { name: 'First Win', description: 'Перша перемога', condition: 'wins >= 1', icon: '🥇', rarity: 'common' },
      { name: 'Hot Streak', description: 'Дві перемоги поспіль', condition: 'currentStreak >= 2', icon: '🔥', rarity: 'rare' },
      { name: 'Unbeaten', description: 'Три перемоги поспіль', condition: 'currentStreak >= 3', icon: '🛡️', rarity: 'epic' },
      { name: 'Tough Luck', description: 'Дві поразки', condition: 'losses >= 2', icon: '🌧️', rarity: 'common' },
    ],
  });
});

// ------------------------------------------------------------------ setup helpers

interface Cup {
  id: string;
  stageId: string;
  roundId: string;
  positions: number;
}

/** A tournament of the game (solo: with these players approved, straight into the table, so no bell rings), statistics on unless told. */
async function cup(entrants: string[], options: { solo?: boolean; stats?: boolean } = {}): Promise<Cup> {
  const solo = options.solo ?? true;
  const built = await tournament(api, { game: gameId, soloOnly: solo });
  // Record-match needs them; the stage counting does not (team cups here only count stages).
  if (solo && entrants.length > 0)
    await api.db.insert(applications).values(entrants.map((userId) => ({ tournamentId: built.id, userId, status: 'approved' as const })));
  if (options.stats ?? true) await statsOn(api, built.id);
  const [stage] = await api.db.insert(stages).values({ tournamentId: built.id, number: 1, format: 'round_robin' }).returning();
  const [round] = await api.db.insert(stageRounds).values({ stageId: stage!.id, number: 1 }).returning();
  return { id: built.id, stageId: stage!.id, roundId: round!.id, positions: 0 };
}

/** A stage match between `a` and `b` (null for a bye), waiting for its result; its id. */
async function stageMatch(c: Cup, a: string | null, b: string | null): Promise<string> {
  const [row] = await api.db
    .insert(stageMatches)
    .values({ stageId: c.stageId, roundId: c.roundId, round: 1, position: ++c.positions, participantA: a, participantB: b, status: 'ready' })
    .returning();
  return row!.id;
}

// As the stage service calls it: with the tournament's row, locked.
/** Counts these matches as they stand in the tables, as the stage service counts the rows it just wrote. */
const count = (c: Cup, ids: string[]) =>
  api.db.transaction(async (tx) =>
    countStageResults(tx, (await lockTournament(tx, c.id))!, await tx.select().from(stageMatches).where(inArray(stageMatches.id, ids))),
  );

/** Writes a stage match's result as the stage service would, then counts it. */
async function result(c: Cup, id: string, scoreA: number, scoreB: number, winner: string | null, completedAt: Date) {
  await api.db.update(stageMatches).set({ status: 'completed', scoreA, scoreB, winner, completedAt }).where(eq(stageMatches.id, id));
  await count(c, [id]);
}

/** Withdraws a stage match's result (a reset), then counts it. */
async function reset(c: Cup, id: string) {
  await api.db.update(stageMatches).set({ status: 'ready', scoreA: null, scoreB: null, winner: null, completedAt: null }).where(eq(stageMatches.id, id));
  await count(c, [id]);
}

const at = (hour: number) => new Date(Date.UTC(2026, 0, 10, hour));

async function statsOf(userId: string) {
  const [row] = await api.db
    .select()
    .from(playerGameStats)
    .where(and(eq(playerGameStats.userId, userId), eq(playerGameStats.gameId, gameId)));
  return row;
}
const numbers = (row: Awaited<ReturnType<typeof statsOf>>) =>
  row && {
    rating: row.rating,
    matchesPlayed: row.matchesPlayed,
    matchesWon: row.matchesWon,
    matchesLost: row.matchesLost,
    currentStreak: row.currentStreak,
    totals: row.totals,
  };

async function achievementsOf(owner: { userId?: string; teamId?: string }) {
  const rows = await api.db
    .select({ name: achievements.name })
    .from(earnedAchievements)
    .innerJoin(achievements, eq(achievements.id, earnedAchievements.achievementId))
    .where(owner.userId ? eq(earnedAchievements.userId, owner.userId) : eq(earnedAchievements.teamId, owner.teamId!));
  return rows.map((r) => r.name).sort();
}

async function bell(userId: string) {
  const rows = await api.db.select({ text: notifications.text }).from(notifications).where(eq(notifications.userId, userId));
  return rows.map((r) => r.text).sort();
}

async function nameOf(userId: string) {
  const [row] = await api.db.select({ username: users.username }).from(users).where(eq(users.id, userId));
  return row!.username;
}

/** The history rows of these matches, oldest first, each side as match_participants keeps it. */
async function history(matchIds: string[]) {
  if (matchIds.length === 0) return [];
  const rows = await api.db.select().from(matches).where(inArray(matches.id, matchIds)).orderBy(asc(matches.completedAt));
  const sides = await api.db.select().from(matchParticipants).where(inArray(matchParticipants.matchId, matchIds));
  return rows.map((m) => ({ match: m, sides: sides.filter((s) => s.matchId === m.id) }));
}
const recordsOf = async (c: Cup) => (await api.db.select().from(matches).where(eq(matches.tournamentId, c.id))).map((m) => m.id);

/** Leaderboard entries of the game, by user id. */
async function board(): Promise<Map<string, PlayerEntry>> {
  const res = await api.call<PlayerEntry[]>('GET', `/api/stats/leaderboard/game/${gameId}?limit=100`);
  return new Map(res.body.map((e) => [e.userId!._id, e]));
}

// ------------------------------------------------------------------ an independent replay

type Line = { rating: number; matchesPlayed: number; matchesWon: number; matchesLost: number; currentStreak: number };
/** Replays [winner, loser] pairs with the rating functions only: every side's numbers at the end. */
function replayDuels(results: [string, string][]): Map<string, Line> {
  const lines = new Map<string, Line>();
  const of = (id: string) => lines.get(id) ?? { rating: INITIAL_RATING, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0 };
  for (const [winner, loser] of results) {
    const [w, l] = [of(winner), of(loser)];
    const rated = rateMatch(w, l);
    lines.set(winner, {
      rating: rated.winner,
      matchesPlayed: w.matchesPlayed + 1,
      matchesWon: w.matchesWon + 1,
      matchesLost: w.matchesLost,
      currentStreak: nextStreak(w.currentStreak, true),
    });
    lines.set(loser, {
      rating: rated.loser,
      matchesPlayed: l.matchesPlayed + 1,
      matchesWon: l.matchesWon,
      matchesLost: l.matchesLost + 1,
      currentStreak: nextStreak(l.currentStreak, false),
    });
  }
  return lines;
}

// ------------------------------------------------------------------ the tests

describe('a completed stage match', () => {
  it('counts exactly as the same results recorded through record-match', async () => {
    const [p1, p2, q1, q2] = await accounts(api, 4);
    const stage = await cup([p1!, p2!]);
    const record = await cup([q1!, q2!]);
    const played: [number, number][] = [
      [2, 1],
      [2, 0],
      [1, 2],
    ];
    const stageIds: string[] = [];
    for (const [i, [s1, s2]] of played.entries()) {
      const id = await stageMatch(stage, p1!, p2!);
      stageIds.push(id);
      await result(stage, id, s1, s2, s1 > s2 ? p1! : p2!, at(i + 1));
      await recordedMatch(api, record.id, {
        participant1Type: 'user',
        participant1Id: q1!,
        participant2Type: 'user',
        participant2Id: q2!,
        score1: s1,
        score2: s2,
      });
    }

    // Elo by hand for the first result: 1000 against 1000 moves 16 each way.
    const boardNow = await board();
    expect(boardNow.get(p1!)!.generalStats.matchesPlayed).toBe(3);
    for (const [p, q] of [
      [p1!, q1!],
      [p2!, q2!],
    ] as const) {
      expect(numbers(await statsOf(p))).toEqual(numbers(await statsOf(q)));
      // Win rate, rank title and the rest as the leaderboard shows them.
      expect(boardNow.get(p)!.generalStats).toEqual(boardNow.get(q)!.generalStats);
      expect(await achievementsOf({ userId: p })).toEqual(await achievementsOf({ userId: q }));
      expect(await bell(p)).toEqual(await bell(q));
    }
    expect(await achievementsOf({ userId: p1! })).toEqual(['First Win', 'Hot Streak']);
    expect(await achievementsOf({ userId: p2! })).toEqual(['First Win', 'Tough Luck']);
    expect(numbers(await statsOf(p1!))).toMatchObject({ matchesWon: 2, matchesLost: 1, currentStreak: -1 });

    const [stageHistory, recordHistory] = [await history(await recordsOf(stage)), await history(await recordsOf(record))];
    expect(stageHistory).toHaveLength(3);
    const names = new Map([
      [p1!, await nameOf(p1!)],
      [p2!, await nameOf(p2!)],
      [q1!, await nameOf(q1!)],
      [q2!, await nameOf(q2!)],
    ]);
    // The twin's sides stand for ours: q1 for p1, q2 for p2.
    const twin = new Map([
      [q1!, p1!],
      [q2!, p2!],
    ]);
    const view = (h: Awaited<ReturnType<typeof history>>[number], as: (id: string) => string) => ({
      status: h.match.status,
      isDraw: h.match.isDraw,
      duration: h.match.duration,
      gameId: h.match.gameId,
      gameSpecificData: h.match.gameSpecificData,
      sides: h.sides
        .map((s) => ({
          type: s.participantType,
          who: as(s.userId!),
          nameIsTheirs: s.name === names.get(s.userId!),
          teamId: s.teamId,
          score: s.score,
          isWinner: s.isWinner,
          stats: s.stats,
        }))
        .sort((x, y) => x.who.localeCompare(y.who)),
    });
    expect(stageHistory.map((h) => view(h, (id) => id))).toEqual(recordHistory.map((h) => view(h, (id) => twin.get(id)!)));
    // Each record names its stage match and when it was completed there.
    expect(stageHistory.map((h) => [h.match.stageMatchId, h.match.completedAt?.toISOString()])).toEqual(stageIds.map((id, i) => [id, at(i + 1).toISOString()]));
  });

  it('counts a team match in the team statistics and tells every member', async () => {
    const [c1, c2] = await accounts(api, 2);
    const red = await buildTeam(api, c1!, 2);
    const blue = await buildTeam(api, c2!, 2);
    const stage = await cup([red.id, blue.id], { solo: false });
    const id = await stageMatch(stage, red.id, blue.id);
    await result(stage, id, 13, 7, red.id, at(1));
    const [row] = await api.db
      .select()
      .from(teamGameStats)
      .where(and(eq(teamGameStats.teamId, red.id), eq(teamGameStats.gameId, gameId)));
    expect(row).toMatchObject({ rating: 1016, matchesPlayed: 1, matchesWon: 1, currentStreak: 1 });
    const [h] = await history(await recordsOf(stage));
    expect(h!.sides.map((s) => [s.participantType, s.teamId, s.name, s.score, s.isWinner]).sort()).toEqual(
      [
        ['team', red.id, red.name, 13, true],
        ['team', blue.id, blue.name, 7, false],
      ].sort(),
    );
    expect(await achievementsOf({ teamId: red.id })).toEqual(['First Win']);
    for (const member of red.members) expect(await bell(member)).toEqual([`Нове досягнення: 🥇 First Win (команда ${red.name})`]);
  });

  it('changes nothing when counted again unchanged', async () => {
    const [a, b] = await accounts(api, 2);
    const stage = await cup([a!, b!]);
    const id = await stageMatch(stage, a!, b!);
    await result(stage, id, 2, 0, a!, at(1));
    const before = { records: await recordsOf(stage), a: await statsOf(a!), bell: await bell(a!) };
    await count(stage, [id]);
    expect({ records: await recordsOf(stage), a: await statsOf(a!), bell: await bell(a!) }).toEqual(before);
  });
});

describe('a corrected result', () => {
  it('leaves every competitor, later opponents included, as a clean replay of the corrected sequence', async () => {
    const [a, b, c, d] = await accounts(api, 4);
    const untouched = await api.db.select().from(playerGameStats).where(eq(playerGameStats.gameId, gameId));
    const stage = await cup([a!, b!, c!]);
    const other = await cup([c!, d!]);
    const m1 = await stageMatch(stage, a!, b!);
    const m2 = await stageMatch(stage, b!, c!);
    const m3 = await stageMatch(stage, a!, c!);
    const m4 = await stageMatch(stage, a!, b!);
    await result(stage, m1, 2, 1, a!, at(1));
    await result(stage, m2, 2, 0, b!, at(2));
    await result(stage, m3, 2, 0, a!, at(3));
    await result(stage, m4, 0, 2, b!, at(4));
    // Afterwards (recorded now, later than every stage result): c loses to d in another tournament.
    await recordedMatch(api, other.id, { participant1Type: 'user', participant1Id: c!, participant2Type: 'user', participant2Id: d!, score1: 0, score2: 1 });

    const original = replayDuels([
      [a!, b!],
      [b!, c!],
      [a!, c!],
      [b!, a!],
      [d!, c!],
    ]);
    for (const id of [a!, b!, c!, d!]) expect(numbers(await statsOf(id))).toEqual({ ...original.get(id), totals: {} });
    expect(await achievementsOf({ userId: a! })).toEqual(['First Win', 'Hot Streak']);
    expect(await achievementsOf({ userId: b! })).toEqual(['First Win', 'Hot Streak']);
    const bellsBefore = new Map([[b!, await bell(b!)]]);

    // m1 was b's win, in its place (completed_at unchanged): every later rating moves.
    await result(stage, m1, 1, 2, b!, at(1));
    const corrected = replayDuels([
      [b!, a!],
      [b!, c!],
      [a!, c!],
      [b!, a!],
      [d!, c!],
    ]);
    for (const id of [a!, b!, c!, d!]) expect(numbers(await statsOf(id))).toEqual({ ...corrected.get(id), totals: {} });
    // d never met a or b, but c's rating before their match moved, so d's did too.
    expect(corrected.get(d!)!.rating).not.toBe(original.get(d!)!.rating);
    // The change reaches no one else.
    const now = await api.db
      .select()
      .from(playerGameStats)
      .where(
        inArray(
          playerGameStats.id,
          untouched.map((r) => r.id),
        ),
      );
    expect(now.sort((x, y) => x.id.localeCompare(y.id))).toEqual(untouched.sort((x, y) => x.id.localeCompare(y.id)));

    // a never had two wins in a row now, and lost twice; b won three in a row.
    expect(await achievementsOf({ userId: a! })).toEqual(['First Win', 'Tough Luck']);
    expect(await achievementsOf({ userId: b! })).toEqual(['First Win', 'Hot Streak', 'Unbeaten']);
    expect(await achievementsOf({ userId: c! })).toEqual(['Tough Luck']);
    // Only what is new is told: b hears of Unbeaten once, nothing twice.
    expect(await bell(b!)).toEqual([...bellsBefore.get(b!)!, 'Нове досягнення: 🛡️ Unbeaten'].sort());
    expect((await bell(a!)).filter((t) => t.includes('Tough Luck'))).toHaveLength(1);
    expect((await bell(c!)).filter((t) => t.includes('Tough Luck'))).toHaveLength(1);

    // The history says what the table says: four records, m1 now b's.
    const records = await history(await recordsOf(stage));
    expect(records.map((r) => r.match.stageMatchId)).toEqual([m1, m2, m3, m4]);
    expect(records[0]!.sides.map((s) => [s.userId, s.score, s.isWinner]).sort()).toEqual(
      [
        [a!, 1, false],
        [b!, 2, true],
      ].sort(),
    );

    // A reset takes m4 back: its record goes, and the numbers are the replay without it.
    await reset(stage, m4);
    expect((await history(await recordsOf(stage))).map((r) => r.match.stageMatchId)).toEqual([m1, m2, m3]);
    const withoutM4 = replayDuels([
      [b!, a!],
      [b!, c!],
      [a!, c!],
      [d!, c!],
    ]);
    for (const id of [a!, b!, c!, d!]) expect(numbers(await statsOf(id))).toEqual({ ...withoutM4.get(id), totals: {} });
    expect(await achievementsOf({ userId: a! })).toEqual(['First Win']);
    expect(await achievementsOf({ userId: b! })).toEqual(['First Win', 'Hot Streak']);
  });

  it('recomputes a result that arrives late, before matches already counted', async () => {
    const [a, b, c] = await accounts(api, 3);
    const stage = await cup([a!, b!, c!]);
    const early = await stageMatch(stage, a!, b!);
    const late = await stageMatch(stage, a!, c!);
    await result(stage, late, 2, 0, a!, at(5));
    await result(stage, early, 0, 2, b!, at(1));
    const expected = replayDuels([
      [b!, a!],
      [a!, c!],
    ]);
    for (const id of [a!, b!, c!]) expect(numbers(await statsOf(id))).toEqual({ ...expected.get(id), totals: {} });
  });
});

describe('a recompute from the change on (decision 049)', () => {
  /** Achievements the file's game gives, from a player's results in order (true: a win). */
  function earned(results: boolean[]): string[] {
    const names = new Set<string>();
    let [wins, losses, streak] = [0, 0, 0];
    for (const won of results) {
      [wins, losses, streak] = [wins + (won ? 1 : 0), losses + (won ? 0 : 1), nextStreak(streak, won)];
      if (wins >= 1) names.add('First Win');
      if (streak >= 2) names.add('Hot Streak');
      if (streak >= 3) names.add('Unbeaten');
      if (losses >= 2) names.add('Tough Luck');
    }
    return [...names].sort();
  }

  it('leaves every number, rating after and achievement a whole replay gives, through corrections, resets and late results at random places', async () => {
    // A fixed seed (mulberry32): the same sequence every run.
    let seed = 0x5eed;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const players = await accounts(api, 5);
    const stage = await cup(players);
    // Each stage match: its two players, its hour in the replay order, and its winner while it has a result.
    const played: { id: string; a: string; b: string; hour: number; winner: string | null }[] = [];
    for (let hour = 1; hour <= 14; hour++) {
      const a = pick(players);
      const b = pick(players.filter((p) => p !== a));
      played.push({ id: await stageMatch(stage, a, b), a, b, hour, winner: null });
    }

    async function enter(match: (typeof played)[number], winner: string | null) {
      match.winner = winner;
      if (winner === null) return reset(stage, match.id);
      return result(stage, match.id, winner === match.a ? 2 : 0, winner === match.a ? 0 : 2, winner, at(match.hour));
    }
    async function expectReplayed(step: string) {
      const inOrder = played.filter((m) => m.winner !== null).sort((x, y) => x.hour - y.hour);
      const expected = replayDuels(inOrder.map((m) => [m.winner!, m.winner === m.a ? m.b : m.a]));
      for (const id of players) {
        expect(numbers(await statsOf(id)), step).toEqual(expected.has(id) ? { ...expected.get(id), totals: {} } : undefined);
        const results = inOrder.filter((m) => m.a === id || m.b === id).map((m) => m.winner === id);
        expect(await achievementsOf({ userId: id }), step).toEqual(earned(results));
      }
      // Each record's ratings after it: the independent replay's, one match at a time.
      for (const [index, match] of inOrder.entries()) {
        const after = replayDuels(inOrder.slice(0, index + 1).map((m) => [m.winner!, m.winner === m.a ? m.b : m.a]));
        const [record] = await history((await api.db.select({ id: matches.id }).from(matches).where(eq(matches.stageMatchId, match.id))).map((r) => r.id));
        expect(record!.sides.map((side) => [side.userId, side.ratingAfter]).sort(), step).toEqual(
          [match.a, match.b].map((id) => [id, after.get(id)!.rating]).sort(),
        );
      }
    }

    // Results entered in a shuffled order: every one entered before a later hour's is a late result.
    const order = [...played].sort(() => random() - 0.5);
    for (const match of order.slice(0, 10)) await enter(match, pick([match.a, match.b]));
    await expectReplayed('the first results');
    for (let step = 0; step < 12; step++) {
      const match = pick(played);
      // A correction flips the winner; a reset takes the result back; a match without one gets it (late).
      const winner = match.winner === null ? pick([match.a, match.b]) : random() < 0.25 ? null : match.winner === match.a ? match.b : match.a;
      await enter(match, winner);
      await expectReplayed(`step ${step}: hour ${match.hour} → ${winner ?? 'reset'}`);
    }
  });

  it('reads only the records of those who play after the change; a missing rating among them replays the whole history, which fills it', async () => {
    const [x, y, u, v] = await accounts(api, 4);
    const stage = await cup([x!, y!, u!, v!]);
    const early = await stageMatch(stage, x!, y!);
    const before = await stageMatch(stage, u!, x!);
    const last = await stageMatch(stage, u!, v!);
    await result(stage, early, 2, 0, x!, at(1));
    await result(stage, before, 2, 0, u!, at(2));
    await result(stage, last, 2, 0, u!, at(3));
    const rowsOf = async (stageMatchId: string) =>
      api.db
        .select({ userId: matchParticipants.userId, ratingAfter: matchParticipants.ratingAfter })
        .from(matchParticipants)
        .innerJoin(matches, eq(matches.id, matchParticipants.matchId))
        .where(eq(matches.stageMatchId, stageMatchId));
    const forget = async (stageMatchId: string) => {
      const [record] = await api.db.select({ id: matches.id }).from(matches).where(eq(matches.stageMatchId, stageMatchId));
      await api.db.update(matchParticipants).set({ ratingAfter: null }).where(eq(matchParticipants.matchId, record!.id));
    };

    // y plays nothing after u–v: a correction of u–v does not read y's record, so its missing rating stays missing.
    await forget(early);
    await result(stage, last, 0, 2, v!, at(3));
    expect((await rowsOf(early)).map((r) => r.ratingAfter)).toEqual([null, null]);
    const corrected = replayDuels([
      [x!, y!],
      [u!, x!],
      [v!, u!],
    ]);
    for (const id of [u!, v!, x!, y!]) expect(numbers(await statsOf(id))).toEqual({ ...corrected.get(id), totals: {} });

    // u's own earlier record has none: the whole history is replayed, and every missing rating filled.
    await forget(before);
    await result(stage, last, 2, 0, u!, at(3));
    const again = replayDuels([
      [x!, y!],
      [u!, x!],
      [u!, v!],
    ]);
    for (const id of [u!, v!, x!, y!]) expect(numbers(await statsOf(id))).toEqual({ ...again.get(id), totals: {} });
    for (const [stageMatchId, after] of [
      [early, replayDuels([[x!, y!]])],
      [
        before,
        replayDuels([
          [x!, y!],
          [u!, x!],
        ]),
      ],
    ] as const) {
      for (const row of await rowsOf(stageMatchId)) expect(row.ratingAfter).toBe(after.get(row.userId!)!.rating);
    }
  });
});

describe('a reset result', () => {
  it('removes the history and reverses the numbers and the achievement', async () => {
    const [e, f] = await accounts(api, 2);
    const stage = await cup([e!, f!]);
    const id = await stageMatch(stage, e!, f!);
    await result(stage, id, 2, 1, e!, at(1));
    expect(numbers(await statsOf(e!))).toMatchObject({ rating: 1016, matchesPlayed: 1 });
    const told = await bell(e!);
    await reset(stage, id);
    expect(await recordsOf(stage)).toEqual([]);
    // No match left: as if never recorded, no leaderboard row.
    expect(await statsOf(e!)).toBeUndefined();
    expect(await statsOf(f!)).toBeUndefined();
    expect(await achievementsOf({ userId: e! })).toEqual([]);
    expect(await bell(e!)).toEqual(told);
  });
});

describe('a draw', () => {
  it('is played by both, won and lost by neither, resets the streak and rates ½ each', async () => {
    const [e, f] = await accounts(api, 2);
    const stage = await cup([e!, f!]);
    const first = await stageMatch(stage, e!, f!);
    const drawn = await stageMatch(stage, e!, f!);
    await result(stage, first, 2, 1, e!, at(1));
    await result(stage, drawn, 1, 1, null, at(2));
    // 1016 against 984: E = 1 / (1 + 10^−0.08) = 0.545922, 32 · 0.045922 = 1.4695 each way.
    expect(numbers(await statsOf(e!))).toEqual({ rating: 1014.53, matchesPlayed: 2, matchesWon: 1, matchesLost: 0, currentStreak: 0, totals: {} });
    expect(numbers(await statsOf(f!))).toEqual({ rating: 985.47, matchesPlayed: 2, matchesWon: 0, matchesLost: 1, currentStreak: 0, totals: {} });
    const entries = await board();
    expect(entries.get(e!)!.generalStats.winRate).toBe(50);
    const [, h] = await history(await recordsOf(stage));
    expect(h!.match.isDraw).toBe(true);
    expect(h!.sides.map((s) => [s.score, s.isWinner])).toEqual([
      [1, false],
      [1, false],
    ]);
  });
});

describe('what counts nothing', () => {
  it('a tournament without statistics', async () => {
    const [e, f] = await accounts(api, 2);
    const stage = await cup([e!, f!], { stats: false });
    const id = await stageMatch(stage, e!, f!);
    await result(stage, id, 2, 1, e!, at(1));
    expect(await api.db.select().from(matches).where(eq(matches.stageMatchId, id))).toEqual([]);
    expect(await statsOf(e!)).toBeUndefined();
    expect(await statsOf(f!)).toBeUndefined();
  });

  it('a bye', async () => {
    const [e] = await accounts(api, 1);
    const stage = await cup([e!]);
    const id = await stageMatch(stage, e!, null);
    await result(stage, id, 0, 0, e!, at(1));
    expect(
      await api.db
        .select()
        .from(matches)
        .where(isNotNull(matches.stageMatchId))
        .then((rows) => rows.filter((r) => r.stageMatchId === id)),
    ).toEqual([]);
    expect(await statsOf(e!)).toBeUndefined();
  });
});
