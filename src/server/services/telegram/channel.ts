/**
 * An organisation's Telegram channel (issue 60, decision 043): where the site's bot announces the
 * organisation's new tournaments and champions. Saved only once Telegram says the bot is an admin
 * there allowed to post (getChat, getChatMember); kept as the organisation's endpoint of kind
 * `telegram` with the chat's numeric id (it survives the channel's renaming), so its announcements
 * go through the organisations' outbox (services/integrations/deliveries.ts) as Discord's do.
 */
import { GrammyError } from 'grammy';
import { TELEGRAM_EVENTS } from '../../../lib/domain/organisation-events.ts';
import type { Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { channelOf, deliveryLog, saveChannel } from '../integrations/endpoints.ts';
import type { Telegram } from '../../telegram/telegram-bot.ts';

export type ChannelCheck = { ok: true; chatId: string } | { ok: false; reason: 'notFound' | 'notAdmin' | 'unreachable' };

/** Asks Telegram whether `chat` (@username or id) exists and the bot may post there. */
export async function checkChannel(telegram: Telegram, chat: string): Promise<ChannelCheck> {
  try {
    if (!telegram.bot.isInited()) await telegram.bot.init();
    const found = await telegram.bot.api.getChat(chat);
    const member = await telegram.bot.api.getChatMember(found.id, telegram.bot.botInfo.id);
    const mayPost = member.status === 'creator' || (member.status === 'administrator' && (found.type !== 'channel' || member.can_post_messages === true));
    return mayPost ? { ok: true, chatId: String(found.id) } : { ok: false, reason: 'notAdmin' };
  } catch (error) {
    if (error instanceof GrammyError && error.error_code < 500 && error.error_code !== 429) {
      // 400 «chat not found», 403 «bot is not a member of the channel chat».
      return { ok: false, reason: error.error_code === 403 ? 'notAdmin' : 'notFound' };
    }
    return { ok: false, reason: 'unreachable' };
  }
}

/** The organisation's channel as its managers see it, with its latest announcements; null when none is set. */
export async function telegramChannelOf(db: Tx, organisationId: string) {
  const row = await channelOf(db, organisationId, 'telegram');
  return row ? { chat: row.url, broken: row.brokenAt !== null, locale: row.locale, log: await deliveryLog(db, row.id) } : null;
}

/** Sets the organisation's channel (checked with Telegram by the caller): a new one replaces the old, the same one mends a broken one. */
export async function saveTelegramChannel(db: Tx, organisationId: string, chatId: string, locale: Locale, userId: string) {
  await saveChannel(db, { organisationId, kind: 'telegram', url: chatId, events: TELEGRAM_EVENTS, locale, userId });
  return telegramChannelOf(db, organisationId);
}
