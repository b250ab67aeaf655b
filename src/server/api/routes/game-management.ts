import { z } from '@hono/zod-openapi';
import {
  achievementInput,
  achievementSaved,
  managedGameSchema,
  setupInput,
  setupPopularResult,
  setupResult,
  statFieldInput,
  statFieldSaved,
  statsConfigSchema,
} from '../../../lib/api/game-management.ts';
import { FIELD_NAME_MAX, FIELD_NAME_PATTERN } from '../../../lib/domain/stat-fields.ts';
import { t } from '../../../lib/i18n/index.ts';
import { type AppContext } from '../context.ts';
import { fail, failWith } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, publicRead, router } from '../openapi.ts';
import {
  addAchievement,
  addStatField,
  deleteAchievement,
  deleteStatField,
  getStatsConfig,
  listManagedGames,
  setupGame,
  setupPopularGames,
} from '../../services/competition/game-management.ts';

const tags = ['Статистика ігор'];
const idParam = z.object({ id: z.uuid() });
const gameIdParam = z.object({ gameId: z.uuid() });
const fieldParam = z.object({
  gameId: z.uuid(),
  fieldName: z.string().max(FIELD_NAME_MAX).regex(FIELD_NAME_PATTERN, { error: () => t('gameManagement.fieldNameInvalid') }),
});
const achievementParam = z.object({ gameId: z.uuid(), achievementId: z.uuid() });

/** Refuses a change to a game that does not exist (404) or has no statistics configuration yet (409). */
function refuseConfig(reason: 'gameNotFound' | 'notConfigured'): never {
  if (reason === 'gameNotFound') fail(404, 'games.notFound');
  fail(409, 'gameManagement.setupFirst');
}

/** GET of a game's config, shared by both paths SPEC §7 names for it. */
async function sendConfig(c: AppContext, gameId: string) {
  const config = await getStatsConfig(c.get('db'), gameId);
  if (!config) fail(404, 'gameManagement.notFound');
  return config;
}

const configResponses = { 200: jsonResponse(statsConfigSchema, 'Конфігурація'), ...errors(400, 404) };
const configSummary = 'Конфігурація статистики гри: поля й досягнення (публічно)';

export const gameManagementRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/list',
      tags,
      summary: 'Ігри з позначкою, чи налаштовано статистику (публічно)',
      responses: { 200: jsonResponse(z.array(managedGameSchema), 'Ігри за назвою') },
    }, { mine: true }),
    async (c) => {
      return c.json(await listManagedGames(c.get('db')), 200);
    },
  )
  .openapi(
    publicRead({ method: 'get', path: '/{id}/stats-config', tags, summary: configSummary, request: { params: idParam }, responses: configResponses }, { mine: true }),
    async (c) => c.json(await sendConfig(c, c.req.valid('param').id), 200),
  )
  .openapi(
    publicRead({ method: 'get', path: '/config/{gameId}', tags, summary: `${configSummary}; те саме, що /{id}/stats-config`, request: { params: gameIdParam }, responses: configResponses }, { mine: true }),
    async (c) => c.json(await sendConfig(c, c.req.valid('param').gameId), 200),
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/setup',
      tags,
      summary: 'Адмін: налаштувати статистику гри за шаблоном (гру буде створено, якщо її немає)',
      request: { body: jsonBody(setupInput) },
      responses: { 201: jsonResponse(setupResult, 'Статистику налаштовано'), ...errors(400, 401, 403, 409, 415) },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const result = await setupGame(c.get('db'), body);
      if (!result.ok) fail(409, 'gameManagement.alreadyConfigured', { name: result.name });
      const template = t(`gameManagement.template.${body.template}`);
      const message = result.created
        ? t('gameManagement.gameCreatedAndSetup', { name: result.game.name, template })
        : t('gameManagement.setupDone', { name: result.game.name, template });
      return c.json({ message, game: result.game, config: result.config }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/setup-popular',
      tags,
      summary: 'Адмін: налаштувати CS2, Valorant, League of Legends і Dota 2 (повторний виклик нічого не змінює)',
      responses: { 200: jsonResponse(setupPopularResult, 'Що налаштовано, а що вже було'), ...errors(401, 403) },
    }),
    async (c) => {
      const { configured, unchanged } = await setupPopularGames(c.get('db'));
      const message =
        configured.length === 0
          ? t('gameManagement.popularUnchanged')
          : unchanged.length === 0
            ? t('gameManagement.popularDone', { names: configured.join(', ') })
            : t('gameManagement.popularDoneSome', { names: configured.join(', '), unchanged: unchanged.join(', ') });
      return c.json({ message, configured, unchanged }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/{id}/add-stat-field',
      tags,
      summary: 'Адмін: додати поле статистики (fieldName унікальне в грі)',
      request: { params: idParam, body: jsonBody(statFieldInput) },
      responses: { 201: jsonResponse(statFieldSaved, 'Поле додано'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      const result = await addStatField(c.get('db'), c.req.valid('param').id, c.req.valid('json'));
      if (!result.ok) {
        if (result.reason === 'fieldTaken') fail(409, 'gameManagement.fieldTaken', { name: result.fieldName });
        refuseConfig(result.reason);
      }
      return c.json({ message: t('gameManagement.fieldAdded', { name: result.field.displayName }), field: result.field }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{gameId}/stat-fields/{fieldName}',
      tags,
      summary: 'Адмін: видалити поле статистики (не можна, поки його вживає умова досягнення)',
      request: { params: fieldParam },
      responses: { 200: jsonResponse(messageBody, 'Поле видалено'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { gameId, fieldName } = c.req.valid('param');
      const result = await deleteStatField(c.get('db'), gameId, fieldName);
      if (!result.ok) {
        if (result.reason === 'fieldNotFound') fail(404, 'gameManagement.fieldNotFound');
        if (result.reason === 'fieldInUse') fail(409, 'gameManagement.fieldInUse', { name: fieldName, achievements: result.achievements.join(', ') });
        refuseConfig(result.reason);
      }
      return c.json({ message: t('gameManagement.fieldDeleted', { name: fieldName }) }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/{gameId}/add-achievement',
      tags,
      summary: 'Адмін: додати досягнення; умову перевіряє сервер (помилка — 422 з поясненням)',
      request: { params: gameIdParam, body: jsonBody(achievementInput) },
      responses: { 201: jsonResponse(achievementSaved, 'Досягнення додано'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const result = await addAchievement(c.get('db'), c.req.valid('param').gameId, c.req.valid('json'));
      if (!result.ok) {
        if (result.reason === 'badCondition') failWith(422, result.error);
        if (result.reason === 'achievementTaken') fail(409, 'gameManagement.achievementTaken');
        refuseConfig(result.reason);
      }
      return c.json({ message: t('gameManagement.achievementAdded', { name: result.achievement.name }), achievement: result.achievement }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{gameId}/achievements/{achievementId}',
      tags,
      summary: 'Адмін: видалити досягнення (зароблені гравцями теж зникнуть)',
      request: { params: achievementParam },
      responses: { 200: jsonResponse(messageBody, 'Досягнення видалено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { gameId, achievementId } = c.req.valid('param');
      const result = await deleteAchievement(c.get('db'), gameId, achievementId);
      if (!result.ok) fail(404, result.reason === 'gameNotFound' ? 'games.notFound' : 'gameManagement.achievementNotFound');
      return c.json({ message: t('gameManagement.achievementDeleted', { name: result.name }) }, 200);
    },
  );
