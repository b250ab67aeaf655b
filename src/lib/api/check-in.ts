import { z } from 'zod';
import { APPLICATION_STATUSES } from '../domain/application-rules.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { isSupportedMoment } from './input.ts';

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

/** `PATCH /tournaments/{id}/check-in`: an organiser moves check-in's close later. */
export const checkInExtendInput = z
  .object({ closesAt: z.iso.datetime({ offset: true }).refine(isSupportedMoment, { error: () => t('validation.invalidBody') }) })
  .strict();
export type CheckInExtendInput = z.infer<typeof checkInExtendInput>;
export const checkInExtended = z.object({ message: z.string(), closesAt: z.string() });

export const extendCheckIn = (api: ApiClient, tournamentId: string, closesAt: string) =>
  api.patch(path(tournamentId), { json: { closesAt } }).json<z.infer<typeof checkInExtended>>();
