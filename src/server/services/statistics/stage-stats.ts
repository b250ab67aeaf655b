import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { participantTypeOf, type ParticipantType } from '../../../lib/domain/participant.ts';
import type { LobbyRow } from '../../../lib/domain/stage/free-for-all.ts';
import type { Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { matches, matchParticipants, playerGameStats, type stageMatches, teamGameStats, type tournaments } from '../../db/schema/index.ts';
import { getStatsConfig } from '../competition/game-management.ts';
import { actorsOf } from '../match-day/match-actions.ts';
import { byReplayOrder, competitorOf, keyOf, replay, type Played, type Standing } from './replay.ts';
import { settleAchievements } from './settle-achievements.ts';
import { compiledAchievements, lockStats, matchDetails, participantRow, standingsWrites, type Competitor } from './tournament-stats.ts';

/*
 * Stage results in the statistics (issue 21, decisions 004, 013 and 039): a completed stage match
 * counts exactly as `record-match` would count it, a finished free-for-all lobby as one record by
 * placement (`replay.ts`), and a corrected or reset one is taken back.
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

type StatsConfig = NonNullable<Awaited<ReturnType<typeof getStatsConfig>>>;

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

/** What a stage match or a free-for-all lobby should be in the statistics. */
interface Wanted {
  /** The stage match's or the lobby's id: the record's link to it. */
  source: string;
  sides: (Competitor & { name: string })[];
  scores: number[];
  /** A match's winning side; null for a draw or a lobby. */
  winner: number | null;
  /** A lobby's placements by side; null for a match. */
  placements: number[] | null;
  completedAt: Date;
}

/** Which column links a record to what it counts. */
type Link = 'stageMatchId' | 'lobbyId';

/** The record a stage match or a lobby had, with its sides. */
interface OldRecord {
  id: string;
  source: string;
  gameId: string;
  isDraw: boolean;
  at: Date;
  createdAt: Date;
  sides: { key: string; score: number; isWinner: boolean; placement: number | null }[];
}

const isWinnerIn = (wanted: Wanted, index: number) => (wanted.placements ? wanted.placements[index] === 1 : wanted.winner === index);

/** True when the record stored already says what the stage match or lobby says: it stays. */
function sameRecord(old: OldRecord, wanted: Wanted, gameId: string): boolean {
  const isDraw = wanted.placements === null && wanted.winner === null;
  if (old.gameId !== gameId || old.isDraw !== isDraw || old.at.getTime() !== wanted.completedAt.getTime()) return false;
  if (old.sides.length !== wanted.sides.length) return false;
  return wanted.sides.every((side, index) => {
    const stored = old.sides.find((s) => s.key === keyOf(side.type, side.id));
    return (
      stored !== undefined &&
      stored.score === wanted.scores[index] &&
      stored.isWinner === isWinnerIn(wanted, index) &&
      stored.placement === (wanted.placements?.[index] ?? null)
    );
  });
}

/** What counting needs of the tournament: the caller's row, locked (`lockTournament`), so it is current. */
export type CountedTournament = Pick<typeof tournaments.$inferSelect, 'id' | 'gameId' | 'statsEnabled' | 'soloOnly'>;

/** A stage match's row as the stage service writes it. */
export type StageMatchRow = typeof stageMatches.$inferSelect;

/** The names of these participants of the tournament (a participant that no longer exists has none, and cannot be recorded). */
async function namesOf(tx: Tx, tournament: CountedTournament, ids: readonly string[]): Promise<Map<string, string>> {
  // As the stage service read them for this transaction already (`actorsOf` keeps them).
  return new Map([...(await actorsOf(tx, tournament.soloOnly, ids))].map(([id, actor]) => [id, actor.name] as const));
}

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
  const config = await getStatsConfig(tx, tournament.gameId);
  if (!config) return;
  const type = participantTypeOf(tournament.soloOnly);

  // A forfeit was not played: like a bye, it counts in the tournament, not in the ratings.
  const played = rows.filter((r) => r.status === 'completed' && r.participantA !== null && r.participantB !== null && r.forfeit === null);
  const names = await namesOf(tx, tournament, [...new Set(played.flatMap((r) => [r.participantA!, r.participantB!]))]);
  const now = new Date();
  const wanted = new Map<string, Wanted>();
  for (const row of played) {
    const [a, b] = [row.participantA!, row.participantB!];
    if (row.winner !== null && row.winner !== a && row.winner !== b) {
      throw new Error(`stage match ${row.id}: the winner ${row.winner} is neither of its participants`);
    }
    if (!names.has(a) || !names.has(b)) continue;
    wanted.set(row.id, {
      source: row.id,
      sides: [
        { type, id: a, name: names.get(a)! },
        { type, id: b, name: names.get(b)! },
      ],
      scores: [row.scoreA ?? 0, row.scoreB ?? 0],
      winner: row.winner === null ? null : row.winner === a ? 0 : 1,
      placements: null,
      completedAt: row.completedAt ?? now,
    });
  }
  await settle(
    tx,
    tournament,
    config,
    'stageMatchId',
    rows.map((r) => r.id),
    wanted,
  );
}

/** A free-for-all lobby as its service wrote it: complete (`completedAt`) when it played all its games. */
export interface CountedLobby {
  id: string;
  completedAt: Date | null;
  /** Its table over its confirmed games, in rank order. */
  table: readonly LobbyRow[];
}

/**
 * Makes the statistics agree with these free-for-all lobbies (decision 039), as `countStageResults`
 * does with matches: a complete lobby's final table is one record, a side a member with its place
 * (`match_participants.placement`) and points, rated by `rateLobby`; a lobby corrected, reopened or
 * withdrawn has its record taken back first. A member who played no game of it is not in it.
 */
export async function countLobbyResults(tx: Tx, tournament: CountedTournament, lobbies: readonly CountedLobby[]): Promise<void> {
  if (lobbies.length === 0 || !tournament.statsEnabled) return;
  const config = await getStatsConfig(tx, tournament.gameId);
  if (!config) return;
  const type = participantTypeOf(tournament.soloOnly);
  const complete = lobbies.filter((l) => l.completedAt !== null);
  const names = await namesOf(tx, tournament, [...new Set(complete.flatMap((l) => l.table.map((row) => row.participant)))]);
  const wanted = new Map<string, Wanted>();
  for (const lobby of complete) {
    const rows = lobby.table.filter((row) => row.played > 0 && names.has(row.participant));
    if (rows.length < 2) continue;
    wanted.set(lobby.id, {
      source: lobby.id,
      sides: rows.map((row) => ({ type, id: row.participant, name: names.get(row.participant)! })),
      scores: rows.map((row) => row.points),
      winner: null,
      placements: rows.map((row) => row.rank),
      completedAt: lobby.completedAt!,
    });
  }
  await settle(
    tx,
    tournament,
    config,
    'lobbyId',
    lobbies.map((l) => l.id),
    wanted,
  );
}

/**
 * Withdraws the records of `sources` that no longer say what `wanted` says and stores the new ones,
 * then settles the numbers: applied on top when they come after everything their sides played,
 * else by a replay of the game's history.
 */
async function settle(tx: Tx, tournament: CountedTournament, config: StatsConfig, link: Link, sources: readonly string[], wanted: ReadonlyMap<string, Wanted>) {
  const { id: tournamentId, gameId } = tournament;
  const now = new Date();
  const old = await storedRecords(tx, link, sources);
  const keep = new Set(old.filter((o) => wanted.has(o.source) && sameRecord(o, wanted.get(o.source)!, gameId)).map((o) => o.source));
  const withdrawn = old.filter((o) => !keep.has(o.source));
  const writing = [...wanted.values()].filter((w) => !keep.has(w.source));
  if (withdrawn.length > 0) {
    const withdrawnIds = withdrawn.map((o) => o.id);
    await tx.delete(matches).where(inArray(matches.id, withdrawnIds));
  }

  // The new records with their ids made here, so they can be stored in one statement with the
  // numbers they change (`applyLatest`) instead of waiting for returned ids.
  const records = writing.map((w) => ({ w, id: randomUUID(), rowIds: w.sides.map(() => randomUUID()) }));
  const added: Played[] = records
    .map(({ w, id, rowIds }) => ({
      id,
      at: w.completedAt,
      createdAt: now,
      sides: w.sides.map((side) => keyOf(side.type, side.id)),
      winner: w.winner,
      placements: w.placements,
      stats: w.sides.map(() => ({})),
      rows: rowIds.map((rowId) => ({ id: rowId, ratingAfter: null })),
    }))
    .sort(byReplayOrder);
  /** The statements that store the new records and their sides, with each side's rating after the result when known. */
  const store = (ratings?: ReadonlyMap<string, number[]>): SQLWrapper[] =>
    records.length === 0
      ? []
      : [
          tx.insert(matches).values(
            records.map(({ w, id }) => ({
              id,
              tournamentId,
              gameId,
              status: 'completed' as const,
              isDraw: w.placements === null && w.winner === null,
              gameSpecificData: matchDetails(config.statsFields, w.sides, []),
              completedAt: w.completedAt,
              createdAt: now,
              [link]: w.source,
            })),
          ),
          tx.insert(matchParticipants).values(
            records.flatMap(({ w, id, rowIds }) =>
              w.sides.map((side, index) => ({
                ...participantRow(id, side, {
                  score: w.scores[index]!,
                  isWinner: isWinnerIn(w, index),
                  stats: {},
                  ratingAfter: ratings?.get(id)?.[index] ?? null,
                }),
                placement: w.placements?.[index] ?? null,
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

/** The records stored for these stage matches or lobbies, with their sides. */
async function storedRecords(tx: Tx, link: Link, sources: readonly string[]): Promise<OldRecord[]> {
  const column = link === 'stageMatchId' ? matches.stageMatchId : matches.lobbyId;
  const rows = await tx
    .select({
      id: matches.id,
      source: column,
      gameId: matches.gameId,
      isDraw: matches.isDraw,
      completedAt: matches.completedAt,
      createdAt: matches.createdAt,
      participant: matchParticipants,
    })
    .from(matches)
    .leftJoin(matchParticipants, eq(matchParticipants.matchId, matches.id))
    .where(inArray(column, [...sources]));
  const records = new Map<string, OldRecord>();
  for (const row of rows) {
    const record = records.get(row.id) ?? {
      id: row.id,
      source: row.source!,
      gameId: row.gameId,
      isDraw: row.isDraw,
      at: row.completedAt ?? row.createdAt,
      createdAt: row.createdAt,
      sides: [],
    };
    records.set(row.id, record);
    if (row.participant) {
      const { score, isWinner, placement } = row.participant;
      record.sides.push({ key: sideKey(row.participant), score, isWinner, placement });
    }
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
  store: (ratings: ReadonlyMap<string, number[]>) => SQLWrapper[],
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
