/**
 * A match's room (issue 58): what its people read of it (`GET /api/matches/{id}/room`), their
 * check-in and the lobby details (`PUT /api/matches/{id}/lobby`), checked by the server and the
 * room's island alike.
 */
import { z } from 'zod';
import { CHECK_IN_OUTCOMES } from '../domain/match-day.ts';
import { SLOTS } from '../domain/stage/format.ts';
import type { ApiClient } from './client.ts';

/** The longest lobby details: an address, a password and a line of instructions fit with room to spare. */
export const LOBBY_MAX = 500;

export const lobbyInput = z
  .object({
    /** Empty clears them. Lines are kept: an address and a password read best on lines of their own. */
    text: z.string().trim().max(LOBBY_MAX),
  })
  .strict();
export type LobbyInput = z.infer<typeof lobbyInput>;

export const checkInSchema = z.object({
  /** When the time runs out (ISO); null while the match is not ready. */
  by: z.string().nullable(),
  a: z.boolean(),
  b: z.boolean(),
  outcome: z.enum(CHECK_IN_OUTCOMES).nullable(),
});
export type CheckInState = z.infer<typeof checkInSchema>;

export const roomSchema = z.object({
  /** The reader's side, or null for an organiser of neither. */
  side: z.enum(SLOTS).nullable(),
  organiser: z.boolean(),
  lobby: z.object({
    text: z.string(),
    /** When and by whom they were last set; null before. */
    at: z.string().nullable(),
    by: z.string().nullable(),
    /** Whether the reader may set them: an organiser, or the host side's people when the higher seed hosts. */
    editable: z.boolean(),
  }),
  /** The check-in per match, or null when the tournament asks for none. */
  checkIn: checkInSchema.nullable(),
});
export type RoomView = z.infer<typeof roomSchema>;

export const getRoom = (api: ApiClient, matchId: string) => api.get(`matches/${encodeURIComponent(matchId)}/room`).json<RoomView>();
export const checkInToMatch = (api: ApiClient, matchId: string) =>
  api.post(`matches/${encodeURIComponent(matchId)}/check-in`).json<{ message: string; both: boolean }>();
export const putLobby = (api: ApiClient, matchId: string, body: LobbyInput) =>
  api.put(`matches/${encodeURIComponent(matchId)}/lobby`, { json: body }).json<{ message: string }>();
