/**
 * The control room (issue 57): what needs a tournament's organisers now, as one answer
 * (`GET /api/tournaments/{id}/control`). The server builds it with these shapes and the island
 * reads the same types.
 */
import { z } from 'zod';
import { APPLICATION_STATUSES } from '../domain/application-rules.ts';
import { SLOTS, STAGE_FORMATS } from '../domain/stage/format.ts';
import { bracketParticipantSchema } from './bracket.ts';
import type { ApiClient } from './client.ts';
import { gameScoreSchema, matchSchema } from './stages.ts';

/** Something a side said about its match: a reported score, a dispute's complaint, a call for help. */
const claimSchema = z.object({
  side: z.enum(SLOTS).nullable(),
  user: z.string().nullable(),
  scoreA: z.number().int().nullable(),
  scoreB: z.number().int().nullable(),
  games: z.array(gameScoreSchema),
  reason: z.string(),
  at: z.string(),
});
export type Claim = z.infer<typeof claimSchema>;

export const controlMatchSchema = z.object({
  match: matchSchema,
  stage: z.object({ _id: z.string(), name: z.string(), number: z.number().int(), format: z.enum(STAGE_FORMATS) }),
  /** Each side's latest report since the match's last result (both when the sides disagree). */
  reports: z.object({ a: claimSchema.nullable(), b: claimSchema.nullable() }),
  /** The latest complaint of a dispute, if any. */
  dispute: claimSchema.nullable(),
  /** The call for help not answered yet, if any. */
  call: claimSchema.nullable(),
  /** When a waiting report is confirmed by itself. */
  confirmBy: z.string().nullable(),
});
export type ControlMatch = z.infer<typeof controlMatchSchema>;

export const checkInEntrySchema = z.object({
  applicationId: z.string(),
  name: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  checkedInAt: z.string().nullable(),
});
export type CheckInEntry = z.infer<typeof checkInEntrySchema>;

export const controlRoomSchema = z.object({
  tournament: z.object({ _id: z.string(), title: z.string(), status: z.string(), date: z.string(), soloOnly: z.boolean(), drawn: z.boolean() }),
  /** The competition's version: it moves with every change of a match. */
  version: z.number().int(),
  participants: z.array(bracketParticipantSchema),
  disputes: z.array(controlMatchSchema),
  /** Reports waiting for the other side, the soonest confirmed first. */
  awaiting: z.array(controlMatchSchema),
  calls: z.array(controlMatchSchema),
  /** Ready matches nobody reported yet, the earliest scheduled first. */
  ready: z.array(controlMatchSchema),
  /** Check-in, when the tournament asks for it: its window and everyone it concerns, those missing first. */
  checkIn: z
    .object({
      phase: z.enum(['notOpen', 'open', 'closed']),
      opensAt: z.string(),
      closesAt: z.string(),
      closedAt: z.string().nullable(),
      entries: z.array(checkInEntrySchema),
    })
    .nullable(),
});
export type ControlRoom = z.infer<typeof controlRoomSchema>;

export const getControlRoom = (api: ApiClient, tournamentId: string) =>
  api.get(`tournaments/${encodeURIComponent(tournamentId)}/control`, { cache: 'no-store' }).json<ControlRoom>();
