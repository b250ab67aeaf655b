import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { addTotals } from '../../../lib/domain/match-result.ts';
import { participantTypeOf, type ParticipantType } from '../../../lib/domain/participant.ts';
import { INITIAL_RATING, rateDraw } from '../../../lib/domain/rating.ts';
import type { Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import {
  earnedAchievements,
  matches,
  matchParticipants,
  playerGameStats,
  type stageMatches,
  teamGameStats,
  teams,
  type tournaments,
} from '../../db/schema/index.ts';
import { getStatsConfig } from '../competition/game-management.ts';
import { actorsOf } from '../match-day/match-actions.ts';
import { notifyAll } from '../notices/notifications.ts';
import {
  achievementNotices,
  compiledAchievements,
  conditionValues,
  earningTeamMembers,
  lockStats,
  matchDetails,
  participantRow,
  standingsAfter,
  statsKey,
  storeEarned,
  standingsWrites,
  type Competitor,
  type StandingNumbers,
} from './tournament-stats.ts';

/*
 * Stage results in the statistics (issue 21, decisions 004 and 013): a completed stage match
 * counts exactly as `record-match` would count it, and a corrected or reset one is taken back.
 *
 * The invariant kept: a game's player and team statistics equal a replay of every recorded match
 * of that game (status completed) in (completed_at, created_at, id) order, from 1000 and nothing.
 * Matches that share no side commute, so this order only has to agree with the order in which
 * each competitor's own matches were applied, which record-match's "lock, then now()" gives.
 *
 * Recompute. Elo cannot be run backwards (ratings are rounded, and nothing stores a rating before
 * each match), and a competitor's numbers at any point depend on every earlier opponent's, so the
 * state "just before the changed match" exists only by replaying from the start. The recompute
 * therefore locks every statistics row of the game (teams, then users, each by id: the order
 * record-match locks in, so neither deadlocks the other), reads the game's whole history in the
 * order above with one query, and replays it in memory. It then writes only the competitors the
 * change can reach: the sides of the withdrawn and new records, plus, walking forward from the
 * earliest of those records, everyone who met one of them afterwards (their opponent's rating
 * differed). Everyone else's replayed numbers are the same before and after the change, so their
 * rows are left alone — which also keeps a leaderboard row an admin deleted deleted, unless the
 * change reaches it. Two runs on the same rows give the same result: the replay is pure and the
 * order total. Cost: one read of the game's history and two locking reads per recompute, which
 * only corrections, resets and late results pay.
 */

type Standing = StandingNumbers;
type StatsConfig = NonNullable<Awaited<ReturnType<typeof getStatsConfig>>>;
type Compiled = ReturnType<typeof compiledAchievements>;

/** `user:<id>` or `team:<id>`; a side whose player or team was deleted is `gone:<participant row id>`. */
const keyOf = (type: ParticipantType, id: string) => statsKey({ type, id });
const competitorOf = (key: string): Competitor | null => {
  const [type, id] = key.split(':') as [string, string];
  return type === 'user' || type === 'team' ? { type, id } : null;
};

/** One recorded match as the replay reads it. */
interface Played {
  id: string;
  /** completed_at (created_at when missing), created_at, id: the replay order. */
  at: Date;
  createdAt: Date;
  sides: [string, string];
  /** The winning side's index; null for a draw. */
  winner: 0 | 1 | null;
  stats: [Record<string, number>, Record<string, number>];
  /** Its two `match_participants` rows, in side order, and the rating after the match each holds (null: not written yet). */
  rows: [{ id: string; ratingAfter: number | null }, { id: string; ratingAfter: number | null }];
}

/** The replay order: (completed_at, created_at, id), as PostgreSQL sorts them (uuids compare as their lower-case text). */
const byReplayOrder = (a: Pick<Played, 'at' | 'createdAt' | 'id'>, b: Pick<Played, 'at' | 'createdAt' | 'id'>) =>
  a.at.getTime() - b.at.getTime() || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const START: Standing = { rating: INITIAL_RATING, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0, totals: {} };

/**
 * Both sides' numbers after a result: a win as `standingsAfter` counts it, a draw as decision 004
 * ("Draws") does — one more match, neither won nor lost, Elo with ½ each, the streak back to 0.
 */
export function standingsAfterResult(
  before: readonly [Standing, Standing],
  winner: 0 | 1 | null,
  stats: readonly [Record<string, number>, Record<string, number>],
): [Standing, Standing] {
  if (winner !== null) return standingsAfter(before, winner, stats);
  const rated = rateDraw(before[0], before[1]);
  const next = (index: 0 | 1): Standing => ({
    rating: index === 0 ? rated.a : rated.b,
    matchesPlayed: before[index].matchesPlayed + 1,
    matchesWon: before[index].matchesWon,
    matchesLost: before[index].matchesLost,
    currentStreak: 0,
    totals: addTotals(before[index].totals, stats[index]),
  });
  return [next(0), next(1)];
}

/**
 * Plays `records` in order from `start` (everyone else from 1000): every side's numbers at the
 * end, for each side the achievements whose condition held after at least one of its matches, and
 * for each record both sides' ratings right after it (`match_participants.rating_after`).
 */
function replay(start: ReadonlyMap<string, Standing>, records: readonly Played[], compiled: Compiled, fieldNames: readonly string[]) {
  const standings = new Map(start);
  const reached = new Map<string, Set<string>>();
  const ratings = new Map<string, [number, number]>();
  for (const record of records) {
    const before = record.sides.map((key) => standings.get(key) ?? START) as [Standing, Standing];
    const after = standingsAfterResult(before, record.winner, record.stats);
    ratings.set(record.id, [after[0].rating, after[1].rating]);
    record.sides.forEach((key, index) => {
      standings.set(key, after[index]!);
      if (compiled.length === 0) return;
      const values = conditionValues(after[index]!, fieldNames);
      for (const { achievement, evaluate } of compiled) {
        if (!evaluate(values)) continue;
        const held = reached.get(key) ?? new Set<string>();
        held.add(achievement._id);
        reached.set(key, held);
      }
    });
  }
  return { standings, reached, ratings };
}

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

/** What a stage match should be in the statistics, or null when it counts nothing. */
interface Wanted {
  stageMatchId: string;
  sides: [Competitor & { name: string }, Competitor & { name: string }];
  scores: [number, number];
  winner: 0 | 1 | null;
  completedAt: Date;
}

/** The record a stage match had, with its sides. */
interface OldRecord {
  id: string;
  stageMatchId: string;
  gameId: string;
  isDraw: boolean;
  at: Date;
  createdAt: Date;
  sides: { key: string; score: number; isWinner: boolean }[];
}

/** True when the record stored for a stage match already says what the stage match says: it stays. */
function sameRecord(old: OldRecord, wanted: Wanted, gameId: string): boolean {
  if (old.gameId !== gameId || old.isDraw !== (wanted.winner === null) || old.at.getTime() !== wanted.completedAt.getTime()) return false;
  if (old.sides.length !== 2) return false;
  return wanted.sides.every((side, index) => {
    const stored = old.sides.find((s) => s.key === keyOf(side.type, side.id));
    return stored !== undefined && stored.score === wanted.scores[index] && stored.isWinner === (wanted.winner === index);
  });
}

/** What counting needs of the tournament: the caller's row, locked (`lockTournament`), so it is current. */
export type CountedTournament = Pick<typeof tournaments.$inferSelect, 'id' | 'gameId' | 'statsEnabled' | 'soloOnly'>;

/** A stage match's row as the stage service writes it. */
export type StageMatchRow = typeof stageMatches.$inferSelect;

/**
 * Makes the statistics agree with these stage matches of the tournament, right after the stage
 * service wrote them, inside its transaction: each one's previous record (`matches.stage_match_id`)
 * is withdrawn, and a completed match with both participants present (a bye counts nothing) is
 * recorded again as record-match records — history rows, numbers, achievements and their
 * notifications. A result still recorded as it stands is left alone, so a repeated call changes
 * nothing. Nothing happens unless the tournament has statistics on and its game a configuration.
 * `rows` are the matches as the caller wrote them: they are not read again.
 */
export async function countStageResults(tx: Tx, tournament: CountedTournament, rows: readonly StageMatchRow[]): Promise<void> {
  if (rows.length === 0 || !tournament.statsEnabled) return;
  const tournamentId = tournament.id;
  const config = await getStatsConfig(tx, tournament.gameId);
  if (!config) return;
  const gameId = tournament.gameId;
  const type = participantTypeOf(tournament.soloOnly);

  // Who the played matches name: a participant that no longer exists cannot be recorded (the history keeps ids).
  // A forfeit was not played: like a bye, it counts in the tournament, not in the ratings.
  const played = rows.filter((r) => r.status === 'completed' && r.participantA !== null && r.participantB !== null && r.forfeit === null);
  const ids = [...new Set(played.flatMap((r) => [r.participantA!, r.participantB!]))];
  // As the stage service read them for this transaction already (`actorsOf` keeps them).
  const names = new Map([...(await actorsOf(tx, type === 'user', ids))].map(([id, actor]) => [id, actor.name] as const));
  const now = new Date();
  const wanted = new Map<string, Wanted>();
  for (const row of played) {
    const [a, b] = [row.participantA!, row.participantB!];
    if (row.winner !== null && row.winner !== a && row.winner !== b) {
      throw new Error(`stage match ${row.id}: the winner ${row.winner} is neither of its participants`);
    }
    if (!names.has(a) || !names.has(b)) continue;
    wanted.set(row.id, {
      stageMatchId: row.id,
      sides: [
        { type, id: a, name: names.get(a)! },
        { type, id: b, name: names.get(b)! },
      ],
      scores: [row.scoreA ?? 0, row.scoreB ?? 0],
      winner: row.winner === null ? null : row.winner === a ? 0 : 1,
      completedAt: row.completedAt ?? now,
    });
  }

  const rowIds = rows.map((r) => r.id);
  const old = await storedRecords(tx, rowIds);
  const keep = new Set(old.filter((o) => wanted.has(o.stageMatchId) && sameRecord(o, wanted.get(o.stageMatchId)!, gameId)).map((o) => o.stageMatchId));
  const withdrawn = old.filter((o) => !keep.has(o.stageMatchId));
  const writing = [...wanted.values()].filter((w) => !keep.has(w.stageMatchId));
  if (withdrawn.length > 0) {
    const withdrawnIds = withdrawn.map((o) => o.id);
    await tx.delete(matches).where(inArray(matches.id, withdrawnIds));
  }

  // The new records with their ids made here, so they can be stored in one statement with the
  // numbers they change (`applyLatest`) instead of waiting for returned ids.
  const records = writing.map((w) => ({ w, id: randomUUID(), rowIds: [randomUUID(), randomUUID()] as const }));
  const added: Played[] = records
    .map(({ w, id, rowIds }) => ({
      id,
      at: w.completedAt,
      createdAt: now,
      sides: [keyOf(w.sides[0].type, w.sides[0].id), keyOf(w.sides[1].type, w.sides[1].id)] as [string, string],
      winner: w.winner,
      stats: [{}, {}] as Played['stats'],
      rows: [
        { id: rowIds[0], ratingAfter: null },
        { id: rowIds[1], ratingAfter: null },
      ] as Played['rows'],
    }))
    .sort(byReplayOrder);
  /** The statements that store the new records and their sides, with each side's rating after the match when known. */
  const store = (ratings?: ReadonlyMap<string, [number, number]>): SQLWrapper[] =>
    records.length === 0
      ? []
      : [
          tx.insert(matches).values(
            records.map(({ w, id }) => ({
              id,
              tournamentId,
              gameId,
              status: 'completed' as const,
              isDraw: w.winner === null,
              gameSpecificData: matchDetails(config.statsFields, w.sides, []),
              completedAt: w.completedAt,
              createdAt: now,
              stageMatchId: w.stageMatchId,
            })),
          ),
          tx.insert(matchParticipants).values(
            records.flatMap(({ w, id, rowIds }) =>
              w.sides.map((side, index) => ({
                ...participantRow(id, side, {
                  score: w.scores[index]!,
                  isWinner: w.winner === index,
                  stats: {},
                  ratingAfter: ratings?.get(id)?.[index] ?? null,
                }),
                id: rowIds[index],
              })),
            ),
          ),
        ];

  // A record withdrawn from another game (the tournament's game was changed since) is settled there.
  const games = new Set(withdrawn.map((o) => o.gameId));
  if (added.length > 0) games.add(gameId);
  for (const game of [...games].sort()) {
    const changed = withdrawn.filter((o) => o.gameId === game);
    const fresh = game === gameId ? added : [];
    if (game === gameId && changed.length === 0 && (await applyLatest(tx, game, fresh, config, tournamentId, store))) continue;
    // The replay reads the game's whole history, the new records in it.
    if (game === gameId) await together(tx, store());
    await recompute(tx, game, changed, fresh, game === gameId ? config : await getStatsConfig(tx, game), tournamentId);
  }
}

/** The records stored for these stage matches, with their sides. */
async function storedRecords(tx: Tx, stageMatchIds: readonly string[]): Promise<OldRecord[]> {
  const rows = await tx
    .select({
      id: matches.id,
      stageMatchId: matches.stageMatchId,
      gameId: matches.gameId,
      isDraw: matches.isDraw,
      completedAt: matches.completedAt,
      createdAt: matches.createdAt,
      participant: matchParticipants,
    })
    .from(matches)
    .leftJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(inArray(matches.stageMatchId, [...stageMatchIds]));
  const records = new Map<string, OldRecord>();
  for (const row of rows) {
    const record = records.get(row.id) ?? {
      id: row.id,
      stageMatchId: row.stageMatchId!,
      gameId: row.gameId,
      isDraw: row.isDraw,
      at: row.completedAt ?? row.createdAt,
      createdAt: row.createdAt,
      sides: [],
    };
    records.set(row.id, record);
    if (row.participant) record.sides.push({ key: sideKey(row.participant), score: row.participant.score, isWinner: row.participant.isWinner });
  }
  return [...records.values()];
}

const sideKey = (p: { id: string; participantType: ParticipantType; userId: string | null; teamId: string | null }) => {
  const id = p.participantType === 'user' ? p.userId : p.teamId;
  return id ? keyOf(p.participantType, id) : `gone:${p.id}`;
};

/**
 * The fast path: new records that come after everything their sides played are applied to the
 * stored numbers as record-match applies one, in replay order, with the sides locked as it locks
 * them, and stored (`store`) with the numbers. False (nothing written, the records not stored)
 * when one of the sides has a later record: the caller stores them and recomputes.
 */
async function applyLatest(
  tx: Tx,
  gameId: string,
  added: readonly Played[],
  config: StatsConfig,
  tournamentId: string,
  store: (ratings: ReadonlyMap<string, [number, number]>) => SQLWrapper[],
): Promise<boolean> {
  if (added.length === 0) return true;
  const keys = [...new Set(added.flatMap((p) => p.sides))].sort((a, b) => a.localeCompare(b));
  const rowsByKey = await lockStats(
    tx,
    keys.map((key) => competitorOf(key)!),
    gameId,
  );
  // Checked under the locks, so a record-match on these sides cannot slip in between.
  const first = added[0]!;
  const userIds = keys.flatMap((k) => (competitorOf(k)!.type === 'user' ? [competitorOf(k)!.id] : []));
  const teamIds = keys.flatMap((k) => (competitorOf(k)!.type === 'team' ? [competitorOf(k)!.id] : []));
  const [later] = await tx
    .select({ id: matches.id })
    .from(matches)
    .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(
      and(
        eq(matches.gameId, gameId),
        eq(matches.status, 'completed'),
        or(
          userIds.length > 0 ? inArray(matchParticipants.userId, userIds) : sql`false`,
          teamIds.length > 0 ? inArray(matchParticipants.teamId, teamIds) : sql`false`,
        ),
        sql`(${replayAt}, ${matches.createdAt}, ${matches.id}) > (${first.at.toISOString()}::timestamptz, ${first.createdAt.toISOString()}::timestamptz, ${first.id}::uuid)`,
      ),
    )
    .limit(1);
  if (later) return false;

  const compiled = compiledAchievements(config);
  const { standings, reached, ratings } = replay(rowsByKey, added, compiled, fieldNamesOf(config));
  // The records, their sides' ratings after them and the sides' numbers: one statement.
  await together(tx, [
    ...store(ratings),
    ...standingsWrites(
      keys.map((key) => ({ type: competitorOf(key)!.type, rowId: rowsByKey.get(key)!.id, numbers: numbersOf(standings.get(key)!) })),
      new Date(),
    ),
  ]);
  await settleAchievements(tx, compiled, keys, reached, false, tournamentId);
  return true;
}

/** The first key of the replay order in SQL. */
const replayAt: SQL = sql`coalesce(${matches.completedAt}, ${matches.createdAt})`;
const fieldNamesOf = (config: Pick<StatsConfig, 'statsFields'>) => config.statsFields.map((f) => f.fieldName);
const numbersOf = (s: Standing): Standing => ({
  rating: s.rating,
  matchesPlayed: s.matchesPlayed,
  matchesWon: s.matchesWon,
  matchesLost: s.matchesLost,
  currentStreak: s.currentStreak,
  totals: s.totals,
});

/** A game's whole recorded history in replay order (one query), as the replay reads it. */
async function gameHistory(tx: Tx, gameId: string): Promise<Played[]> {
  const rows = await tx
    .select({ id: matches.id, isDraw: matches.isDraw, at: replayAt.mapWith(matches.createdAt), createdAt: matches.createdAt, participant: matchParticipants })
    .from(matches)
    .innerJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(and(eq(matches.gameId, gameId), eq(matches.status, 'completed')))
    .orderBy(replayAt, asc(matches.createdAt), asc(matches.id), asc(matchParticipants.id));
  const history: Played[] = [];
  for (let i = 0; i < rows.length;) {
    let end = i;
    while (end < rows.length && rows[end]!.id === rows[i]!.id) end++;
    const sides = rows.slice(i, end).map((r) => r.participant);
    const row = rows[i]!;
    i = end;
    // record-match writes two sides and one winner; anything else is not a result to replay.
    if (sides.length !== 2) continue;
    const winners = sides.flatMap((s, index) => (s.isWinner ? [index as 0 | 1] : []));
    if (row.isDraw ? winners.length !== 0 : winners.length !== 1) continue;
    history.push({
      id: row.id,
      at: row.at,
      createdAt: row.createdAt,
      sides: [sideKey(sides[0]!), sideKey(sides[1]!)],
      winner: winners[0] ?? null,
      stats: [sides[0]!.stats, sides[1]!.stats],
      rows: [
        { id: sides[0]!.id, ratingAfter: sides[0]!.ratingAfter },
        { id: sides[1]!.id, ratingAfter: sides[1]!.ratingAfter },
      ],
    });
  }
  return history;
}

/**
 * Replays the game's whole history and rewrites the competitors the change reaches (see the top
 * of this file). A competitor reached but left with no match loses its row, as if never recorded.
 */
async function recompute(tx: Tx, gameId: string, withdrawn: readonly OldRecord[], added: readonly Played[], config: StatsConfig | null, tournamentId: string) {
  // Every row of the game, teams then users, each by id: record-match's order ('team:…' < 'user:…').
  await tx.select({ id: teamGameStats.id }).from(teamGameStats).where(eq(teamGameStats.gameId, gameId)).orderBy(asc(teamGameStats.teamId)).for('update');
  await tx
    .select({ id: playerGameStats.id })
    .from(playerGameStats)
    .where(eq(playerGameStats.gameId, gameId))
    .orderBy(asc(playerGameStats.userId))
    .for('update');

  const history = await gameHistory(tx, gameId);

  const compiled = config ? compiledAchievements(config) : [];
  const { standings, reached, ratings } = replay(new Map(), history, compiled, config ? fieldNamesOf(config) : []);

  // Who the change reaches: the changed records' sides, then whoever met one of them from the earliest change on.
  const changes = [...withdrawn.map((o) => ({ id: o.id, at: o.at, createdAt: o.createdAt, sides: o.sides.map((s) => s.key) })), ...added];
  const reachedKeys = new Set(changes.flatMap((c) => c.sides));
  const from = changes.reduce((earliest, c) => (byReplayOrder(c, earliest) < 0 ? c : earliest), changes[0]!);
  for (const record of history) {
    if (byReplayOrder(record, from) < 0) continue;
    if (record.sides.some((key) => reachedKeys.has(key))) record.sides.forEach((key) => reachedKeys.add(key));
  }
  const competitors = [...reachedKeys].filter((key) => competitorOf(key) !== null).sort((a, b) => a.localeCompare(b));

  // Each history row's rating after its match, where the change reached it (from the earliest
  // change on, a reached side) or where none was written yet (rows older than the column: the
  // replay fills them, so a game's chart is complete after its first recompute). Rows the change
  // did not reach keep theirs, as their competitors' numbers are kept.
  await writeRatingsAfter(
    tx,
    history.flatMap((record) => {
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
 * Gives each competitor the game's achievements its replay reached and it does not hold, telling
 * the player or every member of the team once (only a newly stored row tells); with `takeBack`,
 * also removes the ones it holds whose condition held at no point of the replay. Achievements
 * whose condition does not compile are neither given nor taken.
 */
async function settleAchievements(
  tx: Tx,
  compiled: Compiled,
  keys: readonly string[],
  reached: ReadonlyMap<string, ReadonlySet<string>>,
  takeBack: boolean,
  tournamentId: string,
) {
  if (compiled.length === 0 || keys.length === 0) return;
  const sides = keys.map((key) => ({ key, ...competitorOf(key)! }));
  const userIds = sides.filter((s) => s.type === 'user').map((s) => s.id);
  const teamIds = sides.filter((s) => s.type === 'team').map((s) => s.id);
  const achievementIds = compiled.map((c) => c.achievement._id);
  // Only a take-back needs what is held; new ones are told apart by `storeEarned`, whose insert
  // skips what a side holds already.
  const held = !takeBack
    ? []
    : await tx
        .select({
          id: earnedAchievements.id,
          achievementId: earnedAchievements.achievementId,
          userId: earnedAchievements.userId,
          teamId: earnedAchievements.teamId,
        })
        .from(earnedAchievements)
        .where(
          and(
            inArray(earnedAchievements.achievementId, achievementIds),
            or(
              userIds.length > 0 ? inArray(earnedAchievements.userId, userIds) : sql`false`,
              teamIds.length > 0 ? inArray(earnedAchievements.teamId, teamIds) : sql`false`,
            ),
          ),
        );
  const holderKey = (h: { userId: string | null; teamId: string | null }) => (h.userId ? keyOf('user', h.userId) : keyOf('team', h.teamId!));
  const holds = new Set(held.map((h) => `${holderKey(h)}|${h.achievementId}`));

  if (takeBack) {
    const lost = held.filter((h) => !reached.get(holderKey(h))?.has(h.achievementId)).map((h) => h.id);
    if (lost.length > 0) await tx.delete(earnedAchievements).where(inArray(earnedAchievements.id, lost));
  }

  const candidates = sides.flatMap((side) =>
    compiled
      .filter(({ achievement }) => reached.get(side.key)?.has(achievement._id) && !holds.has(`${side.key}|${achievement._id}`))
      .map(({ achievement }) => ({ side, achievement })),
  );
  const won = await storeEarned(tx, candidates);
  if (won.length === 0) return;

  // The notices name a team; its members hear of it.
  const members = await earningTeamMembers(tx, won);
  const earningTeams = [...new Set(members.map((m) => m.teamId))];
  const teamNames =
    earningTeams.length > 0
      ? new Map((await tx.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, earningTeams))).map((t) => [t.id, t.name]))
      : new Map<string, string>();
  await notifyAll(
    tx,
    achievementNotices(
      won.map(({ side, achievement }) => ({
        side: { type: side.type, id: side.id, name: teamNames.get(side.id) ?? '' },
        achievement,
      })),
      members,
      tournamentId,
    ),
  );
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
