import { z } from '@hono/zod-openapi';
import { apiKeyCreatedSchema, apiKeyInput, apiKeyListSchema, apiKeyRevokedSchema } from '../../../lib/api/api-keys.ts';
import { API_KEYS_PER_ORGANISATION } from '../../../lib/domain/api-keys.ts';
import { t } from '../../../lib/i18n/index.ts';
import { apiKeysOf, createApiKey, revokeApiKey } from '../../services/organisations/api-keys.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';
import { managersOnly } from '../organisation-guards.ts';

const tags = ['Організації'];
const idParam = z.object({ id: z.uuid() });
const keyParams = z.object({ id: z.uuid(), keyId: z.uuid() });

/**
 * Mounted at /organisations: an organisation's API keys (issue 60, decision 045), for its owner and
 * admins only, never for a key itself (`userRoute` takes users alone).
 */
export const organisationApiKeyRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/api-keys',
        tags,
        summary: 'Власник або адміністратори: ключі API організації — назва, доступ, початок ключа, хто й коли створив, коли востаннє вжито, коли відкликано (сам ключ — ніколи)',
        request: { params: idParam },
        responses: { 200: jsonResponse(apiKeyListSchema, 'Ключі'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json({ keys: await apiKeysOf(c.get('db'), c.req.valid('param').id), max: API_KEYS_PER_ORGANISATION }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/api-keys',
        tags,
        summary:
          `Власник або адміністратори: створити ключ API (name 1–60 символів, неповторна серед активних; scope read чи run); до ${API_KEYS_PER_ORGANISATION} активних ключів. ` +
          'Відповідь — єдиний раз, коли видно сам ключ (`secret`, ka_…); зберігається лише його SHA-256',
        request: { params: idParam, body: jsonBody(apiKeyInput) },
        responses: { 201: jsonResponse(apiKeyCreatedSchema, 'Ключ створено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      managersOnly,
    ),
    async (c) => {
      const input = c.req.valid('json');
      const made = await createApiKey(c.get('db'), c.req.valid('param').id, input, c.var.auth.user.id);
      if (!made.ok) {
        if (made.reason === 'notFound') fail(404, 'organisation.notFound');
        if (made.reason === 'nameTaken') fail(409, 'apiKeys.nameTaken');
        fail(409, 'apiKeys.tooManyKeys', { max: API_KEYS_PER_ORGANISATION });
      }
      c.header('Cache-Control', 'private, no-store');
      return c.json({ message: t('apiKeys.created', { name: made.key.name }), key: made.key, secret: made.secret }, 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/api-keys/{keyId}',
        tags,
        summary: 'Власник або адміністратори: відкликати ключ API — запити з ним одразу отримують 401; ключ лишається в списку відкликаним',
        request: { params: keyParams },
        responses: { 200: jsonResponse(apiKeyRevokedSchema, 'Ключ відкликано'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      const { id, keyId } = c.req.valid('param');
      const key = await revokeApiKey(c.get('db'), id, keyId);
      if (!key) fail(404, 'apiKeys.notFound');
      return c.json({ message: t('apiKeys.revoked', { name: key.name }), key }, 200);
    },
  );
