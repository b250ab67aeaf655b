import { z } from 'zod';
import { SEEDINGS, type Bracket } from '../domain/bracket.ts';
import { PARTICIPANT_TYPES } from '../domain/participant.ts';
import { getIfChanged, type ApiClient } from './client.ts';

const participantId = z.string().min(1).max(64).nullable();

/** A bracket as the API answers it; its shape is the domain's (`Bracket`), which it must match. */
export const bracketSchema = z.array(
  z.object({
    round: z.number().int(),
    matches: z.array(
      z.object({
        a: z.string().nullable(),
        b: z.string().nullable(),
        winner: z.string().nullable(),
        loser: z.string().nullable(),
        comment: z.string(),
      }),
    ),
  }),
) satisfies z.ZodType<Bracket>;

/** A saved bracket (SPEC §3): sized for up to 128 participants. */
export const bracketInput = z
  .array(
    z.object({
      round: z.number().int().min(1).max(8),
      matches: z
        .array(z.object({ a: participantId, b: participantId, winner: participantId, loser: participantId, comment: z.string().max(500) }))
        .min(1)
        .max(64),
    }),
  )
  .max(8) satisfies z.ZodType<Bracket>;

export const bracketSaveInput = z.object({
  bracket: bracketInput,
  /** The version this edit was based on; omitted, the save is accepted as is. */
  version: z.number().int().min(0).optional(),
});
export type BracketSaveInput = z.infer<typeof bracketSaveInput>;

export const bracketCreateInput = z.object({
  seeding: z.enum(SEEDINGS).default('order'),
  /** Needed to draw again over a bracket that already has results. */
  replace: z.boolean().default(false),
});
export type BracketCreateInput = z.input<typeof bracketCreateInput>;

/** A participant as brackets and stages draw one; `type` says whose profile the name links to (issue 23). */
export const bracketParticipantSchema = z.object({ _id: z.string(), name: z.string(), image: z.string().nullable(), type: z.enum(PARTICIPANT_TYPES) });
export type BracketParticipant = z.infer<typeof bracketParticipantSchema>;

export const bracketStateSchema = z.object({
  tournament: z.string(),
  bracket: bracketInput,
  version: z.number().int(),
  /** Approved participants with names and pictures, in application order. */
  participants: z.array(bracketParticipantSchema),
  soloOnly: z.boolean(),
});
export type BracketState = z.infer<typeof bracketStateSchema>;

export const bracketSavedSchema = bracketStateSchema.extend({ message: z.string() });

/** The current bracket; `etag` from the last answer makes an unchanged poll cost a 304. */
export async function getBracket(api: ApiClient, tournamentId: string, etag?: string, fresh = false): Promise<{ state: BracketState | null; etag: string | null }> {
  const answer = await getIfChanged<BracketState>(api, `tournaments/${tournamentId}/bracket`, { etag: etag ?? null, fresh });
  return { state: answer.changed ? answer.body : null, etag: answer.etag };
}

export const saveBracket = (api: ApiClient, tournamentId: string, body: BracketSaveInput) =>
  api.patch(`tournaments/${tournamentId}/bracket`, { json: body }).json<z.infer<typeof bracketSavedSchema>>();

export const createTournamentBracket = (api: ApiClient, tournamentId: string, body: BracketCreateInput) =>
  api.post(`tournaments/${tournamentId}/bracket`, { json: body }).json<z.infer<typeof bracketSavedSchema>>();
