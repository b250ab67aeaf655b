import { z } from '@hono/zod-openapi';
import { newsInput, newsItemSchema, newsListQuery, newsUpdate, savedNewsSchema } from '../../../lib/api/news.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import {
  createNews,
  deleteNews,
  findNews,
  listNews,
  listSavedNewsIds,
  listSavedNewsItems,
  saveNewsFor,
  unsaveNewsFor,
  updateNews,
} from '../../services/content/news.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, publicRead, router, userRoute } from '../openapi.ts';
import { linkToNext } from '../paging.ts';
import { PAGE_MAX_LIMIT } from '../../../lib/api/paging.ts';

const idParam = z.object({ id: z.uuid() });
const tags = ['Новини'];


/*
 * SPEC §7 News. Reading is public; saving needs a signed-in user; publishing, editing and
 * deleting need an admin (SPEC §6). `/saved` comes before `/{id}` so it is never read as an id.
 */
export const newsRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/',
      tags,
      summary:
        'Новини, найновіші першими, сторінкою (`limit` 1–100, типово 100; `offset`): поточні й архівні (поле archived) або лише одні з них. ' +
        'Якщо далі є ще, відповідь має заголовок `Link: <…>; rel="next"`',
      request: { query: newsListQuery },
      responses: { 200: jsonResponse(z.array(newsItemSchema), 'Сторінка новин'), ...errors(400) },
    }, { shows: () => ['news'] }),
    async (c) => {
      const { archived, limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listNews(c.get('db'), { archived: archived === undefined ? undefined : archived === 'true', limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'get',
      path: '/saved',
      tags,
      summary: 'Ідентифікатори новин, збережених поточним користувачем',
      responses: { 200: jsonResponse(savedNewsSchema, 'Збережені новини'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      c.header('Cache-Control', 'private, no-store');
      return c.json(await listSavedNewsIds(c.get('db'), user.id), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'get',
      path: '/saved/items',
      tags,
      summary: 'Новини, збережені поточним користувачем, найновіші першими',
      responses: { 200: jsonResponse(z.array(newsItemSchema), 'Збережені новини'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      c.header('Cache-Control', 'private, no-store');
      return c.json(await listSavedNewsItems(c.get('db'), user.id), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/saved/{id}',
      tags,
      summary: 'Зберегти новину (повторно — без змін)',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Збережено'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { id } = c.req.valid('param');
      if (!(await saveNewsFor(c.get('db'), user.id, id))) fail(404, 'news.notFound');
      return c.json({ message: t('news.savedMessage') }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/saved/{id}',
      tags,
      summary: 'Прибрати новину зі збережених (якщо її там немає — без змін)',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Прибрано'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { id } = c.req.valid('param');
      if (!(await unsaveNewsFor(c.get('db'), user.id, id))) fail(404, 'news.notFound');
      return c.json({ message: t('news.unsavedMessage') }, 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'Одна новина',
      request: { params: idParam },
      responses: { 200: jsonResponse(newsItemSchema, 'Новина'), ...errors(400, 404) },
    }, { shows: () => ['news'] }),
    async (c) => {
      const { id } = c.req.valid('param');
      const item = await findNews(c.get('db'), id);
      if (!item) fail(404, 'news.notFound');
      return c.json(item, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/',
      tags,
      summary: 'Адмін: опублікувати новину',
      request: { body: jsonBody(newsInput) },
      responses: { 201: jsonResponse(newsItemSchema, 'Новину додано'), ...errors(400, 401, 403, 413, 415) },
    }),
    async (c) => {
      const item = await createNews(c.get('db'), c.req.valid('json'));
      return c.json(item, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'put',
      path: '/{id}',
      tags,
      summary: 'Адмін: змінити новину (поля, яких немає в тілі, не змінюються; archived — в архів чи з архіву)',
      request: { params: idParam, body: jsonBody(newsUpdate) },
      responses: { 200: jsonResponse(newsItemSchema, 'Новину оновлено'), ...errors(400, 401, 403, 404, 413, 415) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const item = await updateNews(c.get('db'), id, c.req.valid('json'));
      if (!item) fail(404, 'news.notFound');
      return c.json(item, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Адмін: видалити новину',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Новину видалено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!(await deleteNews(c.get('db'), id))) fail(404, 'news.notFound');
      return c.json({ message: t('news.deleted') }, 200);
    },
  );
