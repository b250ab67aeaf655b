import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import { telegramLinkMadeSchema, telegramLinkSchema } from '../../../lib/api/telegram.ts';
import { t } from '../../../lib/i18n/index.ts';
import { LINK_TOKEN_MS, linkOf, newLinkToken, unlinkUser } from '../../services/telegram/links.ts';
import type { Telegram } from '../../telegram/telegram-bot.ts';
import type { Deps } from '../context.ts';
import { fail } from '../errors.ts';
import { errors, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

const tags = ['Telegram'];

/** The bot, or 404 when the site has none (TELEGRAM_BOT_TOKEN unset). */
function telegramOf(deps: Deps): Telegram {
  const telegram = deps.telegram;
  if (!telegram) fail(404, 'telegram.off');
  return telegram;
}

/** The bot's username once getMe answered; null while Telegram has not been reached yet. */
const botName = (telegram: Telegram) => (telegram.bot.isInited() ? telegram.bot.botInfo.username : null);

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Mounted at /telegram (issue 60, decision 043): a player's link with the site's bot, and the
 * webhook Telegram posts updates to. While the site has no bot the link's read says
 * `enabled: false` and every other route answers 404.
 */
export const telegramRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/link',
      tags,
      summary: 'Ваш Telegram: чи є на сайті бот (enabled), його ім’я й під’єднаний обліковий запис Telegram (linked: null, коли не під’єднано)',
      responses: { 200: jsonResponse(telegramLinkSchema, 'Стан'), ...errors(401, 404) },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      const telegram = c.get('deps').telegram;
      // The cabinet asks on every visit: with no bot the answer says so (as push's key does), not a 404 the page would log.
      if (!telegram) return c.json({ enabled: false, bot: null, linked: null }, 200);
      const linked = await linkOf(c.get('db'), c.var.auth.user.id);
      return c.json({ enabled: true, bot: botName(telegram), linked: linked && { username: linked.username, linkedAt: linked.linkedAt.toISOString() } }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/link',
      tags,
      summary:
        'Посилання https://t.me/<бот>?start=<токен> для під’єднання Telegram: токен одноразовий, діє 15 хвилин, новий замінює попередній. ' +
        'Бот під’єднує чат, з якого надіслано /start <токен>',
      responses: { 201: jsonResponse(telegramLinkMadeSchema, 'Посилання'), ...errors(401, 404, 503) },
    }),
    async (c) => {
      const telegram = telegramOf(c.get('deps'));
      const bot = botName(telegram);
      if (!bot) fail(503, 'telegram.notReady');
      const now = new Date();
      const token = await newLinkToken(c.get('db'), c.var.auth.user.id, now);
      c.header('Cache-Control', 'no-store');
      return c.json(
        { message: t('telegram.linkMade'), url: `https://t.me/${bot}?start=${token}`, expiresAt: new Date(now.getTime() + LINK_TOKEN_MS).toISOString() },
        201,
      );
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/link',
      tags,
      summary: 'Від’єднати Telegram: сповіщення туди більше не надходять, команди бота не діють',
      responses: { 200: jsonResponse(messageBody, 'Від’єднано'), ...errors(401, 404) },
    }),
    async (c) => {
      telegramOf(c.get('deps'));
      if (!(await unlinkUser(c.get('db'), c.var.auth.user.id))) fail(404, 'telegram.notLinked');
      return c.json({ message: t('telegram.disconnected') }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/webhook',
      tags,
      summary: 'Оновлення від Telegram (Update бота). Лише з правильним заголовком X-Telegram-Bot-Api-Secret-Token; інакше 401',
      request: { headers: z.object({ 'x-telegram-bot-api-secret-token': z.string().optional() }) },
      responses: { 200: jsonResponse(z.object({ ok: z.boolean() }), 'Прийнято'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => {
      const telegram = telegramOf(c.get('deps'));
      const secret = c.req.header('x-telegram-bot-api-secret-token') ?? '';
      // Compared as digests: equal lengths for timingSafeEqual, and no time told about how much matched.
      if (!timingSafeEqual(digest(secret), digest(telegram.webhookSecret))) fail(401, 'telegram.webhook.secret');
      const update: unknown = await c.req.json().catch(() => null);
      if (!update || typeof update !== 'object' || Array.isArray(update) || typeof (update as { update_id?: unknown }).update_id !== 'number') {
        fail(400, 'telegram.webhook.bad');
      }
      // Before getMe answered the bot cannot read commands; Telegram sends the update again after a 503.
      if (!telegram.bot.isInited()) fail(503, 'telegram.notReady');
      try {
        await telegram.bot.handleUpdate(update as Parameters<typeof telegram.bot.handleUpdate>[0]);
      } catch (error) {
        // A reply Telegram did not take (the chat blocked the bot meanwhile) must not make Telegram send the update again and again.
        console.error('[telegram] оновлення не оброблено:', (error as { error?: unknown }).error ?? error);
      }
      return c.json({ ok: true }, 200);
    },
  );
