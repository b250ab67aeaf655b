/**
 * A match's map veto (issue 58): what `GET /api/matches/{id}/veto` shows and what
 * `POST /api/matches/{id}/veto` takes, checked by the server and the match page's island alike.
 */
import { z } from 'zod';
import { MAP_NAME_MAX } from '../domain/map-pool.ts';
import { SLOTS } from '../domain/stage/format.ts';
import { VETO_MOVES, VETO_ROLES, VETO_STARTERS } from '../domain/veto.ts';
import type { ApiClient } from './client.ts';

const slot = z.enum(SLOTS);

export const vetoStepSchema = z.union([
  z.object({ action: z.enum(['ban', 'pick', 'side']), by: z.enum(VETO_ROLES) }).strict(),
  z.object({ action: z.literal('decider') }).strict(),
]);

/** A move: the starter's `roles` (A or B), a `ban` or `pick` of a map, a `side` (0 or 1 of the game's sides). */
export const vetoMoveInput = z
  .object({
    action: z.enum(['roles', 'ban', 'pick', 'side']),
    map: z.string().trim().min(1).max(MAP_NAME_MAX).optional(),
    side: z.union([z.literal(0), z.literal(1)]).optional(),
    role: z.enum(VETO_ROLES).optional(),
  })
  .strict();
export type VetoMoveInput = z.infer<typeof vetoMoveInput>;

export const vetoSchema = z.object({
  /** The maps it is played on, and the game's two starting sides. */
  pool: z.array(z.string()),
  sides: z.array(z.string()),
  bestOf: z.number().int(),
  sequence: z.array(vetoStepSchema),
  /** Who chooses Team A or B: the higher seed, or the coin toss's winner; null while a side is unknown. */
  starter: slot.nullable(),
  startedBy: z.enum(VETO_STARTERS),
  /** Which slot is Team A, once chosen. */
  roleA: slot.nullable(),
  remaining: z.array(z.string()),
  banned: z.array(z.object({ map: z.string(), slot })),
  /** The maps to be played, in order, with who picked each (null: the decider) and the side chosen on it. */
  maps: z.array(z.object({ map: z.string(), pickedBy: slot.nullable(), side: z.object({ slot, side: z.number().int() }).nullable() })),
  /** Whether the veto waits for both sides to check in to the match first (issue 58): `next` is null until then. */
  checkInFirst: z.boolean(),
  /** What is awaited and from whom; null once over or while the match waits for a side or its check-in. */
  next: z.object({ action: z.enum(['roles', 'ban', 'pick', 'side']), slot }).nullable(),
  done: z.boolean(),
  moves: z.array(
    z.object({
      number: z.number().int(),
      action: z.enum(VETO_MOVES),
      slot: slot.nullable(),
      map: z.string().nullable(),
      side: z.number().int().nullable(),
      role: z.enum(VETO_ROLES).nullable(),
      at: z.string(),
    }),
  ),
});
export type VetoView = z.infer<typeof vetoSchema>;

export const vetoAnswer = z.object({ message: z.string(), veto: vetoSchema });

export const getVeto = (api: ApiClient, matchId: string) => api.get(`matches/${encodeURIComponent(matchId)}/veto`).json<VetoView>();
export const moveVeto = (api: ApiClient, matchId: string, body: VetoMoveInput) =>
  api.post(`matches/${encodeURIComponent(matchId)}/veto`, { json: body }).json<z.infer<typeof vetoAnswer>>();
