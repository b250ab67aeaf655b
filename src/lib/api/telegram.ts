import { z } from 'zod';
import { locales, type Locale } from '../i18n/core.ts';
import { t } from '../i18n/index.ts';
import { deliverySchema } from './integrations.ts';

/* Telegram (issue 60, decision 043): a player's link with the bot, and an organisation's channel. */

/** GET /api/telegram/link: whether the site has a bot, its username, and the caller's linked Telegram (null when not linked). */
export const telegramLinkSchema = z.object({
  enabled: z.boolean(),
  bot: z.string().nullable(),
  linked: z.object({ username: z.string(), linkedAt: z.string() }).nullable(),
});
export type TelegramLinkView = z.infer<typeof telegramLinkSchema>;

/** POST /api/telegram/link: the one-time deep link that opens the bot (valid 15 minutes). */
export const telegramLinkMadeSchema = z.object({ message: z.string(), url: z.string(), expiresAt: z.string() });

/**
 * A channel as Telegram names it: its public @username (5–32 characters) or its numeric id
 * (channels' start with -100). Written as the manager gives it; the server asks Telegram to check it.
 */
export const TELEGRAM_CHAT = /^(?:@[A-Za-z]\w{4,31}|-?\d{5,20})$/;

/** PUT /api/organisations/{id}/telegram. */
export const telegramChannelInput = z
  .object({
    chat: z
      .string()
      .trim()
      .max(40, { error: () => t('telegram.channel.badChat') })
      .regex(TELEGRAM_CHAT, { error: () => t('telegram.channel.badChat') }),
  })
  .strict();

/**
 * The organisation's channel as its managers see it: its id in Telegram, whether the bot lost its
 * rights there, the language it is written in, and its latest announcements.
 */
export const telegramChannelSchema = z.object({
  chat: z.string(),
  broken: z.boolean(),
  locale: z.enum(locales as [Locale, ...Locale[]]),
  log: z.array(deliverySchema),
});

/** The `telegram` field of GET /api/organisations/{id}/integrations: absent when the site has no bot. */
export const telegramIntegrationSchema = z.object({ bot: z.string().nullable(), channel: telegramChannelSchema.nullable() });
export type TelegramIntegrationView = z.infer<typeof telegramIntegrationSchema>;
