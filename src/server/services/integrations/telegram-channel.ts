import { InlineKeyboard } from 'grammy';
import type { TELEGRAM_EVENTS } from '../../../lib/domain/organisation-events.ts';
import { formatDateTime } from '../../../lib/i18n/format.ts';
import { translate } from '../../../lib/i18n/index.ts';
import { buttonable, telegramCall } from '../../telegram/telegram-bot.ts';
import type { Delivery, DeliveryDeps, Endpoint, PostOutcome } from './delivery-types.ts';

/**
 * Posting an organisation's announcements to its Telegram channel (issue 60, decision 043) through
 * the site's bot: a new tournament and a champion, in the language of whoever saved the channel,
 * with a button to the tournament. The outbox (deliveries.ts) retries: a 429 not before Telegram's
 * `retry_after`, 5xx and no answer after its back-off; a channel the bot lost (removed, its rights
 * taken) breaks the endpoint until a manager saves it again.
 */

type TelegramEvent = (typeof TELEGRAM_EVENTS)[number];

/** The announcement's text in `endpoint`'s language. */
export function channelText(event: TelegramEvent, delivery: Pick<Delivery, 'payload'>, locale: Endpoint['locale']): string {
  const { tournament, champion } = delivery.payload;
  if (event === 'tournament.created') {
    return translate(locale, 'telegram.channel.created', { title: tournament.title, game: tournament.game, date: formatDateTime(tournament.date, { locale }) });
  }
  return champion
    ? translate(locale, 'telegram.channel.champion', { title: tournament.title, name: champion })
    : translate(locale, 'telegram.channel.finished', { title: tournament.title });
}

export async function postToTelegramChannel(endpoint: Endpoint, delivery: Delivery, deps: DeliveryDeps): Promise<PostOutcome> {
  const event = delivery.event;
  if (event !== 'tournament.created' && event !== 'tournament.finished')
    return { ok: false, gone: false, status: 0, error: `Telegram does not announce ${event}`, retryAfterMs: null };
  const telegram = deps.telegram;
  // With the bot gone from the site, the announcement waits (and is given up after the outbox's tries).
  if (!telegram) return { ok: false, gone: false, status: 0, error: 'Telegram is off on this site', retryAfterMs: null };
  const url = `${deps.siteUrl}/tournaments/${delivery.payload.tournament.id}`;
  const text = channelText(event, delivery, endpoint.locale);
  const button = translate(endpoint.locale, 'telegram.channel.button');
  const outcome = await telegramCall(() =>
    buttonable(url)
      ? telegram.bot.api.sendMessage(endpoint.url, text, { reply_markup: new InlineKeyboard().url(button, url) })
      : telegram.bot.api.sendMessage(endpoint.url, `${text}\n\n${url}`),
  );
  if (outcome.kind === 'sent') return { ok: true, status: 200 };
  return {
    ok: false,
    gone: outcome.kind === 'gone',
    status: outcome.status,
    error: outcome.reason,
    retryAfterMs: outcome.kind === 'retry' ? (outcome.afterMs ?? null) : null,
  };
}
