/**
 * The vocabulary of a game's statistics configuration (SPEC §3 Game stats config): field types,
 * categories, achievement rarities, setup templates, and the names an achievement condition may
 * use besides the game's own fields. Pure and small, so islands can import it without pulling in
 * the expression engine.
 */

export const STAT_FIELD_TYPES = ['number', 'percentage', 'time', 'string'] as const;
export type StatFieldType = (typeof STAT_FIELD_TYPES)[number];

export const STAT_CATEGORIES = ['general', 'combat', 'objective', 'economy', 'support'] as const;
export type StatCategory = (typeof STAT_CATEGORIES)[number];

export const ACHIEVEMENT_RARITIES = ['common', 'rare', 'epic', 'legendary'] as const;
export type AchievementRarity = (typeof ACHIEVEMENT_RARITIES)[number];

export const STATS_TEMPLATES = ['default', 'cs2', 'valorant', 'lol', 'dota2'] as const;
export type StatsTemplate = (typeof STATS_TEMPLATES)[number];

/** The four templates «Налаштувати популярні ігри» applies. */
export const POPULAR_TEMPLATES = ['cs2', 'valorant', 'lol', 'dota2'] as const satisfies readonly StatsTemplate[];

/**
 * A stat field (SPEC §3 Game stats config), the one shape of it: templates define fields in it,
 * the stat_fields table stores it, and the API's zod schemas are checked against it.
 */
export interface StatFieldDefinition {
  /** English identifier (FIELD_NAME_PATTERN), unique per game. */
  fieldName: string;
  displayName: string;
  fieldType: StatFieldType;
  category: StatCategory;
  isMainStat: boolean;
  description: string;
  icon: string;
}

/** An achievement a game offers (SPEC §3), the one shape of it, as templates, the table and the API carry it. */
export interface AchievementDefinition {
  name: string;
  description: string;
  /** An expression over the game's fields and the aggregates (`conditionVariables`). */
  condition: string;
  icon: string;
  rarity: AchievementRarity;
}

export const DEFAULT_STAT_ICON = '📊';
export const DEFAULT_ACHIEVEMENT_ICON = '🏆';

/**
 * Totals every competitor has in every configured game, whatever its fields: an achievement
 * condition may always use them. `winRate` is a percentage (0–100); `currentStreak` is positive
 * for a run of wins and negative for a run of losses.
 */
export const AGGREGATE_STAT_NAMES = ['matchesPlayed', 'wins', 'losses', 'winRate', 'currentStreak', 'rating'] as const;
export type AggregateStatName = (typeof AGGREGATE_STAT_NAMES)[number];

/** A stat field's fieldName: an English identifier, a letter first, then letters and digits. */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9]*$/;
export const FIELD_NAME_MAX = 40;

/** The longest achievement condition. */
export const CONDITION_MAX_LENGTH = 500;

/**
 * Words a fieldName may not be: the condition language's own keywords and functions (a field
 * called `and` or `max` could not be used in a condition) and the aggregate names (a field called
 * `wins` would hide the real win count).
 */
export const CONDITION_KEYWORDS = ['and', 'or', 'not', 'in', 'of', 'if', 'then', 'else', 'mod'] as const;
export const CONDITION_FUNCTIONS = ['abs', 'ceil', 'floor', 'round', 'min', 'max', 'sqrt', 'log', 'log2', 'log10'] as const;

const reserved = new Set<string>([...CONDITION_KEYWORDS, ...CONDITION_FUNCTIONS, 'exists', 'empty', ...AGGREGATE_STAT_NAMES].map((w) => w.toLowerCase()));

/** True when `name` is taken by the condition language or by an aggregate (case-insensitive). */
export const isReservedFieldName = (name: string) => reserved.has(name.toLowerCase());

/** The names a condition of a game with these fields may use: its fields, then the aggregates. */
export function conditionVariables(fieldNames: readonly string[]): string[] {
  return [...new Set([...fieldNames, ...AGGREGATE_STAT_NAMES])];
}
