import { z } from '@hono/zod-openapi';
import { createTeamInput, inviteInput, logoInput, teamMessageSchema, teamSchema } from '../../../lib/api/teams.ts';
import { TEAM_MAX_MEMBERS } from '../../../lib/domain/team.ts';
import { t } from '../../../lib/i18n/index.ts';
import { type Database, type GuardedVars, pathGuard } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import type { Limit } from '../../services/rate-limit.ts';
import {
  answerInvite,
  createTeam,
  findTeam,
  invitePlayer,
  isEmailQuery,
  presentTeam,
  presentTeams,
  removeMember,
  setTeamLogo,
  teamsOf,
  withdrawInvite,
  type TeamRow,
} from '../../services/teams/teams.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

const tags = ['Команди'];

/** New teams one account may make in an hour: 30 teams in a second once flooded a player with invites. */
const TEAMS_CREATED_LIMIT: Limit = { max: 5, windowSeconds: 60 * 60 };
/** Invites one captain may send in an hour, over all their teams. */
const INVITES_SENT_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };
const teamParam = z.object({ id: z.uuid() });
const teamIdParam = z.object({ teamId: z.uuid() });
const inviteParam = z.object({ id: z.uuid(), inviteId: z.uuid() });
const memberParam = z.object({ id: z.uuid(), memberId: z.uuid() });

/** The team, or 404. */
async function requireTeam(db: Database, id: string): Promise<TeamRow> {
  const team = await findTeam(db, id);
  if (!team) fail(404, 'team.notFound');
  return team;
}

/** The team when the signed-in caller captains it: 404 for no team, 403 for anyone else (SPEC §6). */
async function requireCaptainOf({ db, auth }: GuardedVars, id: string): Promise<TeamRow> {
  const team = await requireTeam(db, id);
  if (team.captainId !== auth.user.id) fail(403, 'team.captainOnly');
  return team;
}

/** Before the body is read: the path's team, captained by the caller, becomes `c.var.team`. */
const captainOnly = pathGuard('id', 'team', requireCaptainOf);

const reply = async (db: Database, team: TeamRow, message: string) => ({ message, team: await presentTeam(db, team) });

export const teamsRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/mine',
      tags,
      summary: 'Мої команди: капітан, учасники, запрошення; перша — поточна',
      responses: { 200: jsonResponse(z.array(teamSchema), 'Команди користувача'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const db = c.get('db');
      c.header('Cache-Control', 'no-store');
      return c.json(await presentTeams(db, await teamsOf(db, user.id)), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Створити команду: автор стає капітаном; назва унікальна, логотип лише http(s)',
      request: { body: jsonBody(createTeamInput) },
      responses: { 201: jsonResponse(teamMessageSchema, 'Команду створено'), ...errors(400, 401, 409, 415) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { name, logoUrl } = c.req.valid('json');
      const made = await c.get('deps').limits.hit(`teams:by:${user.id}`, TEAMS_CREATED_LIMIT);
      if (!made.allowed) failTooMany('team.tooManyCreated', made.retryAfter);
      const created = await createTeam(c.get('db'), user, { name, logoUrl: logoUrl || null });
      if (created === 'taken') fail(409, 'team.nameTaken');
      if (created === 'lookAlike') fail(409, 'team.nameLookAlike');
      return c.json(await reply(c.var.db, created, t('team.created')), 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'patch',
        path: '/{id}/logo',
        tags,
        summary: 'Капітан: змінити логотип (посилання http або https)',
        request: { params: teamParam, body: jsonBody(logoInput) },
        responses: { 200: jsonResponse(teamMessageSchema, 'Логотип змінено'), ...errors(400, 401, 403, 404, 415) },
      },
      captainOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { logoUrl } = c.req.valid('json');
      const team = await setTeamLogo(c.get('db'), id, logoUrl);
      return c.json(await reply(c.var.db, team, t('team.logoUpdated')), 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/invite',
        tags,
        summary: 'Капітан: запросити гравця за нікнеймом або email; гравець отримує сповіщення',
        request: { params: teamParam, body: jsonBody(inviteInput) },
        responses: {
          201: jsonResponse(teamMessageSchema, 'Запрошення надіслано'),
          ...errors(400, 401, 403, 404, 409, 415),
        },
      },
      captainOnly,
    ),
    async (c) => {
      const { query } = c.req.valid('json');
      const { auth, team } = c.var;
      const { limits } = c.get('deps');
      const sent = await limits.hit(`team-invites:by:${auth.user.id}`, INVITES_SENT_LIMIT);
      if (!sent.allowed) failTooMany('team.tooManyInvites', sent.retryAfter);
      const outcome = await invitePlayer(c.get('db'), limits, team, auth.user, query);
      if (!outcome.ok && outcome.reason === 'full') fail(409, 'team.teamFull', { max: TEAM_MAX_MEMBERS });
      // By address, every other outcome reads the same: whether an account is there is the invitee's to tell.
      if (isEmailQuery(query)) return c.json(await reply(c.var.db, team, t('team.invitedByEmail')), 201);
      if (!outcome.ok) {
        if (outcome.reason === 'flooded') failTooMany('team.inviteeFlooded', outcome.retryAfter);
        if (outcome.reason === 'unknownPlayer') fail(404, 'team.playerNotFound');
        if (outcome.reason === 'member') fail(409, 'team.alreadyMember');
        fail(409, 'team.alreadyInvited');
      }
      return c.json(await reply(c.var.db, team, t('team.invited', { name: outcome.invitee.username })), 201);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/{id}/invites/{inviteId}',
      tags,
      summary: 'Капітан: скасувати запрошення (id запрошення або id запрошеного гравця)',
      request: { params: inviteParam },
      responses: { 200: jsonResponse(teamMessageSchema, 'Запрошення скасовано'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id, inviteId } = c.req.valid('param');
      const team = await requireCaptainOf(c.var, id);
      if (!(await withdrawInvite(c.get('db'), id, inviteId))) fail(404, 'team.inviteNotFound');
      return c.json(await reply(c.var.db, team, t('team.inviteRemoved')), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/{id}/members/{memberId}',
      tags,
      summary: 'Капітан: видалити гравця з команди (себе — ні)',
      request: { params: memberParam },
      responses: { 200: jsonResponse(teamMessageSchema, 'Гравця видалено'), ...errors(400, 401, 403, 404, 422) },
    }),
    async (c) => {
      const { id, memberId } = c.req.valid('param');
      const team = await requireCaptainOf(c.var, id);
      const outcome = await removeMember(c.get('db'), team, memberId);
      if (outcome === 'captain') fail(422, 'team.captainCannotLeave');
      if (outcome === 'notMember') fail(404, 'team.memberNotFound');
      return c.json(await reply(c.var.db, team, t('team.memberRemoved')), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{teamId}/accept-invite',
      tags,
      summary: `Запрошений гравець: прийняти запрошення (команда не більше ${TEAM_MAX_MEMBERS} гравців)`,
      responses: { 200: jsonResponse(teamMessageSchema, 'Гравець у команді'), ...errors(400, 401, 404, 409) },
      request: { params: teamIdParam },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { teamId } = c.req.valid('param');
      const outcome = await answerInvite(c.get('db'), teamId, user, 'accept');
      if (outcome === 'noTeam') fail(404, 'team.notFound');
      if (outcome === 'noInvite') fail(404, 'team.inviteNotFound');
      if (outcome === 'full') fail(409, 'team.teamFull', { max: TEAM_MAX_MEMBERS });
      return c.json(await reply(c.var.db, await requireTeam(c.var.db, teamId), t('team.joined')), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{teamId}/reject-invite',
      tags,
      summary: 'Запрошений гравець: відхилити запрошення',
      request: { params: teamIdParam },
      responses: { 200: jsonResponse(messageBody, 'Запрошення відхилено'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { teamId } = c.req.valid('param');
      const outcome = await answerInvite(c.get('db'), teamId, user, 'reject');
      if (outcome === 'noTeam') fail(404, 'team.notFound');
      if (outcome === 'noInvite') fail(404, 'team.inviteNotFound');
      return c.json({ message: t('team.declined') }, 200);
    },
  );
