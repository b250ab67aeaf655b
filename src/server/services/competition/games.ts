import { asc, count, eq } from 'drizzle-orm';
import type { Game } from '../../../lib/api/games.ts';
import type { Tx } from '../../db/client.ts';
import { games, tournaments } from '../../db/schema/index.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../db-errors.ts';
import { changed, EVERYTHING } from '../live/changes.ts';

type GameRow = typeof games.$inferSelect;

export const presentGame = (row: GameRow): Game => ({ _id: row.id, name: row.name, image: row.image });

/** Every game, by name. */
export async function listGames(db: Tx): Promise<Game[]> {
  const rows = await db.select().from(games).orderBy(asc(games.name));
  return rows.map(presentGame);
}

export async function findGame(db: Tx, id: string): Promise<GameRow | undefined> {
  const [row] = await db.select().from(games).where(eq(games.id, id));
  return row;
}

export type GameWrite = { ok: true; game: Game } | { ok: false; reason: 'nameTaken' | 'notFound' };

const cleanImage = (image: string | null | undefined) => (image ? image : null);

export async function createGame(db: Tx, input: { name: string; image?: string | null | undefined }): Promise<GameWrite> {
  changed(EVERYTHING);
  try {
    const [row] = await db.insert(games).values({ name: input.name, image: cleanImage(input.image) }).returning();
    return { ok: true, game: presentGame(row!) };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'nameTaken' };
    throw error;
  }
}

/** Renames a game; its picture changes only when `image` is given (null or '' removes it). */
export async function updateGame(db: Tx, id: string, input: { name: string; image?: string | null | undefined }): Promise<GameWrite> {
  changed(EVERYTHING);
  try {
    const [row] = await db
      .update(games)
      .set({ name: input.name, ...(input.image !== undefined ? { image: cleanImage(input.image) } : {}) })
      .where(eq(games.id, id))
      .returning();
    return row ? { ok: true, game: presentGame(row) } : { ok: false, reason: 'notFound' };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'nameTaken' };
    throw error;
  }
}

export type GameDelete = { ok: true } | { ok: false; reason: 'notFound' } | { ok: false; reason: 'hasTournaments'; tournaments: number };

/**
 * Deletes a game that no tournament uses. A game with tournaments is refused rather than taking
 * them along: tournaments carry applications, winners and history an admin should remove knowingly.
 */
export async function deleteGame(db: Tx, id: string): Promise<GameDelete> {
  changed(EVERYTHING);
  const [used] = await db.select({ n: count() }).from(tournaments).where(eq(tournaments.gameId, id));
  if (used && used.n > 0) return { ok: false, reason: 'hasTournaments', tournaments: used.n };
  try {
    const deleted = await db.delete(games).where(eq(games.id, id)).returning({ id: games.id });
    return deleted.length > 0 ? { ok: true } : { ok: false, reason: 'notFound' };
  } catch (error) {
    // A tournament was created for this game a moment ago: the foreign key refuses, and so do we.
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'hasTournaments', tournaments: 1 };
    throw error;
  }
}

/** A game's map pool (issue 58), or null for an unknown game. */
export async function readGameMaps(db: Tx, id: string): Promise<{ maps: string[]; sides: string[] } | null> {
  const [row] = await db.select({ maps: games.maps, sides: games.sides }).from(games).where(eq(games.id, id));
  return row ?? null;
}

/** Saves a game's map pool: the veto of every tournament playing its pool changes, so everything shown may have. */
export async function saveGameMaps(db: Tx, id: string, input: { maps: string[]; sides: string[] }): Promise<{ maps: string[]; sides: string[] } | null> {
  changed(EVERYTHING);
  const [row] = await db
    .update(games)
    .set({ maps: input.maps, sides: input.maps.length > 0 ? input.sides : [] })
    .where(eq(games.id, id))
    .returning({ maps: games.maps, sides: games.sides });
  return row ?? null;
}
