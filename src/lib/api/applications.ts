import { z } from 'zod';
import { APPLICATION_STATUSES, APPLICATION_VERDICTS, type ApplicationStatus, type Review } from '../domain/application-rules.ts';
import type { ApiClient } from './client.ts';
import { pageParams, pageQuery, readPage, type Page } from './paging.ts';
import { tournamentApplicationSchema } from './tournaments.ts';

/** Solo: `tournament` only; team: `tournament` and `team` (SPEC §7 Applications). */
export const applicationInput = z.object({
  tournament: z.uuid(),
  team: z.uuid().nullish(),
});
export type ApplicationInput = z.infer<typeof applicationInput>;

export const applicationStatusInput = z.object({
  status: z.enum(APPLICATION_VERDICTS),
  comment: z.string().trim().max(500).optional(),
});
export type ApplicationStatusInput = z.infer<typeof applicationStatusInput>;

export const applicationListQuery = z.object({
  status: z.enum(APPLICATION_STATUSES).optional(),
  tournament: z.uuid().optional(),
}).extend(pageQuery);

/** An application in the admin list: the tournament's title and state come along. */
export const adminApplicationSchema = tournamentApplicationSchema.extend({
  tournamentTitle: z.string(),
  tournamentStatus: z.string(),
  soloOnly: z.boolean(),
  /** Its competition is drawn (issue 57): the lineup is fixed, so approving is no longer offered. */
  tournamentDrawn: z.boolean(),
});
export type AdminApplication = z.infer<typeof adminApplicationSchema>;

export const applicationSaved = z.object({ message: z.string(), application: tournamentApplicationSchema });
export type ApplicationSaved = z.infer<typeof applicationSaved>;

const path = (id: string) => `applications/${encodeURIComponent(id)}`;

export const apply = (api: ApiClient, body: ApplicationInput) => api.post('applications', { json: body }).json<ApplicationSaved>();
export async function listApplications(
  api: ApiClient,
  query: { status?: ApplicationStatus; tournament?: string; limit?: number; offset?: number } = {},
): Promise<Page<AdminApplication>> {
  const searchParams: Record<string, string> = pageParams(query);
  if (query.status) searchParams.status = query.status;
  if (query.tournament) searchParams.tournament = query.tournament;
  return readPage<AdminApplication>(await api.get('applications', { searchParams }));
}
export const setApplicationStatus = (api: ApiClient, id: string, body: ApplicationStatusInput) =>
  api.patch(`${path(id)}/status`, { json: body }).json<ApplicationSaved>();
export const deleteApplication = (api: ApiClient, id: string) => api.delete(path(id)).json<{ message: string }>();
/** An admin's review of an application: approve or reject it, or delete it. */
export const reviewApplication = (api: ApiClient, id: string, to: Review): Promise<{ message: string }> =>
  to === 'deleted' ? deleteApplication(api, id) : setApplicationStatus(api, id, { status: to });
