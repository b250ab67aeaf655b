import { z } from 'zod';
import { APPLICATION_STATUSES } from '../domain/application-rules.ts';
import type { ApiClient } from './client.ts';

/** `POST`/`DELETE /tournaments/{id}/check-in`: empty for the caller's own application; an admin may name anyone's. */
export const checkInInput = z.object({ applicationId: z.uuid().optional() });
export type CheckInInput = z.infer<typeof checkInInput>;

export const checkInSaved = z.object({
  message: z.string(),
  application: z.object({ _id: z.string(), status: z.enum(APPLICATION_STATUSES), checkedInAt: z.string().nullable() }),
});
export type CheckInSaved = z.infer<typeof checkInSaved>;

const path = (tournamentId: string) => `tournaments/${encodeURIComponent(tournamentId)}/check-in`;

/** Checks in (or, with `checkedIn: false`, out) the caller's application, or the one an admin names. */
export const setCheckIn = (api: ApiClient, tournamentId: string, checkedIn: boolean, body: CheckInInput = {}) =>
  (checkedIn ? api.post(path(tournamentId), { json: body }) : api.delete(path(tournamentId), { json: body })).json<CheckInSaved>();
