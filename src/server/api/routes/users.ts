import { createRoute, z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { userSchema } from '../../../lib/api/auth.ts';
import { t } from '../../../lib/i18n/index.ts';
import { adminOnly, requireAdmin, requireUser, signedIn } from '../context.ts';
import { users } from '../../db/schema/index.ts';
import { fail } from '../errors.ts';
import { presentUser } from '../../services/accounts.ts';
import { revokeUserSessions } from '../../services/sessions.ts';
import { bearer, errors, jsonResponse, messageBody, router } from '../openapi.ts';

export const idParam = z.object({ id: z.uuid() });

export const usersRoutes = router()
  .openapi(
    createRoute({
      method: 'get',
      path: '/me',
      tags: ['Акаунти'],
      summary: 'Поточний користувач із роллю',
      security: bearer,
      middleware: [signedIn] as const,
      responses: { 200: jsonResponse(userSchema, 'Користувач'), ...errors(401) },
    }),
    async (c) => {
      const { user } = requireUser(c);
      return c.json(await presentUser(c.get('db'), user), 200);
    },
  )
  .openapi(
    createRoute({
      method: 'delete',
      path: '/{id}/sessions',
      tags: ['Акаунти'],
      summary: 'Адмін: вийти з усіх сесій користувача',
      security: bearer,
      middleware: [adminOnly] as const,
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Усі сесії закрито'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      requireAdmin(c);
      const { id } = c.req.valid('param');
      const db = c.get('db');
      const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
      if (!target) fail(404, 'error.userNotFound');
      await revokeUserSessions(db, id);
      return c.json({ message: t('auth.sessionsRevoked') }, 200);
    },
  );
