import { z } from '@hono/zod-openapi';
import { webhookCreatedSchema, webhookInput, webhooksSchema } from '../../../lib/api/webhooks.ts';
import { currentLocale, t } from '../../../lib/i18n/index.ts';
import { createWebhook, removeWebhook, webhooksOf } from '../../services/integrations/webhooks.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';
import { managersOnly } from '../organisation-guards.ts';

const tags = ['Організації'];
const idParam = z.object({ id: z.uuid() });
const webhookParams = z.object({ id: z.uuid(), webhookId: z.uuid() });

/** Why a webhook was refused: the address's form and reach (400), the organisation's limit and a repeat (409). */
const REFUSALS = { badUrl: 400, credentials: 400, privateAddress: 400, tooMany: 409, duplicate: 409 } as const;

/**
 * Mounted at /organisations: an organisation's outgoing webhooks (issue 60), for its owner and
 * admins only. Each hears of the events it chose; deliveries are signed as Standard Webhooks
 * says, retried with back-off and logged (services/integrations/webhook-sender.ts).
 */
export const organisationWebhookRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/webhooks',
        tags,
        summary: 'Власник або адміністратори: вихідні вебхуки організації (без секретів) і їхні останні доставки',
        request: { params: idParam },
        responses: { 200: jsonResponse(webhooksSchema, 'Вебхуки'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json(await webhooksOf(c.get('db'), c.req.valid('param').id), 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/webhooks',
        tags,
        summary:
          'Власник або адміністратори: додати вебхук — адресу http(s) і події (tournament.created, registration.closed, match.ready, match.completed, tournament.finished). ' +
          'Доставки підписано за Standard Webhooks; секрет підпису `whsec_…` повертається лише цього разу. Адреси, що ведуть у приватні мережі чи на цей сервер, відхиляються',
        request: { params: idParam, body: jsonBody(webhookInput) },
        responses: { 201: jsonResponse(webhookCreatedSchema, 'Додано'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      managersOnly,
    ),
    async (c) => {
      const created = await createWebhook(c.get('db'), c.req.valid('param').id, c.req.valid('json'), currentLocale(), c.var.auth.user.id);
      if (!created.ok) fail(REFUSALS[created.reason], `webhooks.${created.reason}`);
      c.header('Cache-Control', 'private, no-store');
      return c.json({ message: t('webhooks.created'), webhook: created.webhook, secret: created.secret }, 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/webhooks/{webhookId}',
        tags,
        summary: 'Власник або адміністратори: видалити вебхук; недоставлені події зникають разом із ним',
        request: { params: webhookParams },
        responses: { 200: jsonResponse(messageBody, 'Видалено'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      const { id, webhookId } = c.req.valid('param');
      if (!(await removeWebhook(c.get('db'), id, webhookId))) fail(404, 'webhooks.notFound');
      return c.json({ message: t('webhooks.removed') }, 200);
    },
  );
