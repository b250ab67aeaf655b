import { and, asc, eq, getTableColumns, sql, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Achievement, ManagedGame, StatField, StatsConfig } from '../../../lib/api/game-management.ts';
import { compileCondition } from '../../../lib/domain/achievements.ts';
import {
  DEFAULT_ACHIEVEMENT_ICON,
  DEFAULT_STAT_ICON,
  POPULAR_TEMPLATES,
  type AchievementDefinition,
  type StatFieldDefinition,
  type StatsTemplate,
} from '../../../lib/domain/stat-fields.ts';
import { POPULAR_GAMES, STATS_TEMPLATE_DEFINITIONS } from '../../../lib/domain/stat-templates.ts';
import type { Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { achievements, gameStatsConfigs, games, statFields } from '../../db/schema/index.ts';
import { changed, EVERYTHING } from '../live/changes.ts';

export type { Achievement, StatField, StatsConfig } from '../../../lib/api/game-management.ts';

type GameRow = typeof games.$inferSelect;
type StatFieldRow = typeof statFields.$inferSelect;
type AchievementRow = typeof achievements.$inferSelect;

const presentField = (row: Omit<StatFieldRow, 'createdAt'>): StatField => ({
  fieldName: row.fieldName,
  key: row.fieldName,
  displayName: row.displayName,
  fieldType: row.fieldType,
  category: row.category,
  isMainStat: row.isMainStat,
  description: row.description,
  icon: row.icon,
});

const presentAchievement = (row: Omit<AchievementRow, 'createdAt'>): Achievement => ({
  _id: row.id,
  name: row.name,
  description: row.description,
  condition: row.condition,
  icon: row.icon,
  rarity: row.rarity,
});

const presentManaged = (row: GameRow, hasStatsConfig: boolean): ManagedGame => ({
  _id: row.id,
  name: row.name,
  image: row.image,
  hasStatsConfig,
});

/** Every game by name, with whether it has a statistics configuration (GET /game-management/list). */
export async function listManagedGames(db: Tx): Promise<ManagedGame[]> {
  const rows = await db
    .select({ game: games, configured: gameStatsConfigs.gameId })
    .from(games)
    .leftJoin(gameStatsConfigs, eq(gameStatsConfigs.gameId, games.id))
    .orderBy(asc(games.name));
  return rows.map((r) => presentManaged(r.game, r.configured !== null));
}

/** A row as `json_agg` gives it: its columns by their names in the database. */
type JsonRow = Record<string, unknown>;

/** A row `json_agg` gave, keyed as drizzle keys the table's columns (`field_name` → `fieldName`); its times stay text. */
function rowOf<T extends PgTable>(table: T, json: JsonRow): Omit<InferSelectModel<T>, 'createdAt'> {
  return Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, column]) => [key, json[column.name]])) as Omit<InferSelectModel<T>, 'createdAt'>;
}

/**
 * A game's statistics settings with its fields and achievements, each list in the order they were
 * added, in one prepared statement (db/prepared.ts): every recorded match and confirmed report reads
 * them inside its transaction, where each statement is one more round trip the transaction holds
 * its connection, or the embedded database, for.
 */
const configOf = prepared((db) =>
  db
    .select({
      template: gameStatsConfigs.template,
      fields: sql<JsonRow[]>`coalesce((select json_agg(f order by f.created_at, f.field_name) from ${statFields} f where f.game_id = ${sql.placeholder('gameId')}), '[]')`,
      achievements: sql<JsonRow[]>`coalesce((select json_agg(a order by a.created_at, a.name) from ${achievements} a where a.game_id = ${sql.placeholder('gameId')}), '[]')`,
    })
    .from(gameStatsConfigs)
    .where(eq(gameStatsConfigs.gameId, sql.placeholder('gameId')))
    .prepare('game_stats_config'),
);

/**
 * A game's statistics configuration: its template, stat fields and achievements in the order they
 * were added; null when the game has none (or does not exist). Used by the game-management API
 * and by match recording, which reads the fields and checks the achievements.
 */
export async function getStatsConfig(db: Tx, gameId: string): Promise<StatsConfig | null> {
  const [config] = await configOf(db).execute({ gameId });
  if (!config) return null;
  return {
    gameId,
    template: config.template,
    statsFields: config.fields.map((row) => presentField(rowOf(statFields, row))),
    gameAchievements: config.achievements.map((row) => presentAchievement(rowOf(achievements, row))),
  };
}

/** Whether a game with this id exists. */
async function gameExists(db: Tx, gameId: string): Promise<boolean> {
  const [row] = await db.select({ id: games.id }).from(games).where(eq(games.id, gameId));
  return Boolean(row);
}

/**
 * Timestamps one millisecond apart from now, so rows written together keep their order when
 * listed by creation time (the tables have no position column).
 */
const stamps = (count: number) => {
  const start = Date.now();
  return Array.from({ length: count }, (_, i) => new Date(start + i));
};

/**
 * The creation time for a row added to a game's fields or achievements: now, but never before the
 * game's newest row of that table, so the list order is the order of adding even within one
 * millisecond. Callers hold the config row's lock, so no other write to the game runs meanwhile.
 */
const nextStamp = (table: typeof statFields | typeof achievements, gameId: string) =>
  sql`greatest(clock_timestamp(), (select max(${table.createdAt}) + interval '1 millisecond' from ${table} where ${table.gameId} = ${gameId}))`;

/** Writes the config row and the template's fields and achievements; false when the game already has a config. */
async function applyTemplate(tx: Tx, gameId: string, template: StatsTemplate): Promise<boolean> {
  const inserted = await tx.insert(gameStatsConfigs).values({ gameId, template }).onConflictDoNothing().returning({ gameId: gameStatsConfigs.gameId });
  if (inserted.length === 0) return false;
  const definition = STATS_TEMPLATE_DEFINITIONS[template];
  const fieldTimes = stamps(definition.statsFields.length);
  await tx.insert(statFields).values(definition.statsFields.map((f, i) => ({ ...f, gameId, createdAt: fieldTimes[i]! })));
  const achievementTimes = stamps(definition.gameAchievements.length);
  await tx.insert(achievements).values(definition.gameAchievements.map((a, i) => ({ ...a, gameId, createdAt: achievementTimes[i]! })));
  return true;
}

/** The game with this name (case-insensitive), created when there is none; `created` says which. */
async function findOrCreateGame(tx: Tx, name: string, image: string | null): Promise<{ game: GameRow; created: boolean }> {
  const byName = sql`lower(${games.name}) = lower(${name})`;
  const [existing] = await tx.select().from(games).where(byName).for('update');
  if (existing) {
    if (!existing.image && image) {
      const [updated] = await tx.update(games).set({ image }).where(eq(games.id, existing.id)).returning();
      return { game: updated!, created: false };
    }
    return { game: existing, created: false };
  }
  // A game of that name made a moment ago by someone else: the unique index keeps one, we use it.
  const [row] = await tx.insert(games).values({ name, image }).onConflictDoNothing().returning();
  if (row) return { game: row, created: true };
  const [raced] = await tx.select().from(games).where(byName);
  return { game: raced!, created: false };
}

export type SetupOutcome =
  | { ok: true; game: ManagedGame; config: StatsConfig; created: boolean }
  | { ok: false; reason: 'alreadyConfigured'; name: string };

/**
 * POST /game-management/setup: configures the game of that name with a template, creating the
 * game first when no game has that name (case-insensitive). A game without a picture takes the
 * one given; an existing picture is kept. A game that already has a config is refused.
 */
export async function setupGame(db: Tx, input: { name: string; image?: string | null | undefined; template: StatsTemplate }): Promise<SetupOutcome> {
  changed(EVERYTHING);
  return db.transaction(async (tx): Promise<SetupOutcome> => {
    const { game, created } = await findOrCreateGame(tx, input.name, input.image ? input.image : null);
    if (!(await applyTemplate(tx, game.id, input.template))) return { ok: false, reason: 'alreadyConfigured', name: game.name };
    const config = await getStatsConfig(tx, game.id);
    return { ok: true, game: presentManaged(game, true), config: config!, created };
  });
}

/**
 * POST /game-management/setup-popular: CS2, Valorant, League of Legends and Dota 2 with their
 * templates, each created when missing. Games that already have a config are left alone, so a
 * second call changes nothing.
 */
export async function setupPopularGames(db: Tx): Promise<{ configured: string[]; unchanged: string[] }> {
  return db.transaction(async (tx) => {
    const configured: string[] = [];
    const unchanged: string[] = [];
    for (const template of POPULAR_TEMPLATES) {
      const { name, image } = POPULAR_GAMES[template];
      const { game } = await findOrCreateGame(tx, name, image);
      (await applyTemplate(tx, game.id, template) ? configured : unchanged).push(game.name);
    }
    return { configured, unchanged };
  });
}

/** The config row of a game, locked until the transaction ends: changes to one game's config queue up. */
async function lockConfig(tx: Tx, gameId: string) {
  const [config] = await tx.select().from(gameStatsConfigs).where(eq(gameStatsConfigs.gameId, gameId)).for('update');
  return config;
}

type ConfigRefusal = 'gameNotFound' | 'notConfigured';

export type StatFieldWrite =
  | { ok: true; field: StatField }
  | { ok: false; reason: ConfigRefusal }
  | { ok: false; reason: 'fieldTaken'; fieldName: string };

export type NewStatField = StatFieldDefinition;

/** Adds a stat field to a configured game; a fieldName already there (in any letter case) is refused. */
export async function addStatField(db: Tx, gameId: string, input: NewStatField): Promise<StatFieldWrite> {
  changed(EVERYTHING);
  changed(EVERYTHING);
  return db.transaction(async (tx): Promise<StatFieldWrite> => {
    if (!(await lockConfig(tx, gameId))) return { ok: false, reason: (await gameExists(tx, gameId)) ? 'notConfigured' : 'gameNotFound' };
    const [clash] = await tx
      .select({ fieldName: statFields.fieldName })
      .from(statFields)
      .where(and(eq(statFields.gameId, gameId), sql`lower(${statFields.fieldName}) = lower(${input.fieldName})`));
    if (clash) return { ok: false, reason: 'fieldTaken', fieldName: clash.fieldName };
    const [row] = await tx
      .insert(statFields)
      .values({ ...input, icon: input.icon || DEFAULT_STAT_ICON, gameId, createdAt: nextStamp(statFields, gameId) })
      .onConflictDoNothing()
      .returning();
    if (!row) return { ok: false, reason: 'fieldTaken', fieldName: input.fieldName };
    return { ok: true, field: presentField(row) };
  });
}

export type StatFieldDelete =
  | { ok: true }
  | { ok: false; reason: ConfigRefusal | 'fieldNotFound' }
  | { ok: false; reason: 'fieldInUse'; achievements: string[] };

/**
 * Removes a stat field. Refused while an achievement's condition uses it: that condition could no
 * longer be checked, so the admin removes or rewrites those achievements first.
 */
export async function deleteStatField(db: Tx, gameId: string, fieldName: string): Promise<StatFieldDelete> {
  changed(EVERYTHING);
  return db.transaction(async (tx): Promise<StatFieldDelete> => {
    if (!(await lockConfig(tx, gameId))) return { ok: false, reason: (await gameExists(tx, gameId)) ? 'notConfigured' : 'gameNotFound' };
    const fields = await tx.select({ fieldName: statFields.fieldName }).from(statFields).where(eq(statFields.gameId, gameId));
    if (!fields.some((f) => f.fieldName === fieldName)) return { ok: false, reason: 'fieldNotFound' };
    const remaining = fields.map((f) => f.fieldName).filter((name) => name !== fieldName);
    const offered = await tx.select().from(achievements).where(eq(achievements.gameId, gameId)).orderBy(asc(achievements.createdAt));
    const users = offered.filter((a) => compileCondition(a.condition, remaining).ok === false && compileCondition(a.condition, [...remaining, fieldName]).ok);
    if (users.length > 0) return { ok: false, reason: 'fieldInUse', achievements: users.map((a) => a.name) };
    await tx.delete(statFields).where(and(eq(statFields.gameId, gameId), eq(statFields.fieldName, fieldName)));
    return { ok: true };
  });
}

export type AchievementWrite =
  | { ok: true; achievement: Achievement }
  | { ok: false; reason: ConfigRefusal }
  | { ok: false; reason: 'achievementTaken' }
  | { ok: false; reason: 'badCondition'; error: string };

export type NewAchievement = AchievementDefinition;

/**
 * Adds an achievement to a configured game. Its condition must compile against the game's stat
 * fields and the aggregates (`badCondition` carries the reason); names are unique per game in
 * any letter case, so players can tell what they earned.
 */
export async function addAchievement(db: Tx, gameId: string, input: NewAchievement): Promise<AchievementWrite> {
  changed(EVERYTHING);
  return db.transaction(async (tx): Promise<AchievementWrite> => {
    if (!(await lockConfig(tx, gameId))) return { ok: false, reason: (await gameExists(tx, gameId)) ? 'notConfigured' : 'gameNotFound' };
    const fields = await tx.select({ fieldName: statFields.fieldName }).from(statFields).where(eq(statFields.gameId, gameId));
    const compiled = compileCondition(input.condition, fields.map((f) => f.fieldName));
    if (!compiled.ok) return { ok: false, reason: 'badCondition', error: compiled.error };
    const [clash] = await tx
      .select({ id: achievements.id })
      .from(achievements)
      .where(and(eq(achievements.gameId, gameId), sql`lower(${achievements.name}) = lower(${input.name})`));
    if (clash) return { ok: false, reason: 'achievementTaken' };
    const [row] = await tx
      .insert(achievements)
      .values({ ...input, icon: input.icon || DEFAULT_ACHIEVEMENT_ICON, gameId, createdAt: nextStamp(achievements, gameId) })
      .returning();
    return { ok: true, achievement: presentAchievement(row!) };
  });
}

export type AchievementDelete = { ok: true; name: string } | { ok: false; reason: 'gameNotFound' | 'achievementNotFound' };

/** Removes an achievement of a game; players and teams who earned it lose it with it. */
export async function deleteAchievement(db: Tx, gameId: string, achievementId: string): Promise<AchievementDelete> {
  changed(EVERYTHING);
  const deleted = await db
    .delete(achievements)
    .where(and(eq(achievements.id, achievementId), eq(achievements.gameId, gameId)))
    .returning({ name: achievements.name });
  if (deleted[0]) return { ok: true, name: deleted[0].name };
  return { ok: false, reason: (await gameExists(db, gameId)) ? 'achievementNotFound' : 'gameNotFound' };
}
