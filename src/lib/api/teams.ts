import { z } from 'zod';
import { t } from '../i18n/index.ts';
import { hasInvisibleCharacters, normalizeName } from '../domain/names.ts';
import { isHttpAddress } from '../domain/address.ts';
import { hasControlCharacters, TEAM_NAME_MAX } from '../domain/team.ts';
import { getIfChanged, type ApiClient } from './client.ts';

/** The longest team logo link. */
export const LOGO_URL_MAX = 500;
/** The longest invite query: a nickname or an email address (254, the longest address). */
export const QUERY_MAX = 254;

/** A player as a team shows one: member, captain or invited player (SPEC §3 Team). */
export const teamPersonSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  /** Always set: the upload, or a picture generated from the name. */
  avatar: z.string(),
});
export type TeamPerson = z.infer<typeof teamPersonSchema>;

/** An open invite: the invited player (`_id` is the player's id) and the invite's own id. */
export const teamInviteSchema = teamPersonSchema.extend({ inviteId: z.string(), createdAt: z.string() });
export type TeamInvite = z.infer<typeof teamInviteSchema>;

export const teamSchema = z.object({
  _id: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  captain: teamPersonSchema,
  /** In the order they joined; the captain is first. */
  members: z.array(teamPersonSchema),
  invites: z.array(teamInviteSchema),
  createdAt: z.string(),
});
export type Team = z.infer<typeof teamSchema>;

export const teamMessageSchema = z.object({ message: z.string(), team: teamSchema });
export type TeamMessage = z.infer<typeof teamMessageSchema>;

const teamName = z
  .string()
  .refine((v) => !hasInvisibleCharacters(v), { error: () => t('team.invisibleCharacters') })
  .overwrite(normalizeName)
  .refine((v) => v.length > 0, { error: () => t('team.enterName') })
  .refine((v) => v.length <= TEAM_NAME_MAX, { error: () => t('team.nameTooLong', { max: TEAM_NAME_MAX }) })
  .refine((v) => !hasControlCharacters(v), { error: () => t('team.invalidCharacters') })
  .prefault('');

const logoLink = z
  .string()
  .trim()
  .refine((v) => v.length <= LOGO_URL_MAX, { error: () => t('team.logoTooLong', { max: LOGO_URL_MAX }) })
  .refine((v) => v === '' || isHttpAddress(v), { error: () => t('team.logoNotHttp') });

/** POST /teams: a name (required, unique) and an optional http(s) logo link. */
export const createTeamInput = z.object({
  name: teamName,
  logoUrl: logoLink.nullish(),
});
export type CreateTeamInput = z.infer<typeof createTeamInput>;

/** PATCH /teams/{id}/logo. */
export const logoInput = z.object({
  logoUrl: logoLink.refine((v) => v !== '', { error: () => t('team.enterLogo') }).prefault(''),
});
export type LogoInput = z.infer<typeof logoInput>;

/** POST /teams/{id}/invite: the player's nickname or email. */
export const inviteInput = z.object({
  query: z
    .string()
    .trim()
    .refine((v) => v.length > 0, { error: () => t('team.enterNick') })
    .refine((v) => v.length <= QUERY_MAX, { error: () => t('team.queryTooLong', { max: QUERY_MAX }) })
    .prefault(''),
});
export type InviteInput = z.infer<typeof inviteInput>;

/** GET /teams/mine; with the ETag of the last answer, a bodiless 304 while nothing in the user's teams changed. */
export const getMyTeams = (api: ApiClient, etag: string | null = null) => getIfChanged<Team[]>(api, 'teams/mine', { etag });
export const createTeam = (api: ApiClient, body: CreateTeamInput) => api.post('teams', { json: body }).json<TeamMessage>();
export const changeTeamLogo = (api: ApiClient, teamId: string, body: LogoInput) =>
  api.patch(`teams/${teamId}/logo`, { json: body }).json<TeamMessage>();
export const inviteToTeam = (api: ApiClient, teamId: string, body: InviteInput) =>
  api.post(`teams/${teamId}/invite`, { json: body }).json<TeamMessage>();
export const removeTeamInvite = (api: ApiClient, teamId: string, inviteId: string) =>
  api.delete(`teams/${teamId}/invites/${inviteId}`).json<TeamMessage>();
export const removeTeamMember = (api: ApiClient, teamId: string, memberId: string) =>
  api.delete(`teams/${teamId}/members/${memberId}`).json<TeamMessage>();
/** The invited player joins the team (from the bell: it loads this module only then). */
export const acceptTeamInvite = (api: ApiClient, teamId: string) => api.post(`teams/${teamId}/accept-invite`).json<TeamMessage>();
export const rejectTeamInvite = (api: ApiClient, teamId: string) => api.post(`teams/${teamId}/reject-invite`).json<{ message: string }>();
