import { createRoute } from '@hono/zod-openapi';
import { userSchema } from '../../lib/api/auth.ts';
import { requireUser } from '../context.ts';
import { presentUser } from '../services/accounts.ts';
import { bearer, errors, jsonResponse, router } from '../openapi.ts';

export const usersRoutes = router().openapi(
  createRoute({
    method: 'get',
    path: '/me',
    tags: ['Акаунти'],
    summary: 'Поточний користувач із роллю',
    security: bearer,
    responses: { 200: jsonResponse(userSchema, 'Користувач'), ...errors(401) },
  }),
  async (c) => {
    const { user } = requireUser(c);
    return c.json(await presentUser(c.get('db'), user), 200);
  },
);
