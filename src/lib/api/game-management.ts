import { z } from 'zod';
import {
  ACHIEVEMENT_RARITIES,
  CONDITION_MAX_LENGTH,
  FIELD_NAME_MAX,
  FIELD_NAME_PATTERN,
  STAT_CATEGORIES,
  STAT_FIELD_TYPES,
  STATS_TEMPLATES,
  isReservedFieldName,
  type AchievementDefinition,
  type StatFieldDefinition,
} from '../domain/stat-fields.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { imageInput } from './games.ts';
import { ACHIEVEMENT_NAME_MAX, GAME_NAME_MAX, ICON_MAX, STATS_DESCRIPTION_MAX, STAT_DISPLAY_NAME_MAX } from './limits.ts';

/** A game in the game-management list (SPEC §3 Game): with whether it has a stats config. */
export const managedGameSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
  hasStatsConfig: z.boolean(),
});
export type ManagedGame = z.infer<typeof managedGameSchema>;

/** A stat field (SPEC §3). `key` repeats `fieldName`: the spec names it both ways. */
export const statFieldSchema = z.object({
  fieldName: z.string(),
  key: z.string(),
  displayName: z.string(),
  fieldType: z.enum(STAT_FIELD_TYPES),
  category: z.enum(STAT_CATEGORIES),
  isMainStat: z.boolean(),
  description: z.string(),
  icon: z.string(),
}) satisfies z.ZodType<StatFieldDefinition & { key: string }>;
export type StatField = z.infer<typeof statFieldSchema>;

/** An achievement a game offers (SPEC §3). */
export const achievementSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  condition: z.string(),
  icon: z.string(),
  rarity: z.enum(ACHIEVEMENT_RARITIES),
}) satisfies z.ZodType<AchievementDefinition & { _id: string }>;
export type Achievement = z.infer<typeof achievementSchema>;

/** A game's statistics configuration (SPEC §3 Game stats config). */
export const statsConfigSchema = z.object({
  gameId: z.string(),
  template: z.enum(STATS_TEMPLATES),
  statsFields: z.array(statFieldSchema),
  gameAchievements: z.array(achievementSchema),
});
export type StatsConfig = z.infer<typeof statsConfigSchema>;

/** POST /game-management/setup: a game name (found case-insensitively or created), picture, template. */
export const setupInput = z.object({
  name: z.string().trim().min(1).max(GAME_NAME_MAX),
  image: imageInput.optional(),
  template: z.enum(STATS_TEMPLATES).default('default'),
});
export type SetupInput = z.input<typeof setupInput>;

export const setupResult = z.object({ message: z.string(), game: managedGameSchema, config: statsConfigSchema });
export type SetupResult = z.infer<typeof setupResult>;

export const setupPopularResult = z.object({
  message: z.string(),
  /** Names of the games configured by this call (created first when missing). */
  configured: z.array(z.string()),
  /** Names of the games that already had a configuration and were left as they were. */
  unchanged: z.array(z.string()),
});
export type SetupPopularResult = z.infer<typeof setupPopularResult>;

/** A fieldName: English identifier, unique per game (checked by the server). */
export const fieldNameInput = z
  .string()
  .trim()
  .min(1)
  .max(FIELD_NAME_MAX)
  .regex(FIELD_NAME_PATTERN, { error: () => t('gameManagement.fieldNameInvalid') })
  .refine((name) => !isReservedFieldName(name), { error: () => t('gameManagement.fieldNameReserved') });

/** POST /game-management/{id}/add-stat-field (SPEC §3, §5): fieldName and displayName required. */
export const statFieldInput = z.object({
  fieldName: fieldNameInput,
  displayName: z.string().trim().min(1).max(STAT_DISPLAY_NAME_MAX),
  fieldType: z.enum(STAT_FIELD_TYPES).default('number'),
  category: z.enum(STAT_CATEGORIES).default('general'),
  isMainStat: z.boolean().default(false),
  description: z.string().trim().max(STATS_DESCRIPTION_MAX).default(''),
  /** Empty means the default 📊. */
  icon: z.string().trim().max(ICON_MAX).default(''),
}) satisfies z.ZodType<StatFieldDefinition>;
export type StatFieldInput = z.input<typeof statFieldInput>;

/** POST /game-management/{gameId}/add-achievement (SPEC §3, §5): name, description, condition required. */
export const achievementInput = z.object({
  name: z.string().trim().min(1).max(ACHIEVEMENT_NAME_MAX),
  description: z.string().trim().min(1).max(STATS_DESCRIPTION_MAX),
  condition: z.string().trim().min(1).max(CONDITION_MAX_LENGTH),
  /** Empty means the default 🏆. */
  icon: z.string().trim().max(ICON_MAX).default(''),
  rarity: z.enum(ACHIEVEMENT_RARITIES).default('common'),
}) satisfies z.ZodType<AchievementDefinition>;
export type AchievementInput = z.input<typeof achievementInput>;

export const statFieldSaved = z.object({ message: z.string(), field: statFieldSchema });
export const achievementSaved = z.object({ message: z.string(), achievement: achievementSchema });
export type StatFieldSaved = z.infer<typeof statFieldSaved>;
export type AchievementSaved = z.infer<typeof achievementSaved>;

const gamePath = (id: string) => `game-management/${encodeURIComponent(id)}`;

export const listManagedGames = (api: ApiClient) => api.get('game-management/list').json<ManagedGame[]>();
/** The config of a game; 404 «Конфігурацію не знайдено» when it has none. */
export const getStatsConfig = (api: ApiClient, gameId: string) => api.get(`${gamePath(gameId)}/stats-config`).json<StatsConfig>();
export const setupGame = (api: ApiClient, body: SetupInput) => api.post('game-management/setup', { json: body }).json<SetupResult>();
export const setupPopularGames = (api: ApiClient) => api.post('game-management/setup-popular').json<SetupPopularResult>();
export const addStatField = (api: ApiClient, gameId: string, body: StatFieldInput) =>
  api.post(`${gamePath(gameId)}/add-stat-field`, { json: body }).json<StatFieldSaved>();
export const deleteStatField = (api: ApiClient, gameId: string, fieldName: string) =>
  api.delete(`${gamePath(gameId)}/stat-fields/${encodeURIComponent(fieldName)}`).json<{ message: string }>();
export const addAchievement = (api: ApiClient, gameId: string, body: AchievementInput) =>
  api.post(`${gamePath(gameId)}/add-achievement`, { json: body }).json<AchievementSaved>();
export const deleteAchievement = (api: ApiClient, gameId: string, achievementId: string) =>
  api.delete(`${gamePath(gameId)}/achievements/${encodeURIComponent(achievementId)}`).json<{ message: string }>();
