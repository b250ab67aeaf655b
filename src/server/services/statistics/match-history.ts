import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { MatchHistoryItem, MatchHistoryOwner } from '../../../lib/api/match-history.ts';
import type { Tx } from '../../db/client.ts';
import { games, matches, matchParticipants, teams, tournaments, users } from '../../db/schema/index.ts';

/** When a match counts as having happened: its end, or its creation while it has none. */
const playedAt = sql<Date>`coalesce(${matches.completedAt}, ${matches.createdAt})`;

/** Whether the player or team exists, so an unknown id can be told from an empty history. */
export async function ownerExists(db: Tx, owner: MatchHistoryOwner): Promise<boolean> {
  const [row] =
    owner.kind === 'player'
      ? await db.select({ id: users.id }).from(users).where(eq(users.id, owner.id))
      : await db.select({ id: teams.id }).from(teams).where(eq(teams.id, owner.id));
  return Boolean(row);
}

/**
 * A page of the owner's matches, newest first (SPEC §3 Match history item): those the player
 * played in person, or the team played as a team.
 */
export async function matchHistory(
  db: Tx,
  owner: MatchHistoryOwner,
  page: { limit: number; offset: number; before?: string | undefined },
): Promise<MatchHistoryItem[]> {
  const played = db
    .select({ matchId: matchParticipants.matchId })
    .from(matchParticipants)
    .where(owner.kind === 'player' ? eq(matchParticipants.userId, owner.id) : eq(matchParticipants.teamId, owner.id));
  const rows = await db
    .select({ match: matches, gameName: games.name, tournamentTitle: tournaments.title })
    .from(matches)
    .innerJoin(games, eq(games.id, matches.gameId))
    .leftJoin(tournaments, eq(tournaments.id, matches.tournamentId))
    .where(and(inArray(matches.id, played), page.before ? lt(playedAt, new Date(page.before)) : undefined))
    .orderBy(desc(playedAt), desc(matches.id))
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length === 0) return [];
  const participants = await db
    .select()
    .from(matchParticipants)
    .where(
      inArray(
        matchParticipants.matchId,
        rows.map((r) => r.match.id),
      ),
    )
    .orderBy(asc(matchParticipants.matchId), asc(matchParticipants.placement), asc(matchParticipants.id));
  return rows.map(({ match, gameName, tournamentTitle }) => ({
    _id: match.id,
    participants: participants
      .filter((p) => p.matchId === match.id)
      .map((p) => ({
        id: p.participantType === 'user' ? p.userId : p.teamId,
        type: p.participantType,
        name: p.name,
        score: p.score,
        isWinner: p.isWinner,
        placement: p.placement,
      })),
    result: { isDraw: match.isDraw },
    gameId: { _id: match.gameId, name: gameName },
    tournamentId: match.tournamentId && tournamentTitle !== null ? { _id: match.tournamentId, title: tournamentTitle } : null,
    completedAt: match.completedAt?.toISOString() ?? null,
    createdAt: match.createdAt.toISOString(),
    matchDetails: { duration: match.duration, gameSpecificData: match.gameSpecificData },
    status: match.status,
  }));
}
