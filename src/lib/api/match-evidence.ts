/**
 * A match's screenshots (issue 58): what `GET /api/matches/{id}/evidence` lists and
 * `POST /api/matches/{id}/evidence` answers, and the calls the match page's island makes. The
 * pictures are read with the reader's token (`evidencePicture`): an <img> cannot send it.
 */
import { z } from 'zod';
import { SLOTS } from '../domain/stage/format.ts';
import type { ApiClient } from './client.ts';

export const evidenceSchema = z.object({
  _id: z.string(),
  /** The picture's address under the site (`/api/matches/{id}/evidence/{evidenceId}`), read with a token. */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  /** Who added it; null once their account is gone. */
  uploader: z.object({ _id: z.string(), username: z.string() }).nullable(),
  /** The uploader's side; null for an organiser of neither side. */
  slot: z.enum(SLOTS).nullable(),
  createdAt: z.string(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

export const evidenceListSchema = z.object({
  evidence: z.array(evidenceSchema),
  /** The most pictures the match holds. */
  max: z.number().int(),
});
export type EvidenceList = z.infer<typeof evidenceListSchema>;

export const evidenceAnswer = z.object({ message: z.string(), evidence: z.array(evidenceSchema) });

const path = (matchId: string) => `matches/${encodeURIComponent(matchId)}/evidence`;

export const listEvidence = (api: ApiClient, matchId: string) => api.get(path(matchId), { cache: 'no-cache' }).json<EvidenceList>();

/** Sends up to four pictures as `files`, one multipart upload: all are kept, or none. */
export function uploadEvidence(api: ApiClient, matchId: string, files: readonly File[]) {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  // Four pictures of 5 MB take a while over a phone's connection.
  return api.post(path(matchId), { body: form, timeout: 120_000 }).json<z.infer<typeof evidenceAnswer>>();
}

/** The picture's bytes, for an object URL. */
export const evidencePicture = (api: ApiClient, matchId: string, evidenceId: string) => api.get(`${path(matchId)}/${encodeURIComponent(evidenceId)}`).blob();
