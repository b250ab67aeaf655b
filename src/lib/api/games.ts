import { z } from 'zod';
import { GAME_NAME_MAX, IMAGE_ADDRESS_MAX } from './limits.ts';
import { isSafeAddress } from '../domain/address.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';

/** A game as the API shows it (SPEC §3 Game). */
export const gameSchema = z.object({
  _id: z.string(),
  name: z.string(),
  image: z.string().nullable(),
});
export type Game = z.infer<typeof gameSchema>;

/**
 * A picture address for a game or tournament: an absolute http(s) URL or a path on this server.
 * An empty string or null removes the picture (the default one is shown then).
 */
export const imageInput = z
  .string()
  .trim()
  .max(IMAGE_ADDRESS_MAX)
  .refine((value) => value === '' || isSafeAddress(value), { error: () => t('image.invalid') })
  .nullable();

export const gameInput = z.object({
  name: z.string().trim().min(1).max(GAME_NAME_MAX),
  image: imageInput.optional(),
});
export type GameInput = z.infer<typeof gameInput>;

export const gameSaved = z.object({ message: z.string(), game: gameSchema });
export type GameSaved = z.infer<typeof gameSaved>;

export const listGames = (api: ApiClient) => api.get('games').json<Game[]>();
export const createGame = (api: ApiClient, body: GameInput) => api.post('games', { json: body }).json<GameSaved>();
export const updateGame = (api: ApiClient, id: string, body: GameInput) =>
  api.put(`games/${encodeURIComponent(id)}`, { json: body }).json<GameSaved>();
export const deleteGame = (api: ApiClient, id: string) => api.delete(`games/${encodeURIComponent(id)}`).json<{ message: string }>();
