import { createRoute, z } from '@hono/zod-openapi';
import { notificationSchema } from '../../../lib/api/notifications.ts';
import { t } from '../../../lib/i18n/index.ts';
import { requireUser, signedIn } from '../context.ts';
import { fail } from '../errors.ts';
import { deleteOwnNotification, listNotifications, markAllRead } from '../../services/notifications.ts';
import { bearer, errors, jsonResponse, messageBody, router } from '../openapi.ts';

const tags = ['Сповіщення'];

/** Mounted at /users/me/notifications: every route sees and touches only the caller's own notifications. */
export const notificationsRoutes = router()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Мої сповіщення, від нових до старих (останні 50)',
      security: bearer,
      middleware: [signedIn] as const,
      responses: { 200: jsonResponse(z.array(notificationSchema), 'Сповіщення'), ...errors(401) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      c.header('Cache-Control', 'no-store');
      return c.json(await listNotifications(c.get('db'), user.id), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/read',
      tags,
      summary: 'Позначити всі мої сповіщення як прочитані (тіло не потрібне)',
      security: bearer,
      middleware: [signedIn] as const,
      responses: { 200: jsonResponse(messageBody, 'Позначено'), ...errors(401) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      await markAllRead(c.get('db'), user.id);
      return c.json({ message: t('notifications.allRead') }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Видалити моє сповіщення (чуже або відсутнє — 404)',
      security: bearer,
      middleware: [signedIn] as const,
      request: { params: z.object({ id: z.uuid() }) },
      responses: { 200: jsonResponse(messageBody, 'Видалено'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      const { id } = c.req.valid('param');
      if (!(await deleteOwnNotification(c.get('db'), user.id, id))) fail(404, 'notifications.notFound');
      return c.json({ message: t('notifications.deleted') }, 200);
    },
  );
