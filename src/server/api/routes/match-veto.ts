import { z } from '@hono/zod-openapi';
import { vetoAnswer, vetoMoveInput, vetoSchema } from '../../../lib/api/veto.ts';
import { t } from '../../../lib/i18n/index.ts';
import { shows, tournamentData } from '../../services/live/changes.ts';
import { moveVetoOf, readVeto, type VetoMoveRefusal } from '../../services/match-room/veto.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, publicRead, refuseHidden, router, userRoute } from '../openapi.ts';

const params = z.object({ id: z.uuid() });
const tags = ['Кімната матчу'];

const REFUSALS: Record<VetoMoveRefusal, [400 | 403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'match.notFound'],
  off: [404, 'veto.off'],
  notSide: [403, 'veto.notSide'],
  notReady: [409, 'veto.notReady'],
  checkInFirst: [409, 'checkIn.match.first'],
  decided: [409, 'veto.decided'],
  finished: [409, 'stage.finished'],
  raced: [409, 'veto.raced'],
  done: [409, 'veto.over'],
  notYourTurn: [409, 'veto.notYourTurn'],
  wrongAction: [409, 'veto.wrongAction'],
  mapNotInPool: [409, 'veto.mapNotInPool'],
  mapTaken: [409, 'veto.mapTaken'],
  badSide: [400, 'veto.sideMissing'],
  badRole: [400, 'veto.roleMissing'],
};

/** Mounted at /matches: a match's map veto (issue 58), read by anyone, moved by its sides in turn. */
export const matchVetoRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/veto',
      tags,
      summary:
        'Вето карт матчу: пул карт і сторони гри, послідовність кроків для його best-of, хто починає (вища сіяна сторона чи жереб сервера), ' +
        'викреслені й вибрані карти з вибором сторін, чий зараз хід. Однакове для всіх читачів; 404, якщо етап матчу вето не проводить',
      request: { params },
      responses: { 200: jsonResponse(vetoSchema, 'Вето'), ...errors(400, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const done = await readVeto(c.get('db'), id);
      if (!done.ok) fail(...REFUSALS[done.reason]);
      await refuseHidden(c.get('db'), c.get('caller'), done.tournamentId, 'match.notFound');
      shows(tournamentData(done.tournamentId));
      return c.json(done.veto, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/veto',
      tags,
      summary:
        'Хід у вето готового матчу — лише від сторони, чия черга (гравець чи капітан команди): `roles` (A чи B, хто починає), `ban` чи `pick` карти, що ще в пулі, ' +
        '`side` (0 чи 1 — стартова сторона на щойно вибраній карті). Не в свою чергу, карта вже вибрана чи викреслена, не з пулу — 409; ' +
        'останню карту (десайдер) бере сервер',
      request: { params, body: jsonBody(vetoMoveInput) },
      responses: { 200: jsonResponse(vetoAnswer, 'Хід зроблено'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      const done = await moveVetoOf(c.get('db'), c.req.valid('param').id, c.var.auth.user.id, c.req.valid('json'));
      if (!done.ok) fail(...REFUSALS[done.reason]);
      return c.json({ message: t(done.done ? 'veto.finished' : 'veto.moved'), veto: done.veto }, 200);
    },
  );
