import { z } from '@hono/zod-openapi';
import { pushEndpointInput, pushKeySchema, pushSubscriptionInput } from '../../../lib/api/push.ts';
import { t } from '../../../lib/i18n/index.ts';
import { devicesOf, subscribeDevice, unsubscribeDevice } from '../../services/notices/push-subscriptions.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, publicRead, router, userRoute } from '../openapi.ts';

const tags = ['Сповіщення'];
const registered = z.object({ message: z.string(), devices: z.number().int() });

/**
 * Mounted at /push: web push (issue 60). The key is a public read (the same for everyone); a device
 * is registered and forgotten by its signed-in user. With PUSH_SUBJECT unset (`deps.push` absent)
 * the key says `enabled: false` and no device is registered.
 */
export const pushRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/key',
      tags,
      summary: 'Чи надсилає сайт сповіщення на пристрої, і публічний ключ VAPID, з яким браузер на них підписується',
      responses: { 200: jsonResponse(pushKeySchema, '{ enabled: false }, коли сповіщення на пристрої вимкнено (PUSH_SUBJECT не задано)') },
    }),
    async (c) => {
      const push = c.get('deps').push;
      return c.json(push ? { enabled: true, publicKey: push.publicKey } : { enabled: false }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/subscriptions',
      tags,
      summary:
        'Увімкнути сповіщення на цьому пристрої: PushSubscription браузера (endpoint https, keys.p256dh, keys.auth). Той самий endpoint ще раз оновлює його; чужий переходить до вас (пристрій, де ви увійшли останнім). До 20 пристроїв: найдавніший відпадає',
      request: { body: jsonBody(pushSubscriptionInput) },
      responses: {
        201: jsonResponse(registered, 'Пристрій додано; devices — скільки їх у вас'),
        200: jsonResponse(registered, 'Пристрій уже був, оновлено'),
        ...errors(400, 401, 404, 415, 422),
      },
    }),
    async (c) => {
      if (!c.get('deps').push) fail(404, 'notices.push.off');
      const { user } = c.var.auth;
      const { endpoint, keys } = c.req.valid('json');
      const result = await subscribeDevice(c.get('db'), user.id, { endpoint, keys });
      if (!result.ok) fail(422, 'notices.push.badKeys');
      const devices = await devicesOf(c.get('db'), user.id);
      return result.created ? c.json({ message: t('notices.push.on'), devices }, 201) : c.json({ message: t('notices.push.on'), devices }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/subscriptions',
      tags,
      summary: 'Вимкнути сповіщення на пристрої за його endpoint (лише свого; повторний виклик нічого не змінює)',
      request: { body: jsonBody(pushEndpointInput) },
      responses: { 200: jsonResponse(z.object({ message: z.string(), removed: z.boolean() }), 'Пристрій більше не отримує ваших сповіщень'), ...errors(400, 401, 415) },
    }),
    async (c) => {
      const removed = await unsubscribeDevice(c.get('db'), c.var.auth.user.id, c.req.valid('json').endpoint);
      return c.json({ message: t('notices.push.offDevice'), removed }, 200);
    },
  );
