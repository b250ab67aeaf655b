import { z } from '@hono/zod-openapi';
import { lobbyInput, roomSchema } from '../../../lib/api/match-room.ts';
import { t } from '../../../lib/i18n/index.ts';
import { checkInToMatch, type CheckInRefusal } from '../../services/match-room/check-in.ts';
import { lobbyHostRefusal, readRoom, setLobby, type LobbyRefusal } from '../../services/match-room/room.ts';
import { createMiddleware } from 'hono/factory';
import type { AppEnv, GuardedEnv } from '../context.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

const params = z.object({ id: z.uuid() });
const tags = ['Кімната матчу'];

const CHECK_IN_REFUSALS: Record<CheckInRefusal, [403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'match.notFound'],
  off: [404, 'checkIn.match.off'],
  notSide: [403, 'checkIn.match.notSide'],
  finished: [409, 'stage.finished'],
  decided: [409, 'checkIn.match.decided'],
  notReady: [409, 'checkIn.match.notReady'],
  closed: [409, 'checkIn.match.closed'],
  already: [409, 'checkIn.match.already'],
};

const LOBBY_REFUSALS: Record<LobbyRefusal, [403 | 404 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'match.notFound'],
  outsider: [403, 'room.outsider'],
  notHost: [403, 'lobby.notHost'],
  finished: [409, 'stage.finished'],
  decided: [409, 'lobby.decided'],
};

/**
 * Only whoever sets the lobby details gets as far as the body, as on the organisers' routes
 * (`organiserOnly`): an admin always (an unknown match is then a 404 from the service); anyone else
 * is refused 403 before the body is read, for a path naming no match of theirs too.
 */
const lobbyHostsOnly = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const { user } = c.var.auth;
  if (user.role !== 'admin') {
    const id = c.req.param('id');
    const refusal = id !== undefined && params.shape.id.safeParse(id).success ? await lobbyHostRefusal(c.get('db'), id, user) : 'notHost';
    if (refusal) fail(...LOBBY_REFUSALS[refusal === 'notFound' ? 'notHost' : refusal]);
  }
  await next();
});

/**
 * Mounted at /matches: a match room's private part (issue 58) — what its people read, their check-in
 * and the lobby details. Only the two sides' people and the tournament's organisers get in.
 */
export const matchRoomRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/{id}/room',
      tags,
      summary:
        'Кімната матчу для його людей (гравці обох сторін, учасники їхніх команд, організатори турніру): чия сторона читає, відмітка на матч ' +
        '(до коли, хто на місці, чим скінчилася) і дані лобі. Решті — 403; гостям ці дані не віддає жодна публічна відповідь',
      request: { params },
      responses: { 200: jsonResponse(roomSchema, 'Кімната матчу'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const done = await readRoom(c.get('db'), c.req.valid('param').id, c.var.auth.user);
      if (!done.ok) fail(...LOBBY_REFUSALS[done.reason]);
      return c.json(done.room, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/check-in',
      tags,
      summary:
        'Відмітка на матч (якщо турнір просить, matchCheckInMinutes): гравець сторони чи будь-хто з її команди. Час іде від готовності матчу ' +
        '(або від його часу, якщо той пізніший). Обидві на місці — матч починається; коли час минув, сторона без відмітки отримує технічну поразку, ' +
        'а якщо не відмітився ніхто — матч позначено для організаторів. Відмітка після кінця часу — 409',
      request: { params },
      responses: { 200: jsonResponse(z.object({ message: z.string(), both: z.boolean() }), 'Відмітку прийнято'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const done = await checkInToMatch(c.get('db'), c.req.valid('param').id, c.var.auth.user.id);
      if (!done.ok) fail(...CHECK_IN_REFUSALS[done.reason]);
      return c.json({ message: t(done.both ? 'checkIn.match.both' : 'checkIn.match.done'), both: done.both }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}/lobby',
        tags,
        summary:
          'Дані лобі чи сервера матчу (text, до 500 символів; порожній прибирає): організатор турніру, або люди вищої сіяної сторони, якщо турнір так вирішив (lobbyHost). ' +
          'Бачать лише сторони матчу й організатори; у публічних відповідях, вбудовуваннях і картках їх немає',
        request: { params, body: jsonBody(lobbyInput) },
        responses: { 200: jsonResponse(messageBody, 'Збережено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      lobbyHostsOnly,
    ),
    async (c) => {
      const done = await setLobby(c.get('db'), c.req.valid('param').id, c.var.auth.user, c.req.valid('json').text);
      if (!done.ok) fail(...LOBBY_REFUSALS[done.reason]);
      return c.json({ message: t(done.text ? 'lobby.saved' : 'lobby.cleared') }, 200);
    },
  );
