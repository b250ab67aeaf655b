import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { MATCH_HISTORY_LIMIT } from '../../../lib/api/match-history.ts';
import { PROFILE_PLACEMENTS_MAX, type PlayerProfile, type ProfileGame, type ProfilePlacement, type TeamProfile } from '../../../lib/api/profiles.ts';
import { PARTICIPANT_STATUS, type ParticipantType } from '../../../lib/domain/participant.ts';
import { sampleHistory, type RatingPoint } from '../../../lib/domain/rating-chart.ts';
import type { Tx } from '../../db/client.ts';
import { applications, games, matches, matchParticipants, playerGameStats, stages, teamGameStats, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import { avatarUrl } from './avatars.ts';
import { linkedAccountsOf } from './linked-accounts.ts';
import { generalStats, playerAchievements, teamAchievements } from '../statistics/leaderboards.ts';
import { matchHistory } from '../statistics/match-history.ts';
import { placementsOfTournaments } from '../competition/stages/standings.ts';

/*
 * Public profiles (issue 23): everything a player's or a team's page shows, in a fixed number of
 * queries whatever the career's length — the owner, their teams or roster, the rated games with
 * each one's rating history, achievements, tournament places and the first page of matches.
 */

interface Owner {
  type: ParticipantType;
  id: string;
}

/** The owner's rows of `match_participants`: a player's own sides or a team's. */
const sidesOf = (owner: Owner): SQL => (owner.type === 'user' ? eq(matchParticipants.userId, owner.id) : eq(matchParticipants.teamId, owner.id));

/** When a match counts as having happened, and the replay's order after it (recompute.ts `replayAt`). */
const playedAt = sql`coalesce(${matches.completedAt}, ${matches.createdAt})`;

/**
 * The games the owner is rated in, highest rating first, each with its rating after every rated
 * match, oldest first (sampled down for a long career): two queries.
 */
async function ratedGames(db: Tx, owner: Owner): Promise<ProfileGame[]> {
  const game = { id: games.id, name: games.name, image: games.image };
  const rows =
    owner.type === 'user'
      ? await db
          .select({ stats: playerGameStats, game })
          .from(playerGameStats)
          .innerJoin(games, eq(games.id, playerGameStats.gameId))
          .where(eq(playerGameStats.userId, owner.id))
          .orderBy(desc(playerGameStats.rating), asc(games.name))
      : await db
          .select({ stats: teamGameStats, game })
          .from(teamGameStats)
          .innerJoin(games, eq(games.id, teamGameStats.gameId))
          .where(eq(teamGameStats.teamId, owner.id))
          .orderBy(desc(teamGameStats.rating), asc(games.name));
  if (rows.length === 0) return [];
  const points = await db
    .select({ gameId: matches.gameId, at: playedAt.mapWith(matches.createdAt), rating: matchParticipants.ratingAfter })
    .from(matchParticipants)
    .innerJoin(matches, eq(matches.id, matchParticipants.matchId))
    .where(and(sidesOf(owner), eq(matches.status, 'completed'), isNotNull(matchParticipants.ratingAfter)))
    .orderBy(playedAt, asc(matches.createdAt), asc(matches.id));
  const historyOf = new Map<string, RatingPoint[]>();
  for (const point of points) {
    const list = historyOf.get(point.gameId) ?? [];
    list.push({ at: (point.at as Date).toISOString(), rating: point.rating! });
    historyOf.set(point.gameId, list);
  }
  return rows.map(({ stats, game: g }) => ({
    game: { _id: g.id, name: g.name, image: g.image },
    generalStats: generalStats(stats),
    history: sampleHistory(historyOf.get(g.id) ?? []),
  }));
}

/**
 * The owner's places in tournaments, newest first, at most PROFILE_PLACEMENTS_MAX: from the
 * stages' places over all stages (GET …/standings), or the named winner's first place where the
 * stages place nobody (a SPEC-era tournament). A player's places are their solo ones and those of
 * the teams they are in now (`teamIds`). Two or three queries whatever their number.
 */
async function placementsOf(db: Tx, owner: Owner, teamIds: readonly string[]): Promise<ProfilePlacement[]> {
  const solo = owner.type === 'user' ? and(eq(applications.userId, owner.id), isNull(applications.teamId)) : undefined;
  const asTeam = teamIds.length > 0 ? inArray(applications.teamId, [...teamIds]) : undefined;
  if (!solo && !asTeam) return [];
  const entries = await db
    .select({
      id: tournaments.id,
      title: tournaments.title,
      date: tournaments.date,
      gameId: tournaments.gameId,
      gameName: games.name,
      winnerType: tournaments.winnerType,
      winnerId: tournaments.winnerId,
      userId: applications.userId,
      teamId: applications.teamId,
      teamName: teams.name,
    })
    .from(applications)
    .innerJoin(tournaments, eq(tournaments.id, applications.tournamentId))
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .leftJoin(teams, eq(teams.id, applications.teamId))
    .where(
      and(
        eq(applications.status, PARTICIPANT_STATUS),
        or(solo, asTeam),
        // A participant of the tournament's own kind (approvedOf): solo applications of solo tournaments, team ones of team tournaments.
        sql`(${applications.teamId} is null) = ${tournaments.soloOnly}`,
        // Only tournaments that can place anyone: a winner named, or a stage drawn.
        or(isNotNull(tournaments.winnerId), sql`exists (select 1 from ${stages} where ${stages.tournamentId} = ${tournaments.id})`),
      ),
    )
    .orderBy(desc(tournaments.date), asc(tournaments.id))
    .limit(PROFILE_PLACEMENTS_MAX);
  const standings = await placementsOfTournaments(
    db,
    entries.map((e) => e.id),
  );
  return entries.flatMap((entry) => {
    const participant = entry.teamId ?? entry.userId;
    const type: ParticipantType = entry.teamId ? 'team' : 'user';
    const staged = standings.get(entry.id);
    const place = staged?.placements.find((p) => p.participant === participant);
    const won = entry.winnerId === participant && entry.winnerType === type;
    const band = place ?? (won ? { from: 1, to: 1 } : null);
    if (!band) return [];
    return [
      {
        tournament: { _id: entry.id, title: entry.title, date: entry.date.toISOString(), game: { _id: entry.gameId, name: entry.gameName } },
        from: band.from,
        to: band.to,
        final: won || Boolean(staged?.final),
        team: owner.type === 'user' && entry.teamId ? { _id: entry.teamId, name: entry.teamName ?? '' } : null,
      },
    ];
  });
}

/** A player's public profile, or null for no such player. */
export async function playerProfile(db: Tx, userId: string): Promise<PlayerProfile | null> {
  const [user] = await db.select({ id: users.id, username: users.username, avatarImageId: users.avatarImageId }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  const owner: Owner = { type: 'user', id: user.id };
  const memberOf = await db
    .select({ id: teams.id, name: teams.name, logoUrl: teams.logoUrl, captainId: teams.captainId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, user.id))
    .orderBy(asc(teamMembers.joinedAt), asc(teams.name));
  return {
    _id: user.id,
    username: user.username,
    avatar: avatarUrl(user.id, user.avatarImageId),
    teams: memberOf.map((t) => ({ _id: t.id, name: t.name, logoUrl: t.logoUrl, captain: t.captainId === user.id })),
    games: await ratedGames(db, owner),
    achievements: await playerAchievements(db, user.id),
    placements: await placementsOf(
      db,
      owner,
      memberOf.map((t) => t.id),
    ),
    matches: await matchHistory(db, { kind: 'player', id: user.id }, { limit: MATCH_HISTORY_LIMIT, offset: 0 }),
    linkedAccounts: await linkedAccountsOf(db, user.id),
  };
}

/** A team's public profile, or null for no such team. No addresses: a roster is names and pictures. */
export async function teamProfile(db: Tx, teamId: string): Promise<TeamProfile | null> {
  const [team] = await db.select({ id: teams.id, name: teams.name, logoUrl: teams.logoUrl, captainId: teams.captainId }).from(teams).where(eq(teams.id, teamId));
  if (!team) return null;
  const owner: Owner = { type: 'team', id: team.id };
  const members = await db
    .select({ id: users.id, username: users.username, avatarImageId: users.avatarImageId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(eq(teamMembers.teamId, team.id))
    .orderBy(asc(teamMembers.joinedAt), asc(users.username));
  // The captain first, whatever the joining order says (as the team tab lists them).
  members.sort((a, b) => Number(b.id === team.captainId) - Number(a.id === team.captainId));
  const roster = members.map((m) => ({ _id: m.id, username: m.username, avatar: avatarUrl(m.id, m.avatarImageId) }));
  return {
    _id: team.id,
    name: team.name,
    logoUrl: team.logoUrl,
    captain: roster.find((m) => m._id === team.captainId) ?? roster[0] ?? { _id: team.captainId, username: '', avatar: avatarUrl(team.captainId, null) },
    members: roster,
    games: await ratedGames(db, owner),
    achievements: await teamAchievements(db, team.id),
    placements: await placementsOf(db, owner, [team.id]),
    matches: await matchHistory(db, { kind: 'team', id: team.id }, { limit: MATCH_HISTORY_LIMIT, offset: 0 }),
  };
}
