import { z } from 'zod';
import { GAME_NAME_MAX, IMAGE_ADDRESS_MAX } from './limits.ts';
import { isSafeAddress } from '../domain/address.ts';
import { hasDuplicateMap, MAP_NAME_MAX, mapName, mapPoolProblem, SIDE_NAME_MAX } from '../domain/map-pool.ts';
import { MAX_POOL_MAPS } from '../domain/veto.ts';
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

/** A map pool (issue 58): up to 15 names, none twice in any case; stored trimmed, spaces collapsed. */
export const mapPoolInput = z
  .array(z.string().max(MAP_NAME_MAX).transform(mapName))
  .max(MAX_POOL_MAPS)
  .refine((maps) => maps.every(Boolean), { error: () => t('maps.emptyName') })
  .refine((maps) => !hasDuplicateMap(maps), { error: () => t('maps.duplicate') });

/** `PUT /games/{id}/maps`: the game's pool and the names of its two starting sides (both, when there are maps). */
export const gameMapsInput = z
  .object({
    maps: mapPoolInput,
    sides: z.array(z.string().max(SIDE_NAME_MAX).transform(mapName)).max(2),
  })
  .strict()
  .refine(({ maps, sides }) => mapPoolProblem(maps, sides) === null, { error: () => t('maps.sidesMissing'), path: ['sides'] });
export type GameMapsInput = z.infer<typeof gameMapsInput>;

/** A game's map pool, as `GET /games/{id}/maps` shows it and the veto plays it. */
export const gameMapsSchema = z.object({ maps: z.array(z.string()), sides: z.array(z.string()) });
export type GameMaps = z.infer<typeof gameMapsSchema>;

export const getGameMaps = (api: ApiClient, id: string) => api.get(`games/${encodeURIComponent(id)}/maps`).json<GameMaps>();
export const saveGameMaps = (api: ApiClient, id: string, body: GameMapsInput) =>
  api.put(`games/${encodeURIComponent(id)}/maps`, { json: body }).json<{ message: string; maps: GameMaps }>();

export const gameSaved = z.object({ message: z.string(), game: gameSchema });
export type GameSaved = z.infer<typeof gameSaved>;

export const listGames = (api: ApiClient) => api.get('games').json<Game[]>();
export const createGame = (api: ApiClient, body: GameInput) => api.post('games', { json: body }).json<GameSaved>();
export const updateGame = (api: ApiClient, id: string, body: GameInput) =>
  api.put(`games/${encodeURIComponent(id)}`, { json: body }).json<GameSaved>();
export const deleteGame = (api: ApiClient, id: string) => api.delete(`games/${encodeURIComponent(id)}`).json<{ message: string }>();
