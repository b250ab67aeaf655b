import { z } from 'zod';
import { APPLICATION_STATUSES } from '../domain/application-rules.ts';
import { NOTICE_KINDS } from '../domain/match-day.ts';
import type { ApiClient } from './client.ts';

export const notificationActionSchema = z.object({ label: z.string(), type: z.enum(['accept', 'reject']) });

/** SPEC §3 Notification. */
export const notificationSchema = z.object({
  _id: z.string(),
  text: z.string(),
  date: z.string(),
  read: z.boolean(),
  actions: z.array(notificationActionSchema),
  actionType: z.enum(['acceptTeamInvite', 'declineTeamInvite', 'acceptTournamentInvite', 'declineTournamentInvite']).nullable(),
  payload: z.object({
    applicationId: z.string().optional(),
    teamId: z.string().optional(),
    tournamentId: z.string().optional(),
  }),
  /**
   * A match-day notice's kind (issue 22), its text worded in the reader's language. Absent on
   * other notifications, which keep SPEC §3's shape exactly.
   */
  kind: z.enum(NOTICE_KINDS).optional(),
  /** The site path the notice is about (`/matches/{id}`), which the bell links to; absent when none. */
  link: z.string().optional(),
});
export type Notification = z.infer<typeof notificationSchema>;
export type NotificationAction = z.infer<typeof notificationActionSchema>;

export const getNotifications = (api: ApiClient) => api.get('users/me/notifications').json<Notification[]>();
export const markAllNotificationsRead = (api: ApiClient) => api.post('users/me/notifications/read').json<{ message: string }>();

// ------------------------------------------------------------- tournament invites

/** POST /applications/invite (admin): a player for a solo tournament, a team for a team one. */
export const tournamentInviteInput = z.object({
  tournament: z.uuid(),
  user: z.uuid().optional(),
  team: z.uuid().optional(),
});
export type TournamentInviteInput = z.infer<typeof tournamentInviteInput>;

/** The application a tournament invite created or answered (SPEC §3 Application). */
export const invitedApplicationSchema = z.object({
  _id: z.string(),
  tournament: z.string(),
  user: z.string(),
  team: z.string().nullable(),
  status: z.enum(APPLICATION_STATUSES),
  comment: z.string(),
});
export type InvitedApplication = z.infer<typeof invitedApplicationSchema>;

export const invitedApplicationMessageSchema = z.object({ message: z.string(), application: invitedApplicationSchema });

export const inviteToTournament = (api: ApiClient, body: TournamentInviteInput) =>
  api.post('applications/invite', { json: body }).json<z.infer<typeof invitedApplicationMessageSchema>>();
export const acceptTournamentInvite = (api: ApiClient, applicationId: string) =>
  api.patch(`applications/${applicationId}/accept-invite`).json<z.infer<typeof invitedApplicationMessageSchema>>();
export const rejectTournamentInvite = (api: ApiClient, applicationId: string) =>
  api.patch(`applications/${applicationId}/reject-invite`).json<z.infer<typeof invitedApplicationMessageSchema>>();
// A team's invitation, answered from the bell too, is a teams call (lib/api/teams.ts): the bell
// loads that module only when one is answered, as its validation texts need the whole catalog.
