import { z } from '@hono/zod-openapi';
import { invitedApplicationMessageSchema, tournamentInviteInput } from '../../../lib/api/notifications.ts';
import { TEAM_SIZE } from '../../../lib/domain/application-rules.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Auth, Database } from '../context.ts';
import { fail } from '../errors.ts';
import { answerTournamentInvite, inviteToTournament } from '../../services/match-day/application-invites.ts';
import { adminRoute, errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';

/* Tournament invites (docs/decisions/001-tournament-invites.md); the rules are in services/match-day/application-invites.ts. */

const tags = ['Заявки'];
const applicationParam = z.object({ applicationId: z.uuid() });

/** Accept or reject, with the refusal of each broken rule. */
async function answer(db: Database, { user }: Auth, applicationId: string, verb: 'accept' | 'reject') {
  const result = await answerTournamentInvite(db, user.id, applicationId, verb);
  if (!result.ok) {
    if (result.reason === 'applicationNotFound') fail(404, 'tournamentInvite.applicationNotFound');
    if (result.reason === 'notYours') fail(403, 'tournamentInvite.notYours');
    if (result.reason === 'noInvite') fail(404, 'tournamentInvite.notFound');
    if (result.reason === 'teamSize') fail(422, 'tournamentInvite.teamSize', { min: TEAM_SIZE.min, max: TEAM_SIZE.max });
    fail(409, 'tournamentInvite.stale');
  }
  return { message: t(verb === 'accept' ? 'tournamentInvite.accepted' : 'tournamentInvite.rejected'), application: result.application };
}

/** Beside the applications router at /applications: tournament invites and their answers. */
export const applicationInvitesRoutes = router()
  .openapi(
    adminRoute({
      method: 'post',
      path: '/invite',
      tags,
      summary:
        'Адмін: запросити гравця (соло-турнір, поле user) або команду (командний турнір, поле team) на турнір, що очікує. ' +
        'Створює заявку зі статусом pending і сповіщення гравцю або капітану з діями прийняти/відхилити',
      request: { body: jsonBody(tournamentInviteInput) },
      responses: { 201: jsonResponse(invitedApplicationMessageSchema, 'Запрошення надіслано'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      if (Boolean(body.user) === Boolean(body.team)) fail(400, 'tournamentInvite.oneTarget');
      const result = await inviteToTournament(c.var.db, body);
      if (!result.ok) {
        if (result.reason === 'tournamentNotFound') fail(404, 'tournamentInvite.tournamentNotFound');
        if (result.reason === 'soloNeedsUser') fail(400, 'tournamentInvite.soloNeedsUser');
        if (result.reason === 'teamNeedsTeam') fail(400, 'tournamentInvite.teamNeedsTeam');
        if (result.reason === 'bracketDrawn') fail(409, 'apply.refused.bracketDrawn');
        if (result.reason === 'notPending') fail(409, 'tournamentInvite.notPending');
        if (result.reason === 'teamNotFound') fail(404, 'team.notFound');
        if (result.reason === 'playerNotFound') fail(404, 'team.playerNotFound');
        fail(409, 'tournamentInvite.alreadyApplied');
      }
      return c.json({ message: t('tournamentInvite.sent'), application: result.application }, 201);
    },
  )
  .openapi(
    userRoute({
      method: 'patch',
      path: '/{applicationId}/accept-invite',
      tags,
      summary: 'Запрошений гравець або капітан запрошеної команди: прийняти запрошення на турнір (заявку схвалено)',
      request: { params: applicationParam },
      responses: { 200: jsonResponse(invitedApplicationMessageSchema, 'Запрошення прийнято'), ...errors(400, 401, 403, 404, 409, 422) },
    }),
    async (c) => c.json(await answer(c.var.db, c.var.auth, c.req.valid('param').applicationId, 'accept'), 200),
  )
  .openapi(
    userRoute({
      method: 'patch',
      path: '/{applicationId}/reject-invite',
      tags,
      summary: 'Запрошений гравець або капітан запрошеної команди: відхилити запрошення на турнір (заявку відхилено)',
      request: { params: applicationParam },
      responses: { 200: jsonResponse(invitedApplicationMessageSchema, 'Запрошення відхилено'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => c.json(await answer(c.var.db, c.var.auth, c.req.valid('param').applicationId, 'reject'), 200),
  );
