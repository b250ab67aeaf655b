import { z } from '@hono/zod-openapi';
import { gameInput, gameMapsInput, gameMapsSchema, gameSaved, gameSchema } from '../../../lib/api/games.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, publicRead, router } from '../openapi.ts';
import { createGame, deleteGame, listGames, readGameMaps, saveGameMaps, updateGame } from '../../services/competition/games.ts';

const idParam = z.object({ id: z.uuid() });

export const gamesRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/',
      tags: ['Ігри'],
      summary: 'Усі ігри (публічно)',
      responses: { 200: jsonResponse(z.array(gameSchema), 'Ігри за назвою') },
    }, { mine: true }),
    async (c) => {
      return c.json(await listGames(c.get('db')), 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/',
      tags: ['Ігри'],
      summary: 'Адмін: додати гру',
      request: { body: jsonBody(gameInput) },
      responses: { 201: jsonResponse(gameSaved, 'Гру додано'), ...errors(400, 401, 403, 409, 415) },
    }),
    async (c) => {
      const result = await createGame(c.get('db'), c.req.valid('json'));
      if (!result.ok) fail(409, 'games.nameTaken');
      return c.json({ message: t('games.added'), game: result.game }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'put',
      path: '/{id}',
      tags: ['Ігри'],
      summary: 'Адмін: змінити назву чи зображення гри',
      request: { params: idParam, body: jsonBody(gameInput) },
      responses: { 200: jsonResponse(gameSaved, 'Гру оновлено'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      const result = await updateGame(c.get('db'), c.req.valid('param').id, c.req.valid('json'));
      if (!result.ok) fail(result.reason === 'notFound' ? 404 : 409, result.reason === 'notFound' ? 'games.notFound' : 'games.nameTaken');
      return c.json({ message: t('games.updated'), game: result.game }, 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/maps',
      tags: ['Ігри'],
      summary: 'Пул карт гри для вето (issue 58) і назви двох її стартових сторін; порожній — вето немає',
      request: { params: idParam },
      responses: { 200: jsonResponse(gameMapsSchema, 'Пул карт'), ...errors(400, 404) },
    }),
    async (c) => {
      const found = await readGameMaps(c.get('db'), c.req.valid('param').id);
      if (!found) fail(404, 'games.notFound');
      return c.json(found, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'put',
      path: '/{id}/maps',
      tags: ['Ігри'],
      summary: 'Адмін: пул карт гри (до 15 назв, кожна один раз) і дві стартові сторони (обовʼязкові, коли є карти); порожній пул — без вето',
      request: { params: idParam, body: jsonBody(gameMapsInput) },
      responses: { 200: jsonResponse(z.object({ message: z.string(), maps: gameMapsSchema }), 'Пул збережено'), ...errors(400, 401, 403, 404, 415) },
    }),
    async (c) => {
      const saved = await saveGameMaps(c.get('db'), c.req.valid('param').id, c.req.valid('json'));
      if (!saved) fail(404, 'games.notFound');
      return c.json({ message: t('maps.saved'), maps: saved }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{id}',
      tags: ['Ігри'],
      summary: 'Адмін: видалити гру без турнірів (з турнірами — 409)',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Гру видалено'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const result = await deleteGame(c.get('db'), c.req.valid('param').id);
      if (!result.ok) {
        if (result.reason === 'notFound') fail(404, 'games.notFound');
        fail(409, 'games.hasTournaments', { count: result.tournaments });
      }
      return c.json({ message: t('games.deleted') }, 200);
    },
  );
