import { boolean, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ACHIEVEMENT_RARITIES, STAT_CATEGORIES, STAT_FIELD_TYPES, STATS_TEMPLATES } from '../../../lib/domain/stat-fields.ts';
import { createdAt, id } from './columns.ts';

export const games = pgTable(
  'games',
  {
    id: id(),
    name: text('name').notNull(),
    image: text('image'),
    /** Its map pool (issue 58): the maps a match's veto is played on; empty for no veto. */
    maps: jsonb('maps').$type<string[]>().notNull().default([]),
    /** The names of its two starting sides («CT», «T»); empty without maps. */
    sides: jsonb('sides').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('games_name_lower_idx').on(sql`lower(${t.name})`)],
);

/** A game has statistics when it has this row; its fields and achievements hang off the game. */
export const gameStatsConfigs = pgTable('game_stats_configs', {
  gameId: uuid('game_id')
    .primaryKey()
    .references(() => games.id, { onDelete: 'cascade' }),
  template: text('template', { enum: STATS_TEMPLATES })
    .notNull()
    .default('default'),
  createdAt: createdAt(),
});

export const statFields = pgTable(
  'stat_fields',
  {
    id: id(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    fieldName: text('field_name').notNull(),
    displayName: text('display_name').notNull(),
    fieldType: text('field_type', { enum: STAT_FIELD_TYPES })
      .notNull()
      .default('number'),
    category: text('category', { enum: STAT_CATEGORIES })
      .notNull()
      .default('general'),
    isMainStat: boolean('is_main_stat').notNull().default(false),
    description: text('description').notNull().default(''),
    icon: text('icon').notNull().default('📊'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('stat_fields_game_field_idx').on(t.gameId, t.fieldName)],
);

export const achievements = pgTable(
  'achievements',
  {
    id: id(),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    condition: text('condition').notNull(),
    icon: text('icon').notNull().default('🏆'),
    rarity: text('rarity', { enum: ACHIEVEMENT_RARITIES })
      .notNull()
      .default('common'),
    createdAt: createdAt(),
  },
  (t) => [index('achievements_game_idx').on(t.gameId)],
);
