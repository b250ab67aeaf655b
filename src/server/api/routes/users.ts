import { z } from '@hono/zod-openapi';
import { meSchema } from '../../../lib/api/auth.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { presentUser } from '../../services/accounts/accounts.ts';
import { signOutEverywhere } from '../../services/accounts/sessions.ts';
import { staffOf } from '../../services/competition/staff.ts';
import { organisationsOf } from '../../services/organisations/organisations.ts';
import { adminRoute, errors, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

export const idParam = z.object({ id: z.uuid() });

export const usersRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/me',
      tags: ['Акаунти'],
      summary: 'Поточний користувач із роллю; staffOf — турніри, де він співорганізатор; organisations — його організації й ролі в них',
      responses: { 200: jsonResponse(meSchema, 'Користувач'), ...errors(401) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const db = c.get('db');
      const [presented, staff, organisations] = await Promise.all([presentUser(db, user), staffOf(db, user.id), organisationsOf(db, user.id)]);
      return c.json({ ...presented, staffOf: staff, organisations }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{id}/sessions',
      tags: ['Акаунти'],
      summary: 'Адмін: вийти з усіх сесій користувача',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Усі сесії закрито'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!(await signOutEverywhere(c.get('db'), id))) fail(404, 'error.userNotFound');
      return c.json({ message: t('auth.sessionsRevoked') }, 200);
    },
  );
