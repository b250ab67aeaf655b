import { z } from '@hono/zod-openapi';
import { notificationSchema } from '../../../lib/api/notifications.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { deleteOwnNotification, listNotifications, markAllRead } from '../../services/notices/notifications.ts';
import { errors, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

const tags = ['Сповіщення'];

/** Mounted at /users/me/notifications: every route sees and touches only the caller's own notifications. */
export const notificationsRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Мої сповіщення, від нових до старих (останні 50)',
      responses: { 200: jsonResponse(z.array(notificationSchema), 'Сповіщення'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      c.header('Cache-Control', 'no-store');
      return c.json(await listNotifications(c.get('db'), user.id), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/read',
      tags,
      summary: 'Позначити всі мої сповіщення як прочитані (тіло не потрібне)',
      responses: { 200: jsonResponse(messageBody, 'Позначено'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      await markAllRead(c.get('db'), user.id);
      return c.json({ message: t('notifications.allRead') }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Видалити моє сповіщення (чуже або відсутнє — 404)',
      request: { params: z.object({ id: z.uuid() }) },
      responses: { 200: jsonResponse(messageBody, 'Видалено'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const { id } = c.req.valid('param');
      if (!(await deleteOwnNotification(c.get('db'), user.id, id))) fail(404, 'notifications.notFound');
      return c.json({ message: t('notifications.deleted') }, 200);
    },
  );
