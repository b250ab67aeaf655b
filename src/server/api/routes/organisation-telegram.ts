import { z } from '@hono/zod-openapi';
import { telegramChannelInput, telegramIntegrationSchema } from '../../../lib/api/telegram.ts';
import { currentLocale, t } from '../../../lib/i18n/index.ts';
import { removeChannel } from '../../services/integrations/endpoints.ts';
import { checkChannel, saveTelegramChannel, telegramChannelOf } from '../../services/telegram/channel.ts';
import type { Deps } from '../context.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';
import { managersOnly } from '../organisation-guards.ts';

const tags = ['Організації'];
const idParam = z.object({ id: z.uuid() });
const saved = z.object({ message: z.string(), telegram: telegramIntegrationSchema });

const REFUSALS = {
  notFound: [422, 'telegram.channel.notFound'],
  notAdmin: [422, 'telegram.channel.notAdmin'],
  unreachable: [503, 'telegram.channel.unreachable'],
} as const;

/** The site's bot, or 404 when it has none (TELEGRAM_BOT_TOKEN unset). */
function telegramOf(deps: Deps) {
  if (!deps.telegram) fail(404, 'telegram.off');
  return deps.telegram;
}

/**
 * Mounted at /organisations: an organisation's Telegram channel (issue 60, decision 043), for its
 * owner and admins only; 404 while the site has no bot. The channel hears of the organisation's new
 * tournaments and champions through the organisations' outbox.
 */
export const organisationTelegramRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}/telegram',
        tags,
        summary:
          'Власник або адміністратори: під’єднати канал Telegram (@назва або числовий id), де бот сайту — адміністратор із правом публікувати; ' +
          'там оголошуються нові турніри організації й чемпіони мовою того, хто зберіг. Новий канал замінює старий',
        request: { params: idParam, body: jsonBody(telegramChannelInput) },
        responses: { 200: jsonResponse(saved, 'Збережено'), ...errors(400, 401, 403, 404, 415, 422, 503) },
      },
      managersOnly,
    ),
    async (c) => {
      const telegram = telegramOf(c.get('deps'));
      const checked = await checkChannel(telegram, c.req.valid('json').chat);
      if (!checked.ok) fail(REFUSALS[checked.reason][0], REFUSALS[checked.reason][1]);
      const channel = await saveTelegramChannel(c.get('db'), c.req.valid('param').id, checked.chatId, currentLocale(), c.var.auth.user.id);
      return c.json({ message: t('telegram.channel.saved'), telegram: { bot: telegram.bot.botInfo.username, channel } }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/telegram',
        tags,
        summary: 'Власник або адміністратори: від’єднати канал Telegram; оголошення, що ще не надіслані, зникають разом із ним',
        request: { params: idParam },
        responses: { 200: jsonResponse(saved, 'Від’єднано'), ...errors(400, 401, 403, 404) },
      },
      managersOnly,
    ),
    async (c) => {
      const telegram = telegramOf(c.get('deps'));
      const { id } = c.req.valid('param');
      if (!(await removeChannel(c.get('db'), id, 'telegram'))) fail(404, 'telegram.channel.notConnected');
      return c.json(
        {
          message: t('telegram.channel.removed'),
          telegram: { bot: telegram.bot.isInited() ? telegram.bot.botInfo.username : null, channel: await telegramChannelOf(c.get('db'), id) },
        },
        200,
      );
    },
  );
