/**
 * Players' reports of a match (issue 22): the bodies of report, confirm and dispute, checked by the
 * server and the match page's island with the same schemas, and the island's calls.
 */
import { z } from 'zod';
import { MAX_BEST_OF } from '../domain/stage/format.ts';
import type { ApiClient } from './client.ts';
import { DISPUTE_REASON_MAX } from './limits.ts';
import { gameScoreInput, type MatchState } from './stages.ts';

const score = z.number().int().min(0).max(9999);
/** The match's version the player saw: a report or an answer to one based on an older copy is refused. */
const version = z.number().int().min(0).optional();

export const reportInput = z
  .object({
    scoreA: score,
    scoreB: score,
    games: z.array(gameScoreInput).max(MAX_BEST_OF).optional(),
    version,
  })
  .strict();
export type ReportInput = z.infer<typeof reportInput>;

export const confirmInput = z.object({ version }).strict();

export const disputeInput = z
  .object({
    reason: z.string().trim().min(1).max(DISPUTE_REASON_MAX),
    version,
  })
  .strict();
export type DisputeInput = z.infer<typeof disputeInput>;

export type ReportAnswer = { message: string; state: MatchState };

/** `POST /matches/{id}/call` (issue 57): what the side needs from the organisers; may be empty. */
export const callInput = z.object({ reason: z.string().trim().max(DISPUTE_REASON_MAX).default('') }).strict();
export const callSaved = z.object({ message: z.string(), calledAt: z.string() });

export const callOrganisers = (api: ApiClient, matchId: string, reason: string) =>
  api.post(`matches/${encodeURIComponent(matchId)}/call`, { json: { reason } }).json<z.infer<typeof callSaved>>();
export const answerCall = (api: ApiClient, matchId: string) => api.delete(`matches/${encodeURIComponent(matchId)}/call`).json<{ message: string }>();

export const reportScore = (api: ApiClient, matchId: string, body: ReportInput) => api.post(`matches/${matchId}/report`, { json: body }).json<ReportAnswer>();

export const confirmReport = (api: ApiClient, matchId: string, matchVersion?: number) =>
  api.post(`matches/${matchId}/confirm`, { json: matchVersion === undefined ? {} : { version: matchVersion } }).json<ReportAnswer>();

export const disputeReport = (api: ApiClient, matchId: string, body: DisputeInput) =>
  api.post(`matches/${matchId}/dispute`, { json: body }).json<ReportAnswer>();

export const getMatch = (api: ApiClient, matchId: string) => api.get(`matches/${matchId}`).json<MatchState>();
