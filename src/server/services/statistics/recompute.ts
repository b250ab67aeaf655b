import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { ParticipantType } from '../../../lib/domain/participant.ts';
import type { Tx } from '../../db/client.ts';
import { matches, matchParticipants, playerGameStats, teamGameStats } from '../../db/schema/index.ts';
import type { getStatsConfig } from '../competition/game-management.ts';
import { byReplayOrder, competitorOf, keyOf, replay, standingsFromRecords, type Played, type Standing } from './replay.ts';
import { settleAchievements } from './settle-achievements.ts';
import { compiledAchievements } from './tournament-stats.ts';

/*
 * A game's statistics made to agree with its recorded history again after results were withdrawn
 * or recorded out of order (decisions 013 and 049). The invariant kept: a game's player and team
 * statistics equal a replay of every recorded match of that game (status completed) in
 * (completed_at, created_at, id) order, from 1000 and nothing. Matches that share no side commute,
 * so this order only has to agree with the order in which each competitor's own matches were
 * applied, which record-match's "lock, then now()" gives.
 *
 * Only what comes from the earliest change on is played again. Everything before it is as the
 * replay that wrote it left it, and each history row keeps its side's rating right after it
 * (`match_participants.rating_after`), so the numbers of everyone playing after the change, as
 * they stood just before it, follow from their own earlier records: counts, streak and totals by
 * walking them, the rating from the last one (`standingsFromRecords`). Where one of those ratings is
 * missing (a row from before the column), the game's whole history is replayed instead, which
 * also fills every missing one.
 *
 * Locks every statistics row of the game first (teams, then users, each by id: the order
 * record-match locks in, so neither deadlocks the other), so no result of the game is counted
 * meanwhile. It then writes only the competitors the change can reach: the sides of the changed
 * records, plus, walking forward from the earliest of them, everyone who met one of them
 * afterwards (their opponent's rating differed). Everyone else's numbers are the same before and
 * after the change, so their rows are left alone — which also keeps a leaderboard row an admin
 * deleted deleted, unless the change reaches it. Two runs on the same rows give the same result:
 * the replay is pure and the order total.
 */

export type StatsConfig = NonNullable<Awaited<ReturnType<typeof getStatsConfig>>>;

/** A record taken back or added: where it stands in the replay order and whose it is. */
export type Change = Pick<Played, 'id' | 'at' | 'createdAt' | 'sides'>;

/** The first key of the replay order in SQL. */
export const replayAt: SQL = sql`coalesce(${matches.completedAt}, ${matches.createdAt})`;

/** The records of the replay order from `change` on (`>=`) or before it (`<`), in SQL. */
export const fromChange = (op: '>=' | '<' | '>', change: Pick<Played, 'at' | 'createdAt' | 'id'>): SQL =>
  sql`(${replayAt}, ${matches.createdAt}, ${matches.id}) ${sql.raw(op)} (${change.at.toISOString()}::timestamptz, ${change.createdAt.toISOString()}::timestamptz, ${change.id}::uuid)`;

export const fieldNamesOf = (config: Pick<StatsConfig, 'statsFields'>) => config.statsFields.map((f) => f.fieldName);

/** The numbers a statistics row keeps, out of a standing. */
export const numbersOf = (s: Standing): Standing => ({
  rating: s.rating,
  matchesPlayed: s.matchesPlayed,
  matchesWon: s.matchesWon,
  matchesLost: s.matchesLost,
  currentStreak: s.currentStreak,
  totals: s.totals,
});

/** A history row's side as the replay knows it; a side whose player or team was deleted is `gone:<row id>`. */
export const sideKey = (p: { id: string; participantType: ParticipantType; userId: string | null; teamId: string | null }) => {
  const id = p.participantType === 'user' ? p.userId : p.teamId;
  return id ? keyOf(p.participantType, id) : `gone:${p.id}`;
};

/** A rating as `real` keeps it differs from the replay's by rounding only; a change is anything more. */
const sameRating = (stored: number | null, replayed: number) => stored !== null && Math.abs(stored - replayed) < 0.005;

/**
 * Writes each row's rating after its match in one statement whatever their number: the rows go as
 * one JSON parameter (a replay may rewrite a game's whole history).
 */
async function writeRatingsAfter(tx: Tx, rows: readonly { id: string; rating: number }[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(
    sql`update ${matchParticipants} set rating_after = v.rating from json_to_recordset(${JSON.stringify(rows)}::json) as v(id uuid, rating real) where ${matchParticipants.id} = v.id`,
  );
}

/** The game's recorded history in replay order (one query), as the replay reads it: all of it, or the records `where` keeps. */
async function gameHistory(tx: Tx, gameId: string, where?: SQL): Promise<Played[]> {
  const rows = await tx
    .select({ id: matches.id, isDraw: matches.isDraw, at: replayAt.mapWith(matches.createdAt), createdAt: matches.createdAt, participant: matchParticipants })
    .from(matches)
    .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(and(eq(matches.gameId, gameId), eq(matches.status, 'completed'), where))
    .orderBy(replayAt, asc(matches.createdAt), asc(matches.id), asc(matchParticipants.id));
  const history: Played[] = [];
  for (let i = 0; i < rows.length;) {
    let end = i;
    while (end < rows.length && rows[end]!.id === rows[i]!.id) end++;
    const sides = rows.slice(i, end).map((r) => r.participant);
    const row = rows[i]!;
    i = end;
    const base = {
      id: row.id,
      at: row.at,
      createdAt: row.createdAt,
      sides: sides.map(sideKey),
      stats: sides.map((side) => side.stats),
      rows: sides.map((side) => ({ id: side.id, ratingAfter: side.ratingAfter })),
    };
    // A lobby's record places every side; record-match writes two sides and one winner; anything else is not a result to replay.
    if (sides.length >= 2 && sides.every((side) => side.placement !== null)) {
      history.push({ ...base, winner: null, placements: sides.map((side) => side.placement!) });
      continue;
    }
    if (sides.length !== 2) continue;
    const winners = sides.flatMap((s, index) => (s.isWinner ? [index] : []));
    if (row.isDraw ? winners.length !== 0 : winners.length !== 1) continue;
    history.push({ ...base, winner: winners[0] ?? null, placements: null });
  }
  return history;
}

/**
 * Past this many competitors after a change, the whole history is replayed instead: each is a bound
 * parameter of the query for their earlier records (PostgreSQL takes 65 535), and by then those
 * records are most of the history anyway.
 */
const INVOLVED_MAX = 5000;

/** The records of the game before `from` that one of these competitors played, whole (every side), in replay order. */
function recordsBefore(tx: Tx, gameId: string, from: Change, competitors: readonly string[]): Promise<Played[]> {
  const idsOf = (type: ParticipantType) => competitors.flatMap((key) => (competitorOf(key)!.type === type ? [competitorOf(key)!.id] : []));
  const [userIds, teamIds] = [idsOf('user'), idsOf('team')];
  const played = tx
    .select({ id: matchParticipants.matchId })
    .from(matchParticipants)
    .where(
      or(
        userIds.length > 0 ? inArray(matchParticipants.userId, userIds) : sql`false`,
        teamIds.length > 0 ? inArray(matchParticipants.teamId, teamIds) : sql`false`,
      ),
    );
  return gameHistory(tx, gameId, and(inArray(matches.id, played), fromChange('<', from)));
}

/**
 * The game's records from `from` on, and everyone's numbers just before them: from the records of
 * the competitors involved (theirs in those records and in `changes`) before `from`, or, when
 * those lack a rating, from a replay of the whole history (then `records` is all of it).
 */
async function replayFrom(tx: Tx, gameId: string, from: Change, changes: readonly Change[], config: StatsConfig | null) {
  const compiled = config ? compiledAchievements(config) : [];
  const fieldNames = config ? fieldNamesOf(config) : [];
  const after = await gameHistory(tx, gameId, fromChange('>=', from));
  const involved = new Set([...after, ...changes].flatMap((record) => record.sides).filter((key) => competitorOf(key) !== null));
  const before =
    involved.size > INVOLVED_MAX ? null : standingsFromRecords(await recordsBefore(tx, gameId, from, [...involved]), involved, compiled, fieldNames);
  if (!before) {
    const records = await gameHistory(tx, gameId);
    return { records, compiled, ...replay(new Map(), records, compiled, fieldNames) };
  }
  const played = replay(before.standings, after, compiled, fieldNames);
  // An achievement reached before the change stays reached: what was played then did not change.
  for (const [key, held] of before.reached) played.reached.set(key, new Set([...held, ...(played.reached.get(key) ?? [])]));
  return { records: after, compiled, ...played };
}

/**
 * Replays the game from the earliest of `changes` on (records taken back and records added, the
 * latter already stored) and rewrites the competitors the change reaches (see the top of this
 * file). A competitor reached but left with no match loses its row, as if never recorded.
 */
export async function recompute(tx: Tx, gameId: string, changes: readonly Change[], config: StatsConfig | null, tournamentId: string) {
  if (changes.length === 0) return;
  // Every row of the game, teams then users, each by id: record-match's order ('team:…' < 'user:…').
  await tx.select({ id: teamGameStats.id }).from(teamGameStats).where(eq(teamGameStats.gameId, gameId)).orderBy(asc(teamGameStats.teamId)).for('update');
  await tx
    .select({ id: playerGameStats.id })
    .from(playerGameStats)
    .where(eq(playerGameStats.gameId, gameId))
    .orderBy(asc(playerGameStats.userId))
    .for('update');

  const from = changes.reduce((earliest, c) => (byReplayOrder(c, earliest) < 0 ? c : earliest), changes[0]!);
  const { records, compiled, standings, reached, ratings } = await replayFrom(tx, gameId, from, changes, config);

  // Who the change reaches: the changed records' sides, then whoever met one of them from the earliest change on.
  const reachedKeys = new Set(changes.flatMap((c) => c.sides));
  for (const record of records) {
    if (byReplayOrder(record, from) < 0) continue;
    if (record.sides.some((key) => reachedKeys.has(key))) record.sides.forEach((key) => reachedKeys.add(key));
  }
  const competitors = [...reachedKeys].filter((key) => competitorOf(key) !== null).sort((a, b) => a.localeCompare(b));

  // Each replayed row's rating after its match, where the change reached it (from the earliest
  // change on, a reached side) or where none was written yet (after a whole replay: rows older
  // than the column, so a game's chart is complete after it). Rows the change did not reach keep
  // theirs, as their competitors' numbers are kept.
  await writeRatingsAfter(
    tx,
    records.flatMap((record) => {
      const changed = byReplayOrder(record, from) >= 0 && record.sides.some((key) => reachedKeys.has(key));
      const replayed = ratings.get(record.id)!;
      return record.rows.flatMap((row, index) =>
        (changed || row.ratingAfter === null) && !sameRating(row.ratingAfter, replayed[index]!) ? [{ id: row.id, rating: replayed[index]! }] : [],
      );
    }),
  );

  const now = new Date();
  for (const type of ['user', 'team'] as const) {
    const ofType = competitors.filter((key) => competitorOf(key)!.type === type);
    const upserts = ofType.filter((key) => standings.has(key));
    const gone = ofType.filter((key) => !standings.has(key)).map((key) => competitorOf(key)!.id);
    const table = type === 'user' ? playerGameStats : teamGameStats;
    const owner = type === 'user' ? playerGameStats.userId : teamGameStats.teamId;
    if (gone.length > 0) await tx.delete(table).where(and(eq(table.gameId, gameId), inArray(owner, gone)));
    if (upserts.length === 0) continue;
    const values = upserts.map((key) => ({ ...numbersOf(standings.get(key)!), gameId, updatedAt: now }));
    const set = {
      rating: sql`excluded.rating`,
      matchesPlayed: sql`excluded.matches_played`,
      matchesWon: sql`excluded.matches_won`,
      matchesLost: sql`excluded.matches_lost`,
      currentStreak: sql`excluded.current_streak`,
      totals: sql`excluded.totals`,
      updatedAt: sql`excluded.updated_at`,
    };
    if (type === 'user') {
      await tx
        .insert(playerGameStats)
        .values(values.map((v, index) => ({ ...v, userId: competitorOf(upserts[index]!)!.id })))
        .onConflictDoUpdate({ target: [playerGameStats.userId, playerGameStats.gameId], set });
    } else {
      await tx
        .insert(teamGameStats)
        .values(values.map((v, index) => ({ ...v, teamId: competitorOf(upserts[index]!)!.id })))
        .onConflictDoUpdate({ target: [teamGameStats.teamId, teamGameStats.gameId], set });
    }
  }
  await settleAchievements(tx, compiled, competitors, reached, true, tournamentId);
}

/**
 * Fills `match_participants.rating_after` where it is missing (rows recorded before migration
 * 0009), game by game, from a replay of the game's history: the ratings the invariant at the top
 * of this file says the recorded matches gave. Only empty rows are written, so a second run, or a
 * run after the games' recomputes filled them, writes nothing; a database without such rows costs
 * one query. Run at start, under the database's exclusive lock, like the other backfills.
 */
export async function backfillRatingsAfter(db: Tx): Promise<number> {
  const missing = await db
    .selectDistinct({ gameId: matches.gameId })
    .from(matches)
    .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(and(eq(matches.status, 'completed'), isNull(matchParticipants.ratingAfter)));
  let filled = 0;
  for (const { gameId } of missing) {
    await db.transaction(async (tx) => {
      const history = await gameHistory(tx, gameId);
      const { ratings } = replay(new Map(), history, [], []);
      const rows = history.flatMap((record) =>
        record.rows.flatMap((row, index) => (row.ratingAfter === null ? [{ id: row.id, rating: ratings.get(record.id)![index]! }] : [])),
      );
      await writeRatingsAfter(tx, rows);
      filled += rows.length;
    });
  }
  return filled;
}
