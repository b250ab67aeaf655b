import { and, asc, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { AchievementBadge, EarnedAchievement, GeneralStats, PlayerEntry, StatsGame, TeamEntry } from '../../../lib/api/leaderboards.ts';
import type { LeaderboardSort } from '../../../lib/domain/leaderboard.ts';
import { rankOf, rankTitleKey } from '../../../lib/domain/rank.ts';
import { winRate } from '../../../lib/domain/rating.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { winRateKey } from '../../db/schema/columns.ts';
import { achievements, earnedAchievements, games, gameStatsConfigs, playerGameStats, teamGameStats, teamMembers, teams, users } from '../../db/schema/index.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import type { ParticipantType } from '../../../lib/domain/participant.ts';
import { changed } from '../live/changes.ts';

type StatsTable = typeof playerGameStats | typeof teamGameStats;

/** Games with a statistics configuration, by name: the leaderboards' game selector. */
export async function listStatsGames(db: Tx): Promise<StatsGame[]> {
  const rows = await db
    .select({ id: games.id, name: games.name, image: games.image })
    .from(games)
    .innerJoin(gameStatsConfigs, eq(gameStatsConfigs.gameId, games.id))
    .orderBy(asc(sql`lower(${games.name})`), asc(games.id));
  return rows.map((g) => ({ _id: g.id, name: g.name, image: g.image }));
}

export async function gameExists(db: Tx, gameId: string): Promise<boolean> {
  const [row] = await db.select({ id: games.id }).from(games).where(eq(games.id, gameId));
  return Boolean(row);
}

/** Rows in the order a sort asks for; ties fall back to rating, wins, then the row id, so pages are stable. */
function orderOf(table: StatsTable, sort: LeaderboardSort): SQL[] {
  const rate = winRateKey(table.matchesWon, table.matchesPlayed);
  switch (sort) {
    case 'rating_asc':
      return [asc(table.rating), asc(table.matchesWon), asc(table.id)];
    case 'wins_desc':
      return [desc(table.matchesWon), desc(table.rating), asc(table.id)];
    case 'winrate_desc':
      return [sql`${rate} desc nulls last`, desc(table.matchesPlayed), desc(table.rating), asc(table.id)];
    default:
      return [desc(table.rating), desc(table.matchesWon), asc(table.id)];
  }
}

/** A statistics row as the API shows it (SPEC §3 generalStats): the leaderboards' rows and the profiles' games. */
export function generalStats(row: { rating: number; matchesPlayed: number; matchesWon: number; matchesLost: number; currentStreak: number }): GeneralStats {
  const rank = rankOf(row.rating);
  return {
    ranking: row.rating,
    matchesWon: row.matchesWon,
    matchesLost: row.matchesLost,
    matchesPlayed: row.matchesPlayed,
    winRate: Math.round(winRate(row.matchesWon, row.matchesPlayed) * 100) / 100,
    currentStreak: row.currentStreak,
    rank,
    rankTitle: t(rankTitleKey(rank)),
  };
}

const RARITY_ORDER = sql`case ${achievements.rarity} when 'legendary' then 0 when 'epic' then 1 when 'rare' then 2 else 3 end`;

/** The game's achievements held by these players or teams, by owner id: rarest first. */
async function badgesOf(db: Tx, gameId: string, owner: ParticipantType, ids: readonly string[]): Promise<Map<string, AchievementBadge[]>> {
  const result = new Map<string, AchievementBadge[]>();
  if (ids.length === 0) return result;
  const column = owner === 'user' ? earnedAchievements.userId : earnedAchievements.teamId;
  const rows = await db
    .select({ owner: column, achievement: achievements })
    .from(earnedAchievements)
    .innerJoin(achievements, eq(achievements.id, earnedAchievements.achievementId))
    .where(and(eq(achievements.gameId, gameId), inArray(column, [...ids])))
    .orderBy(RARITY_ORDER, asc(earnedAchievements.earnedAt), asc(achievements.name));
  for (const row of rows) {
    const list = result.get(row.owner!) ?? [];
    const a = row.achievement;
    list.push({ _id: a.id, name: a.name, description: a.description, icon: a.icon, rarity: a.rarity });
    result.set(row.owner!, list);
  }
  return result;
}

/** A game's player leaderboard (SPEC §3 Leaderboard entry): two queries, whatever the length. */
export async function playerLeaderboard(db: Tx, gameId: string, query: { limit: number; sort: LeaderboardSort }): Promise<PlayerEntry[]> {
  const rows = await db
    .select({ stats: playerGameStats, user: { id: users.id, username: users.username, avatarImageId: users.avatarImageId } })
    .from(playerGameStats)
    .leftJoin(users, eq(users.id, playerGameStats.userId))
    .where(eq(playerGameStats.gameId, gameId))
    .orderBy(...orderOf(playerGameStats, query.sort))
    .limit(query.limit);
  const badges = await badgesOf(
    db,
    gameId,
    'user',
    rows.map((r) => r.stats.userId),
  );
  return rows.map(({ stats, user }) => ({
    _id: stats.id,
    gameId: stats.gameId,
    userId: user ? { _id: user.id, username: user.username, avatar: avatarUrl(user.id, user.avatarImageId) } : null,
    generalStats: generalStats(stats),
    achievements: badges.get(stats.userId) ?? [],
  }));
}

/** A game's team leaderboard: two queries, whatever the length. */
export async function teamLeaderboard(db: Tx, gameId: string, query: { limit: number; sort: LeaderboardSort }): Promise<TeamEntry[]> {
  const rows = await db
    .select({ stats: teamGameStats, team: { id: teams.id, name: teams.name, logoUrl: teams.logoUrl } })
    .from(teamGameStats)
    .leftJoin(teams, eq(teams.id, teamGameStats.teamId))
    .where(eq(teamGameStats.gameId, gameId))
    .orderBy(...orderOf(teamGameStats, query.sort))
    .limit(query.limit);
  const badges = await badgesOf(
    db,
    gameId,
    'team',
    rows.map((r) => r.stats.teamId),
  );
  return rows.map(({ stats, team }) => ({
    _id: stats.id,
    gameId: stats.gameId,
    teamId: team ? { _id: team.id, name: team.name, logoUrl: team.logoUrl } : null,
    generalStats: generalStats(stats),
    achievements: badges.get(stats.teamId) ?? [],
  }));
}

/**
 * Takes a player or a team off a game's leaderboard: their statistics row goes, so a next match
 * starts them again at the initial rating. Matches and earned achievements stay. False when there
 * was no row.
 */
export async function removeEntry(db: Tx, owner: ParticipantType, ownerId: string, gameId: string): Promise<boolean> {
  changed('ratings');
  const gone =
    owner === 'user'
      ? await db
          .delete(playerGameStats)
          .where(and(eq(playerGameStats.userId, ownerId), eq(playerGameStats.gameId, gameId)))
          .returning({ id: playerGameStats.id })
      : await db
          .delete(teamGameStats)
          .where(and(eq(teamGameStats.teamId, ownerId), eq(teamGameStats.gameId, gameId)))
          .returning({ id: teamGameStats.id });
  return gone.length > 0;
}

/** An earned achievement with what a profile shows of it: the achievement, its game, and the team that earned it, if one. */
const earnedColumns = {
  id: earnedAchievements.id,
  earnedAt: earnedAchievements.earnedAt,
  achievement: achievements,
  game: { id: games.id, name: games.name },
  team: { id: teams.id, name: teams.name },
};

const earnedQuery = (db: Tx) =>
  db
    .select(earnedColumns)
    .from(earnedAchievements)
    .innerJoin(achievements, eq(achievements.id, earnedAchievements.achievementId))
    .innerJoin(games, eq(games.id, achievements.gameId))
    .leftJoin(teams, eq(teams.id, earnedAchievements.teamId));

type EarnedRow = Awaited<ReturnType<typeof earnedQuery>>[number];

const presentEarned = (r: EarnedRow): EarnedAchievement => ({
  _id: r.id,
  achievement: {
    _id: r.achievement.id,
    name: r.achievement.name,
    description: r.achievement.description,
    icon: r.achievement.icon,
    rarity: r.achievement.rarity,
  },
  game: { _id: r.game.id, name: r.game.name },
  team: r.team ? { _id: r.team.id, name: r.team.name } : null,
  earnedAt: r.earnedAt.toISOString(),
});

/**
 * The achievements a player holds, newest first: their own, and those earned by the teams they
 * are in now (with the team named).
 */
export async function playerAchievements(db: Tx, userId: string): Promise<EarnedAchievement[]> {
  const rows = await earnedQuery(db)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, earnedAchievements.teamId), eq(teamMembers.userId, userId)))
    .where(or(eq(earnedAchievements.userId, userId), isNotNull(teamMembers.userId)))
    .orderBy(desc(earnedAchievements.earnedAt), asc(achievements.name));
  return rows.map(presentEarned);
}

/** The achievements a team earned, newest first (its profile, issue 23). */
export async function teamAchievements(db: Tx, teamId: string): Promise<EarnedAchievement[]> {
  const rows = await earnedQuery(db)
    .where(eq(earnedAchievements.teamId, teamId))
    .orderBy(desc(earnedAchievements.earnedAt), asc(achievements.name));
  return rows.map(presentEarned);
}
