import { z } from '@hono/zod-openapi';
import { discordInput, integrationsSchema } from '../../../lib/api/integrations.ts';
import { telegramIntegrationSchema } from '../../../lib/api/telegram.ts';
import { currentLocale, t } from '../../../lib/i18n/index.ts';
import { integrationsOf, removeChannel, saveDiscord } from '../../services/integrations/endpoints.ts';
import { telegramChannelOf } from '../../services/telegram/channel.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';
import { managersOnly } from '../organisation-guards.ts';

const tags = ['Організації'];
const idParam = z.object({ id: z.uuid() });
const saved = z.object({ message: z.string(), integrations: integrationsSchema });
/** With the organisation's Telegram channel when the site has a bot (routes/organisation-telegram.ts sets it). */
const integrationsWithTelegram = integrationsSchema.extend({ telegram: telegramIntegrationSchema.optional() });

/**
 * Mounted at /organisations: an organisation's integrations (issue 60), for its owner and admins
 * only. Its Discord channel's webhook hears of its new tournaments and champions; the log shows
 * what was posted and what failed.
 */
export const organisationIntegrationRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/integrations',
        tags,
        summary: 'Власник або адміністратори: інтеграції організації — вебхук Discord (токен скорочено) і журнал доставки останніх подій',
        request: { params: idParam },
        responses: { 200: jsonResponse(integrationsWithTelegram, 'Інтеграції; telegram — канал Telegram, коли на сайті є бот'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      const { id } = c.req.valid('param');
      const telegram = c.get('deps').telegram;
      const channel = telegram && { bot: telegram.bot.isInited() ? telegram.bot.botInfo.username : null, channel: await telegramChannelOf(c.get('db'), id) };
      return c.json({ ...(await integrationsOf(c.get('db'), id)), ...(channel ? { telegram: channel } : {}) }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}/discord',
        tags,
        summary:
          'Власник або адміністратори: під’єднати канал Discord його вебхуком (https://discord.com/api/webhooks/{id}/{token}); ' +
          'нові турніри організації й чемпіони публікуються там мовою того, хто зберіг. Нова адреса замінює стару й лагодить зламану',
        request: { params: idParam, body: jsonBody(discordInput) },
        responses: { 200: jsonResponse(saved, 'Збережено'), ...errors(400, 401, 403, 404, 415) },
      },
      managersOnly,
    ),
    async (c) => {
      const integrations = await saveDiscord(c.get('db'), c.req.valid('param').id, c.req.valid('json').url, currentLocale(), c.var.auth.user.id);
      return c.json({ message: t('integrations.discord.saved'), integrations }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/discord',
        tags,
        summary: 'Власник або адміністратори: від’єднати Discord; події, що ще не надіслані, зникають разом із ним',
        request: { params: idParam },
        responses: { 200: jsonResponse(saved, 'Від’єднано'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      if (!(await removeChannel(c.get('db'), id, 'discord'))) fail(404, 'integrations.discord.notConnected');
      return c.json({ message: t('integrations.discord.removed'), integrations: await integrationsOf(c.get('db'), id) }, 200);
    },
  );
