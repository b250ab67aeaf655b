import { z } from 'zod';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { EMAIL_MAX } from './limits.ts';

/*
 * A tournament's staff, its co-organisers (issue 23, decision 016): the admin names and removes
 * them; anyone reads who they are.
 */

/** `POST /tournaments/{id}/staff`: who to add — a user id, a nickname or an email address. */
export const staffInput = z.object({
  user: z
    .string()
    .trim()
    .refine((v) => v.length > 0, { error: () => t('staff.enterUser') })
    .refine((v) => v.length <= EMAIL_MAX, { error: () => t('staff.userTooLong', { max: EMAIL_MAX }) })
    .prefault(''),
});
export type StaffInput = z.infer<typeof staffInput>;

/** One organiser as anyone may see them: no email. */
export const staffMemberSchema = z.object({ _id: z.string(), username: z.string(), avatar: z.string() });
export type StaffMember = z.infer<typeof staffMemberSchema>;

export const staffListSchema = z.array(staffMemberSchema);

export const staffSaved = z.object({ message: z.string(), staff: staffListSchema });
export type StaffSaved = z.infer<typeof staffSaved>;

const path = (tournamentId: string) => `tournaments/${encodeURIComponent(tournamentId)}/staff`;

export const getStaff = (api: ApiClient, tournamentId: string) => api.get(path(tournamentId)).json<StaffMember[]>();
export const addStaff = (api: ApiClient, tournamentId: string, body: StaffInput) => api.post(path(tournamentId), { json: body }).json<StaffSaved>();
export const removeStaff = (api: ApiClient, tournamentId: string, userId: string) =>
  api.delete(`${path(tournamentId)}/${encodeURIComponent(userId)}`).json<StaffSaved>();
