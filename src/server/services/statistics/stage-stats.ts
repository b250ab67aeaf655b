import { randomUUID } from 'node:crypto';
import { and, eq, inArray, or, sql, type SQLWrapper } from 'drizzle-orm';
import { participantTypeOf } from '../../../lib/domain/participant.ts';
import type { LobbyRow } from '../../../lib/domain/stage/free-for-all.ts';
import type { Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { matches, matchParticipants, type stageMatches, type tournaments } from '../../db/schema/index.ts';
import { getStatsConfig } from '../competition/game-management.ts';
import { actorsOf } from '../match-day/match-actions.ts';
import { fieldNamesOf, fromChange, numbersOf, recompute, sideKey, type StatsConfig } from './recompute.ts';
import { byReplayOrder, competitorOf, keyOf, replay, type Played } from './replay.ts';
import { settleAchievements } from './settle-achievements.ts';
import { compiledAchievements, lockStats, matchDetails, participantRow, standingsWrites, type Competitor } from './tournament-stats.ts';

/*
 * Stage results in the statistics (issue 21, decisions 004, 013 and 039): a completed stage match
 * counts exactly as `record-match` would count it, a finished free-for-all lobby as one record by
 * placement (`replay.ts`), and a corrected or reset one is taken back. A result that comes after
 * everything its sides played is applied on top of their numbers; anything else (a correction, a
 * reset, a late result) is settled by `recompute.ts`, which keeps the invariant stated there.
 */

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
    // The replay reads the new records from the game's history.
    if (game === gameId) await together(tx, store());
    const changes = [...changed.map((o) => ({ id: o.id, at: o.at, createdAt: o.createdAt, sides: o.sides.map((s) => s.key) })), ...fresh];
    await recompute(tx, game, changes, game === gameId ? config : await getStatsConfig(tx, game), tournamentId);
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
        fromChange('>', first),
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
