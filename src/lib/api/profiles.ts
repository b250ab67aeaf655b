import { z } from 'zod';
import type { RatingPoint } from '../domain/rating-chart.ts';
import type { ApiClient } from './client.ts';
import { earnedAchievementSchema, generalStatsSchema } from './leaderboards.ts';
import { matchHistoryItemSchema } from './match-history.ts';
import { linkedAccountSchema } from './linked-accounts.ts';

/*
 * Public profiles of players and teams (issue 23): GET /players/{id} and GET /teams/{id}. One
 * answer holds the whole page: who, their teams or roster, each game's rating with its history,
 * achievements, places in tournaments and the first page of matches.
 */

/** Tournaments whose places a profile lists, newest first. */
export const PROFILE_PLACEMENTS_MAX = 50;

/** A point of the rating chart: when the match ended, and the rating right after it. */
export const ratingPointSchema = z.object({ at: z.string(), rating: z.number() }) satisfies z.ZodType<RatingPoint>;

/** One game a player or a team is rated in: its numbers (as a leaderboard row has them) and how the rating went. */
export const profileGameSchema = z.object({
  game: z.object({ _id: z.string(), name: z.string(), image: z.string().nullable() }),
  generalStats: generalStatsSchema,
  /** Oldest first, at most RATING_HISTORY_MAX_POINTS, spread evenly over a longer history (first and last kept). */
  history: z.array(ratingPointSchema),
});
export type ProfileGame = z.infer<typeof profileGameSchema>;

/** A place in a tournament: `from`–`to` is a shared band (3–4); `final` once every stage is over or a winner was named. */
export const profilePlacementSchema = z.object({
  tournament: z.object({ _id: z.string(), title: z.string(), date: z.string(), game: z.object({ _id: z.string(), name: z.string() }) }),
  from: z.number().int(),
  to: z.number().int(),
  final: z.boolean(),
  /** For a player: the team that took the place; null for the player's own (solo) place. */
  team: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type ProfilePlacement = z.infer<typeof profilePlacementSchema>;

const personSchema = z.object({ _id: z.string(), username: z.string(), avatar: z.string() });

export const playerProfileSchema = z.object({
  _id: z.string(),
  username: z.string(),
  /** Always set: the upload, or a picture generated from the name. */
  avatar: z.string(),
  /** The teams the player is in now, in the order joined. */
  teams: z.array(z.object({ _id: z.string(), name: z.string(), logoUrl: z.string().nullable(), captain: z.boolean() })),
  /** Games with a rating, highest rating first. */
  games: z.array(profileGameSchema),
  achievements: z.array(earnedAchievementSchema),
  placements: z.array(profilePlacementSchema),
  /** The first page of the match history (newest first); more through GET /stats/matches/player/{id}. */
  matches: z.array(matchHistoryItemSchema),
  /** The game accounts the player linked (issue 60): the Discord name, the Steam profile. */
  linkedAccounts: z.array(linkedAccountSchema),
});
export type PlayerProfile = z.infer<typeof playerProfileSchema>;

export const teamProfileSchema = z.object({
  _id: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  captain: personSchema,
  /** In the order they joined; the captain is first. */
  members: z.array(personSchema),
  games: z.array(profileGameSchema),
  achievements: z.array(earnedAchievementSchema),
  placements: z.array(profilePlacementSchema),
  /** The first page of the match history (newest first); more through GET /stats/matches/team/{id}. */
  matches: z.array(matchHistoryItemSchema),
});
export type TeamProfile = z.infer<typeof teamProfileSchema>;

const enc = encodeURIComponent;

/** A player's public profile; public, no token needed. */
export const getPlayerProfile = (api: ApiClient, id: string) => api.get(`players/${enc(id)}`).json<PlayerProfile>();
/** A team's public profile; public, no token needed. */
export const getTeamProfile = (api: ApiClient, id: string) => api.get(`teams/${enc(id)}`).json<TeamProfile>();
