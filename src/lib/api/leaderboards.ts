import { z } from 'zod';
import { LEADERBOARD_LIMIT, LEADERBOARD_MAX_LIMIT, LEADERBOARD_SORTS, type LeaderboardSort, type LeaderboardTab } from '../domain/leaderboard.ts';
import type { RankId } from '../domain/rank.ts';
import type { ApiClient } from './client.ts';
import { ACHIEVEMENT_RARITIES } from '../domain/stat-fields.ts';

/** GET /stats/leaderboard/…: `limit` (50 by default, clamped to 1–100) and `sort`. */
export const leaderboardQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .default(LEADERBOARD_LIMIT)
    .transform((v) => Math.min(Math.max(v, 1), LEADERBOARD_MAX_LIMIT)),
  sort: z.enum(LEADERBOARD_SORTS).default('rating_desc'),
});
export type LeaderboardQuery = z.input<typeof leaderboardQuery>;

export const achievementBadgeSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string(),
  rarity: z.enum(ACHIEVEMENT_RARITIES),
});
export type AchievementBadge = z.infer<typeof achievementBadgeSchema>;

/** SPEC §3 generalStats, with the matches played and lost and the rank title besides. */
export const generalStatsSchema = z.object({
  /** The Elo rating (two decimals; pages show it whole). */
  ranking: z.number(),
  matchesWon: z.number().int(),
  matchesLost: z.number().int(),
  matchesPlayed: z.number().int(),
  /** Percent, 0–100. */
  winRate: z.number(),
  /** Positive: wins in a row; negative: losses in a row. */
  currentStreak: z.number().int(),
  rank: z.enum(['novice', 'intermediate', 'experienced', 'expert', 'legend'] as const satisfies readonly RankId[]),
  rankTitle: z.string(),
});
export type GeneralStats = z.infer<typeof generalStatsSchema>;

/** SPEC §3 Leaderboard entry (player), with the achievements earned in the game. */
export const playerEntrySchema = z.object({
  _id: z.string(),
  gameId: z.string(),
  userId: z.object({ _id: z.string(), avatar: z.string().nullable(), username: z.string() }).nullable(),
  generalStats: generalStatsSchema,
  achievements: z.array(achievementBadgeSchema),
});
export type PlayerEntry = z.infer<typeof playerEntrySchema>;

/** SPEC §3 Leaderboard entry (team). */
export const teamEntrySchema = z.object({
  _id: z.string(),
  gameId: z.string(),
  teamId: z.object({ _id: z.string(), name: z.string(), logoUrl: z.string().nullable() }).nullable(),
  generalStats: generalStatsSchema,
  achievements: z.array(achievementBadgeSchema),
});
export type TeamEntry = z.infer<typeof teamEntrySchema>;

/** A game that has a statistics configuration: the leaderboards' game selector. */
export const statsGameSchema = z.object({ _id: z.string(), name: z.string(), image: z.string().nullable() });
export type StatsGame = z.infer<typeof statsGameSchema>;

/** An achievement a player holds: their own, or one their team earned (`team` set). */
export const earnedAchievementSchema = z.object({
  _id: z.string(),
  achievement: achievementBadgeSchema,
  game: z.object({ _id: z.string(), name: z.string() }),
  team: z.object({ _id: z.string(), name: z.string() }).nullable(),
  earnedAt: z.string(),
});
export type EarnedAchievement = z.infer<typeof earnedAchievementSchema>;

const enc = encodeURIComponent;

export const listStatsGames = (api: ApiClient) => api.get('stats/games').json<StatsGame[]>();

/**
 * One tab of a game's leaderboard. `fresh` asks the browser to revalidate its copy (after a
 * deletion), which the ETag keeps cheap.
 */
export function getLeaderboard<T extends LeaderboardTab>(
  api: ApiClient,
  tab: T,
  gameId: string,
  query: { limit?: number; sort?: LeaderboardSort } = {},
  fresh = false,
): Promise<T extends 'players' ? PlayerEntry[] : TeamEntry[]> {
  const path = tab === 'players' ? `stats/leaderboard/game/${enc(gameId)}` : `stats/leaderboard/teams/game/${enc(gameId)}`;
  const searchParams: Record<string, string | number> = {};
  if (query.limit !== undefined) searchParams.limit = query.limit;
  if (query.sort) searchParams.sort = query.sort;
  return api.get(path, { searchParams, ...(fresh ? { cache: 'no-cache' as const } : {}) }).json();
}

export const deletePlayerEntry = (api: ApiClient, userId: string, gameId: string) =>
  api.delete(`stats/player/${enc(userId)}/game/${enc(gameId)}`).json<{ message: string }>();
export const deleteTeamEntry = (api: ApiClient, teamId: string, gameId: string) =>
  api.delete(`stats/team/${enc(teamId)}/game/${enc(gameId)}`).json<{ message: string }>();

export const listPlayerAchievements = (api: ApiClient, userId: string) =>
  api.get(`stats/achievements/player/${enc(userId)}`).json<EarnedAchievement[]>();
