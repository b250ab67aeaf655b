import { z } from '@hono/zod-openapi';
import { controlRoomSchema } from '../../../lib/api/control-room.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, organiserOrKeyRoute, router, userRoute } from '../openapi.ts';
import { controlRoom } from '../../services/match-day/control-room.ts';
import { answerCall, callOrganisers, type CallRefusal } from '../../services/match-day/match-calls.ts';
import { callInput, callSaved } from '../../../lib/api/match-reports.ts';

const params = z.object({ id: z.uuid() });

/** Mounted at /tournaments: the control room's read (issue 57), for the tournament's organisers. */
export const controlRoomRoutes = router().openapi(
  organiserOrKeyRoute(
    {
      method: 'get',
      path: '/{id}/control',
      tags: ['Етапи'],
      summary:
        'Пульт організатора: суперечки (з рахунками обох сторін і скаргою), звіти, що чекають підтвердження (з терміном), виклики організатора, ' +
        'готові матчі без звіту (спершу найраніші за розкладом) і реєстрація присутності (хто не відмітився, хто вибув). Лише організаторам турніру',
      request: { params },
      responses: { 200: jsonResponse(controlRoomSchema, 'Що чекає на організаторів'), ...errors(400, 401, 403, 404) },
    },
    'tournament',
    'read',
  ),
  async (c) => {
    const room = await controlRoom(c.get('db'), c.req.valid('param').id);
    if (!room) fail(404, 'tournament.notFound');
    c.header('Cache-Control', 'no-store');
    return c.json(room, 200);
  },
);

const CALL_REFUSALS: Record<CallRefusal, [403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'match.notFound'],
  notSide: [403, 'call.notSide'],
  decided: [409, 'call.decided'],
  alreadyCalled: [409, 'call.already'],
};

/** Mounted at /matches: a side calls the organisers; an organiser answers (issue 57). */
export const matchCallRoutes = router()
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/call',
      tags: ['Етапи'],
      summary:
        'Гравець (чи капітан) однієї зі сторін кличе організаторів до матчу, ще не вирішеного (reason — до 500 символів, можна порожньо): ' +
        'організаторам дзвіночок і лист, матч — у пульті, доки хтось не відповість. Повторний виклик до відповіді — 409',
      request: { params, body: { ...jsonBody(callInput), required: false } },
      responses: { 200: jsonResponse(callSaved, 'Організаторів покликано'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      const body = c.req.valid('json') ?? { reason: '' };
      const done = await callOrganisers(c.get('db'), c.req.valid('param').id, c.var.auth.user.id, body.reason);
      if (!done.ok) fail(...CALL_REFUSALS[done.reason]);
      return c.json({ message: t('call.done'), calledAt: done.calledAt }, 200);
    },
  )
  .openapi(
    organiserOrKeyRoute(
      {
        method: 'delete',
        path: '/{id}/call',
        tags: ['Етапи'],
        summary: 'Організатор турніру відповів на виклик: матч більше не в пульті як виклик',
        request: { params },
        responses: { 200: jsonResponse(messageBody, 'Виклик закрито'), ...errors(400, 401, 403, 404, 409) },
      },
      'match',
      'run',
    ),
    async (c) => {
      const done = await answerCall(c.get('db'), c.req.valid('param').id, c.var.actor);
      if (!done.ok) fail(done.reason === 'notFound' ? 404 : 409, done.reason === 'notFound' ? 'match.notFound' : 'call.notCalled');
      return c.json({ message: t('call.answered') }, 200);
    },
  );
