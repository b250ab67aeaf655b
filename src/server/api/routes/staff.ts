import { z } from '@hono/zod-openapi';
import { staffInput, staffListSchema, staffSaved } from '../../../lib/api/staff.ts';
import { MAX_TOURNAMENT_STAFF } from '../../../lib/domain/organisers.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, oneTournament, publicRead, router } from '../openapi.ts';
import { addStaff, listStaff, removeStaff, type StaffRefusal } from '../../services/competition/staff.ts';

const tags = ['Організатори'];
const params = z.object({ id: z.uuid() });
const memberParams = z.object({ id: z.uuid(), userId: z.uuid() });

const REFUSALS: Record<StaffRefusal, [404 | 409 | 422, Parameters<typeof fail>[1]]> = {
  tournamentNotFound: [404, 'tournament.notFound'],
  userNotFound: [404, 'staff.userNotFound'],
  already: [409, 'staff.already'],
  admin: [409, 'staff.admin'],
  full: [422, 'staff.full'],
};

/**
 * A tournament's staff, its co-organisers (issue 23, decision 016): anyone reads who they are;
 * the admin names and removes them. What staff may do is the organiser guard's (api/openapi.ts).
 */
export const staffRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/staff',
      tags,
      summary: 'Співорганізатори турніру (публічно): id, нікнейм, аватар',
      request: { params },
      responses: { 200: jsonResponse(staffListSchema, 'Організатори'), ...errors(400, 404) },
    }, { shows: oneTournament, mine: true }),
    async (c) => {
      const staff = await listStaff(c.get('db'), c.req.valid('param').id);
      if (!staff) fail(404, 'tournament.notFound');
      return c.json(staff, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/{id}/staff',
      tags,
      summary:
        'Адмін: призначити співорганізатора турніру (user — id, нікнейм чи email). Співорганізатор розглядає заявки, веде check-in, ' +
        `створює етапи й вносить результати лише цього турніру. Невідомий користувач — 404; уже організатор чи адміністратор — 409; більше ${MAX_TOURNAMENT_STAFF} — 422`,
      request: { params, body: jsonBody(staffInput) },
      responses: { 201: jsonResponse(staffSaved, 'Співорганізатора додано, його сповіщено'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const done = await addStaff(c.get('db'), id, c.req.valid('json').user, c.var.auth.user);
      if (!done.ok) fail(...REFUSALS[done.reason], { max: MAX_TOURNAMENT_STAFF });
      return c.json({ message: t('staff.added', { name: done.user.username }), staff: done.staff }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{id}/staff/{userId}',
      tags,
      summary: 'Адмін: прибрати співорганізатора турніру; права зникають одразу. Не організатор цього турніру — 404',
      request: { params: memberParams },
      responses: { 200: jsonResponse(staffSaved, 'Співорганізатора прибрано, його сповіщено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id, userId } = c.req.valid('param');
      const done = await removeStaff(c.get('db'), id, userId, c.var.auth.user);
      if (!done.ok) fail(404, done.reason === 'tournamentNotFound' ? 'tournament.notFound' : 'staff.notStaff');
      return c.json({ message: t('staff.removed', { name: done.user.username }), staff: done.staff }, 200);
    },
  );
