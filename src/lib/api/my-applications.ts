import { z } from 'zod';
import { LIVE_APPLICATION_STATUSES } from '../domain/application-rules.ts';
import type { ApiClient } from './client.ts';

// A module of its own, without the catalog: the home page's plain script reads it for a signed-in
// reader, and the full catalog stays off that page (issue 11).

/**
 * The tournaments not finished where the reader has a live application (`GET /api/users/me/applications`,
 * issue 57): their own solo one or one of their teams'. Cards say «Заявку подано» there, not «Подати заявку».
 */
export const myApplicationsSchema = z.object({
  applications: z.array(z.object({ tournament: z.string(), status: z.enum(LIVE_APPLICATION_STATUSES) })),
});
export type MyApplications = z.infer<typeof myApplicationsSchema>;

export const getMyApplications = (api: ApiClient) => api.get('users/me/applications', { cache: 'no-store' }).json<MyApplications>();
