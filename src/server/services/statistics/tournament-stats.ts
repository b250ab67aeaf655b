import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Page } from '../../../lib/api/paging.ts';
import type { MatchRecorded, RecordForm, RecordMatchInput, TournamentStats } from '../../../lib/api/tournament-stats.ts';
import { compileCondition } from '../../../lib/domain/achievements.ts';
import { addTotals, isNumericField, statProblem, winnerSide } from '../../../lib/domain/match-result.ts';
import { rankOf, rankTitleKey } from '../../../lib/domain/rank.ts';
import { nextStreak, rateMatch, winRate } from '../../../lib/domain/rating.ts';
import type { ParticipantType } from '../../../lib/domain/participant.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import { t, translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { together } from '../../db/together.ts';
import {
  earnedAchievements,
  games,
  gameStatsConfigs,
  matches,
  matchParticipants,
  playerGameStats,
  teamGameStats,
  teamMembers,
  tournaments,
} from '../../db/schema/index.ts';
import { getStatsConfig } from '../competition/game-management.ts';
import { notifyAll, type NewNotification } from '../notices/notifications.ts';
import { matchSide, matchSides, type MatchSides } from '../match-day/participants.ts';
import { getTournament, listTournaments } from '../competition/tournaments.ts';
import { publishing } from '../live/live.ts';

type StatsRow = typeof playerGameStats.$inferSelect | typeof teamGameStats.$inferSelect;
type StatsConfig = NonNullable<Awaited<ReturnType<typeof getStatsConfig>>>;

/** Ids of the games that have a statistics configuration. */
async function configuredGames(db: Tx, gameIds?: readonly string[]): Promise<Set<string>> {
  if (gameIds && gameIds.length === 0) return new Set();
  const rows = await db
    .select({ gameId: gameStatsConfigs.gameId })
    .from(gameStatsConfigs)
    .where(gameIds ? inArray(gameStatsConfigs.gameId, [...gameIds]) : undefined);
  return new Set(rows.map((r) => r.gameId));
}

/** A page of tournaments, newest first, with their statistics switch and whether their game is configured (the admin panel). */
export async function listTournamentStats(db: Tx, page: { limit: number; offset: number }): Promise<Page<TournamentStats>> {
  const { items, more } = await listTournaments(db, page);
  const ids = items.map((tournament) => tournament._id);
  const flags =
    ids.length === 0
      ? []
      : await db
          .select({ id: tournaments.id })
          .from(tournaments)
          .where(and(inArray(tournaments.id, ids), eq(tournaments.statsEnabled, true)));
  const enabled = new Set(flags.map((f) => f.id));
  const configured = await configuredGames(db, [...new Set(items.map((tournament) => tournament.game))]);
  return {
    items: items.map((tournament) => ({ ...tournament, statsEnabled: enabled.has(tournament._id), gameHasStats: configured.has(tournament.game) })),
    more,
  };
}

/** One tournament as the statistics panel shows it, or undefined. */
export async function getTournamentStats(db: Tx, id: string): Promise<TournamentStats | undefined> {
  const tournament = await getTournament(db, id);
  if (!tournament) return undefined;
  const [row] = await db.select({ statsEnabled: tournaments.statsEnabled }).from(tournaments).where(eq(tournaments.id, id));
  const configured = await configuredGames(db, [tournament.game]);
  return { ...tournament, statsEnabled: Boolean(row?.statsEnabled), gameHasStats: configured.has(tournament.game) };
}

/** What the record-match modal needs: the tournament, the game's numeric stat fields and the participants as match sides. */
export async function recordForm(db: Tx, id: string): Promise<RecordForm | undefined> {
  const tournament = await getTournamentStats(db, id);
  if (!tournament) return undefined;
  const config = await getStatsConfig(db, tournament.game);
  // The config's fields as they are, without `key` (the record form's field has none).
  const statsFields = (config?.statsFields ?? []).filter(isNumericField).map(({ key: _key, ...field }) => field);
  return { tournament, statsFields, participants: await matchSides(db, id) };
}

export type EnableStats = { ok: true; already: boolean; tournament: TournamentStats } | { ok: false; reason: 'notFound' | 'needsConfig' };

/** Turns statistics on for a tournament whose game has a configuration; a second call changes nothing. */
export async function enableStats(db: Tx, id: string): Promise<EnableStats> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
    if (!row) return { ok: false, reason: 'notFound' } as const;
    if (!(await getStatsConfig(tx, row.gameId))) return { ok: false, reason: 'needsConfig' } as const;
    if (!row.statsEnabled) await tx.update(tournaments).set({ statsEnabled: true, updatedAt: new Date() }).where(eq(tournaments.id, id));
    return { ok: true, already: row.statsEnabled, tournament: (await getTournamentStats(tx, id))! } as const;
  });
}

export type RecordRefusal =
  | { reason: 'notFound' | 'finished' | 'notEnabled' | 'needsConfig' | 'sameParticipant' | 'scoreEqual' }
  | { reason: 'notParticipant'; name: string }
  | { reason: 'winnerMismatch'; name: string }
  | { reason: 'unknownStat' | 'percent'; field: string };
export type RecordResult = { ok: true; recorded: MatchRecorded } | ({ ok: false } & RecordRefusal);

interface ResolvedSide {
  type: ParticipantType;
  id: string;
  name: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A side named by id, or by an id or a name in `participantN`: one of the tournament's match sides (`matchSides`). */
function resolveSide(allowed: MatchSides, type: ParticipantType, id: string | undefined, given: string | undefined): ResolvedSide | null {
  const candidates =
    type === 'user' ? allowed.users.map((u) => ({ id: u._id, name: u.username })) : allowed.teams.map((team) => ({ id: team._id, name: team.name }));
  const found = id
    ? candidates.find((c) => c.id === id)
    : given && UUID.test(given)
      ? candidates.find((c) => c.id === given.toLowerCase())
      : candidates.find((c) => c.name.toLowerCase() === given?.toLowerCase());
  return found ? { type, ...found } : null;
}

/**
 * `resolveSide` for a recording: a side named by id is looked up alone (`matchSide`), as the form
 * and the API's callers name them; one named by name is found in the whole roster (`roster`), as
 * names compare as JavaScript lowercases them. Only an id as the database writes it can match.
 */
async function recordedSide(
  tx: Tx,
  tournamentId: string,
  type: ParticipantType,
  id: string | undefined,
  given: string | undefined,
  roster: () => Promise<MatchSides>,
): Promise<ResolvedSide | null> {
  const byId = id || (given && UUID.test(given) ? given.toLowerCase() : undefined);
  if (byId === undefined) return resolveSide(await roster(), type, id, given);
  if (!UUID.test(byId) || byId !== byId.toLowerCase()) return null;
  const found = await matchSide(tx, tournamentId, type, byId);
  return found && { type, ...found };
}

/** A side of a result: a player or a team, by id. */
export interface Competitor {
  type: ParticipantType;
  id: string;
}

/** A side's statistics row in `lockStats`'s answer: `team:<id>` or `user:<id>`. */
export const statsKey = (side: Competitor) => `${side.type}:${side.id}`;

/**
 * Creates the sides' statistics rows for the game where missing and locks them for this
 * transaction, in one statement per kind of side: an upsert that sets nothing new locks the row it
 * finds, as an update would, and returns it as it stands. Every result sends this once (two sides:
 * one statement). The rows are locked teams first, then users, each by id, the order every
 * recording and recompute takes them in (PostgreSQL takes a multi-row upsert's rows in the order
 * of its values), so two of them cannot deadlock. Rows by `statsKey`.
 */
export async function lockStats(tx: Tx, sides: readonly Competitor[], gameId: string): Promise<Map<string, StatsRow>> {
  const idsOf = (type: ParticipantType) => [...new Set(sides.filter((side) => side.type === type).map((side) => side.id))].sort();
  const rows = new Map<string, StatsRow>();
  const teamIds = idsOf('team');
  if (teamIds.length > 0) {
    const locked = await tx
      .insert(teamGameStats)
      .values(teamIds.map((teamId) => ({ teamId, gameId })))
      .onConflictDoUpdate({ target: [teamGameStats.teamId, teamGameStats.gameId], set: { gameId } })
      .returning();
    for (const row of locked) rows.set(statsKey({ type: 'team', id: row.teamId }), row);
  }
  const userIds = idsOf('user');
  if (userIds.length > 0) {
    const locked = await tx
      .insert(playerGameStats)
      .values(userIds.map((userId) => ({ userId, gameId })))
      .onConflictDoUpdate({ target: [playerGameStats.userId, playerGameStats.gameId], set: { gameId } })
      .returning();
    for (const row of locked) rows.set(statsKey({ type: 'user', id: row.userId }), row);
  }
  return rows;
}

/**
 * The statements that write new numbers into statistics rows `lockStats` locked, by their row ids,
 * one per kind of side: the rows go as one JSON parameter. For `together` with the other writes of
 * the result (db/together.ts).
 */
export function standingsWrites(written: readonly { type: ParticipantType; rowId: string; numbers: StandingNumbers }[], now: Date): SQL[] {
  return (['team', 'user'] as const).flatMap((type) => {
    const rows = written
      .filter((w) => w.type === type)
      .map(({ rowId, numbers }) => ({
        id: rowId,
        rating: numbers.rating,
        matches_played: numbers.matchesPlayed,
        matches_won: numbers.matchesWon,
        matches_lost: numbers.matchesLost,
        current_streak: numbers.currentStreak,
        totals: numbers.totals,
      }));
    if (rows.length === 0) return [];
    const table = type === 'user' ? playerGameStats : teamGameStats;
    return [
      sql`update ${table} set
      ${sql.identifier(table.rating.name)} = v.rating, ${sql.identifier(table.matchesPlayed.name)} = v.matches_played,
      ${sql.identifier(table.matchesWon.name)} = v.matches_won, ${sql.identifier(table.matchesLost.name)} = v.matches_lost,
      ${sql.identifier(table.currentStreak.name)} = v.current_streak, ${sql.identifier(table.totals.name)} = v.totals,
      ${sql.identifier(table.updatedAt.name)} = ${now.toISOString()}::timestamptz
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as v(id uuid, rating real, matches_played integer, matches_won integer, matches_lost integer, current_streak integer, totals jsonb)
      where ${table.id} = v.id`,
    ];
  });
}

/** The numbers a side's statistics row keeps for a game (SPEC §3 Player/Team game stats). */
export type StandingNumbers = Pick<StatsRow, 'rating' | 'matchesPlayed' | 'matchesWon' | 'matchesLost' | 'currentStreak' | 'totals'>;

/**
 * Both sides' numbers after a match the side `winnerIndex` won (decision 004): one more match,
 * a win or a loss, the streak, the Elo rating and the running totals of their stats. Pure: the
 * recording below and the demo seed both use it.
 */
export function standingsAfter(
  before: readonly [StandingNumbers, StandingNumbers],
  winnerIndex: 0 | 1,
  stats: readonly [Record<string, number>, Record<string, number>],
): [StandingNumbers, StandingNumbers] {
  const rated = rateMatch(before[winnerIndex], before[winnerIndex === 0 ? 1 : 0]);
  const next = (index: 0 | 1): StandingNumbers => {
    const row = before[index];
    const won = index === winnerIndex;
    return {
      rating: won ? rated.winner : rated.loser,
      matchesPlayed: row.matchesPlayed + 1,
      matchesWon: row.matchesWon + (won ? 1 : 0),
      matchesLost: row.matchesLost + (won ? 0 : 1),
      currentStreak: nextStreak(row.currentStreak, won),
      totals: addTotals(row.totals, stats[index]),
    };
  };
  return [next(0), next(1)];
}

/**
 * One side of a recorded match as `match_participants` keeps it: a player or a team, its score and
 * numbers, and its rating in the game right after the match (the profile's chart, issue 23), when
 * the writer knows it already; the stage results fill it after their replay (`stage-stats.ts`).
 */
export function participantRow(
  matchId: string,
  side: { type: ParticipantType; id: string; name: string },
  result: { score: number; isWinner: boolean; stats: Record<string, number>; ratingAfter?: number | null },
): typeof matchParticipants.$inferInsert {
  return {
    matchId,
    participantType: side.type,
    userId: side.type === 'user' ? side.id : null,
    teamId: side.type === 'team' ? side.id : null,
    name: side.name,
    ...result,
  };
}

/** A match's `gameSpecificData`: every side's numbers keyed «Показник · учасник», as the match history shows them. */
export function matchDetails(
  fields: readonly { fieldName: string; displayName: string }[],
  sides: readonly { name: string }[],
  stats: readonly Record<string, number>[],
): Record<string, number> {
  const fieldLabel = new Map(fields.map((f) => [f.fieldName, f.displayName]));
  const details: Record<string, number> = {};
  sides.forEach((side, index) => {
    for (const [name, value] of Object.entries(stats[index] ?? {})) details[`${fieldLabel.get(name) ?? name} · ${side.name}`] = value;
  });
  return details;
}

/** The values an achievement condition reads for one side: its totals and the aggregates. */
export function conditionValues(row: StandingNumbers, fieldNames: readonly string[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const name of fieldNames) values[name] = row.totals[name] ?? 0;
  return {
    ...values,
    matchesPlayed: row.matchesPlayed,
    wins: row.matchesWon,
    losses: row.matchesLost,
    winRate: winRate(row.matchesWon, row.matchesPlayed),
    currentStreak: row.currentStreak,
    rating: row.rating,
  };
}

/** The game's achievements whose condition compiles, compiled once per request. */
export function compiledAchievements(config: Pick<StatsConfig, 'statsFields' | 'gameAchievements'>) {
  const fieldNames = config.statsFields.map((f) => f.fieldName);
  return config.gameAchievements.flatMap((achievement) => {
    const compiled = compileCondition(achievement.condition, fieldNames);
    if (!compiled.ok) {
      console.warn(`[stats] умову досягнення «${achievement.name}» не вдалося розібрати: ${compiled.error}`);
      return [];
    }
    return [{ achievement, evaluate: compiled.evaluate }];
  });
}

/** The tournament a match is recorded in, locked for the recording, with its game's name: prepared (db/prepared.ts). */
const tournamentToRecord = prepared((db) =>
  db
    .select({ tournament: tournaments, gameName: games.name })
    .from(tournaments)
    .leftJoin(games, eq(games.id, tournaments.gameId))
    .where(eq(tournaments.id, sql.placeholder('tournamentId')))
    .for('update', { of: tournaments })
    .prepare('tournament_to_record'),
);

/**
 * Records one match of a tournament with statistics (SPEC §5 Record match), in one transaction:
 * the match and both sides' history, both sides' game statistics (matches, wins, losses, streak,
 * Elo rating, totals of the stat fields), and the achievements the result earns, each announced
 * to the player or to every member of the team.
 */
async function recordStatsMatch(db: Tx, tournamentId: string, input: RecordMatchInput): Promise<RecordResult> {
  return db.transaction(async (tx): Promise<RecordResult> => {
    const [locked] = await tournamentToRecord(tx).execute({ tournamentId });
    if (!locked) return { ok: false, reason: 'notFound' };
    const { tournament, gameName } = locked;
    if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
    if (!tournament.statsEnabled) return { ok: false, reason: 'notEnabled' };
    const config = await getStatsConfig(tx, tournament.gameId);
    if (!config) return { ok: false, reason: 'needsConfig' };

    let roster: Promise<MatchSides> | undefined;
    const sides: ResolvedSide[] = [];
    for (const n of [1, 2] as const) {
      const type = input[`participant${n}Type`]!;
      const side = await recordedSide(
        tx,
        tournamentId,
        type,
        input[`participant${n}Id`],
        input[`participant${n}`],
        () => (roster ??= matchSides(tx, tournamentId)),
      );
      if (!side) return { ok: false, reason: 'notParticipant', name: input[`participant${n}Id`] ?? input[`participant${n}`] ?? '' };
      sides.push(side);
    }
    const [first, second] = sides as [ResolvedSide, ResolvedSide];
    if (first.type === second.type && first.id === second.id) return { ok: false, reason: 'sameParticipant' };

    const scores = [input.score1, input.score2] as const;
    // The input schema refuses equal scores already; a caller that skipped it is refused, not given side 1.
    const winning = winnerSide(input.score1, input.score2);
    if (winning === null) return { ok: false, reason: 'scoreEqual' };
    const winner = sides[winning - 1]!;
    if (input.winner && input.winner !== winner.id && input.winner.toLowerCase() !== winner.name.toLowerCase()) {
      return { ok: false, reason: 'winnerMismatch', name: winner.name };
    }
    const stats = [input.gameSpecificStats?.participant1 ?? {}, input.gameSpecificStats?.participant2 ?? {}] as const;
    for (const sideStats of stats) {
      const problem = statProblem(sideStats, config.statsFields);
      if (problem) return { ok: false, reason: problem.kind === 'unknown' ? 'unknownStat' : 'percent', field: problem.field };
    }

    const statsRows = await lockStats(tx, sides, tournament.gameId);
    const before = [statsRows.get(statsKey(first))!, statsRows.get(statsKey(second))!] as const;

    const winnerIndex = (winning - 1) as 0 | 1;
    const now = new Date();
    const standings = standingsAfter(before, winnerIndex, stats);
    const after: StatsRow[] = before.map((row, index) => ({ ...row, ...standings[index]!, updatedAt: now }));

    // The numbers, the match and its sides in one statement: the ids are made here, so nothing waits for a returned one.
    const match = { id: randomUUID(), duration: input.duration ?? null, gameSpecificData: matchDetails(config.statsFields, sides, stats) };
    await together(tx, [
      ...standingsWrites(
        sides.map((side, index) => ({ type: side.type, rowId: before[index]!.id, numbers: standings[index]! })),
        now,
      ),
      tx.insert(matches).values({
        ...match,
        tournamentId,
        gameId: tournament.gameId,
        status: 'completed',
        isDraw: false,
        completedAt: now,
        createdAt: now,
      }),
      tx
        .insert(matchParticipants)
        .values(
          sides.map((side, index) =>
            participantRow(match.id, side, { score: scores[index]!, isWinner: index === winnerIndex, stats: stats[index]!, ratingAfter: after[index]!.rating }),
          ),
        ),
    ]);

    const earned = await awardAchievements(tx, config, sides, after, tournamentId);

    return {
      ok: true,
      recorded: {
        message: t('stats.recorded'),
        match: {
          _id: match.id,
          participants: sides.map((side, index) => ({
            id: side.id,
            type: side.type,
            name: side.name,
            score: scores[index]!,
            isWinner: index === winnerIndex,
            placement: null,
          })),
          result: { isDraw: false },
          gameId: { _id: tournament.gameId, name: gameName ?? '' },
          tournamentId: { _id: tournamentId, title: tournament.title },
          completedAt: now.toISOString(),
          createdAt: now.toISOString(),
          matchDetails: { duration: match.duration, gameSpecificData: match.gameSpecificData },
          status: 'completed',
        },
        participants: [0, 1].map((index) => {
          const side = sides[index]!;
          const row = after[index]!;
          return {
            type: side.type,
            id: side.id,
            name: side.name,
            score: scores[index]!,
            isWinner: index === winnerIndex,
            rating: row.rating,
            ratingChange: Math.round((row.rating - before[index]!.rating) * 100) / 100,
            rankTitle: t(rankTitleKey(rankOf(row.rating))),
            currentStreak: row.currentStreak,
          };
        }) as MatchRecorded['participants'],
        achievements: earned,
      },
    };
  });
}

/**
 * What the earners hear (decision 004): the player, or every member of the team, one
 * notification for each achievement earned in a match of the tournament.
 */
export function achievementNotices(
  won: readonly { side: { type: ParticipantType; id: string; name: string }; achievement: { icon: string; name: string } }[],
  members: readonly { teamId: string; userId: string }[],
  tournamentId: string,
): NewNotification[] {
  return won.flatMap(({ side, achievement }) =>
    side.type === 'user'
      ? [{ userId: side.id, text: (locale: Locale) => translate(locale, 'stats.achievementNotice', { icon: achievement.icon, name: achievement.name }), payload: { tournamentId } }]
      : members
          .filter((m) => m.teamId === side.id)
          .map((m) => ({
            userId: m.userId,
            text: (locale: Locale) => translate(locale, 'stats.teamAchievementNotice', { icon: achievement.icon, name: achievement.name, team: side.name }),
            payload: { tournamentId, teamId: side.id },
          })),
  );
}

/**
 * Writes earned achievements in one insert and returns those it stored: a row another recording
 * wrote a moment ago is skipped, so nobody hears twice of one achievement.
 */
export async function storeEarned<T extends { side: { type: ParticipantType; id: string }; achievement: { _id: string } }>(
  tx: Tx,
  candidates: readonly T[],
): Promise<T[]> {
  if (candidates.length === 0) return [];
  const inserted = await tx
    .insert(earnedAchievements)
    .values(
      candidates.map(({ side, achievement }) => ({
        achievementId: achievement._id,
        userId: side.type === 'user' ? side.id : null,
        teamId: side.type === 'team' ? side.id : null,
      })),
    )
    .onConflictDoNothing()
    .returning({ achievementId: earnedAchievements.achievementId, userId: earnedAchievements.userId, teamId: earnedAchievements.teamId });
  const key = (type: ParticipantType, ownerId: string, achievementId: string) => `${type}:${ownerId}:${achievementId}`;
  const stored = new Set(inserted.map((r) => key(r.userId ? 'user' : 'team', (r.userId ?? r.teamId)!, r.achievementId)));
  return candidates.filter(({ side, achievement }) => stored.has(key(side.type, side.id, achievement._id)));
}

/** The members of every team among `won`'s sides (each hears of its team's achievement), in one query. */
export async function earningTeamMembers(
  tx: Tx,
  won: readonly { side: { type: ParticipantType; id: string } }[],
): Promise<{ teamId: string; userId: string }[]> {
  const earningTeams = [...new Set(won.filter(({ side }) => side.type === 'team').map(({ side }) => side.id))];
  if (earningTeams.length === 0) return [];
  return tx
    .select({ teamId: teamMembers.teamId, userId: teamMembers.userId })
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, earningTeams))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
}

/**
 * Gives each side the game's achievements its new statistics satisfy and it does not hold yet,
 * and tells the player, or every member of the team. Returns what was earned.
 */
async function awardAchievements(
  tx: Tx,
  config: StatsConfig,
  sides: readonly ResolvedSide[],
  after: readonly StatsRow[],
  tournamentId: string,
): Promise<MatchRecorded['achievements']> {
  const compiled = compiledAchievements(config);
  if (compiled.length === 0) return [];
  const fieldNames = config.statsFields.map((f) => f.fieldName);
  // What a side holds already `storeEarned`'s insert skips: only the new ones come back.
  const candidates = sides.flatMap((side, index) => {
    const values = conditionValues(after[index]!, fieldNames);
    return compiled.filter(({ evaluate }) => evaluate(values)).map(({ achievement }) => ({ side, achievement }));
  });
  const won = await storeEarned(tx, candidates);
  const members = await earningTeamMembers(tx, won);
  await notifyAll(tx, achievementNotices(won, members, tournamentId));
  return won.map(({ side, achievement }) => ({
    _id: achievement._id,
    name: achievement.name,
    description: achievement.description,
    icon: achievement.icon,
    rarity: achievement.rarity,
    owner: { type: side.type, id: side.id, name: side.name },
  }));
}

/** A match recorded: its results move the statistics the site shows. */
export const recordMatch = publishing(recordStatsMatch, (_result, _db, tournamentId) => ({ tournamentId, kind: 'match' }));
