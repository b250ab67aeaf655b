import { DiscordAPIError, HTTPError, RateLimitError, REST } from '@discordjs/rest';
import { discordWebhook, type DISCORD_EVENTS, type EventPayload } from '../../../lib/domain/organisation-events.ts';
import { formatDateTime } from '../../../lib/i18n/format.ts';
import { translate, type Locale } from '../../../lib/i18n/index.ts';

/**
 * Posting an organisation's events to its Discord channel (issue 60) through Discord's own REST
 * client (`@discordjs/rest`): it builds the request, reads Discord's errors and its rate-limit
 * answers. A 429 is not waited out here (`rejectOnRateLimit`): the delivery is tried again when
 * Discord said, so one slow channel never holds the sweep. `apiRoot` is Discord's API, or a
 * stand-in in the tests (DISCORD_API_ROOT).
 */

import type { PostOutcome } from './delivery-types.ts';

type DiscordEvent = (typeof DISCORD_EVENTS)[number];

const COLOURS: Record<DiscordEvent, number> = { 'tournament.created': 0x22d3ee, 'checkIn.opened': 0x8b5cf6, 'round.started': 0xec4899, 'tournament.finished': 0xf59e0b };
const ICONS: Record<DiscordEvent, string> = { 'tournament.created': '🎮', 'checkIn.opened': '✅', 'round.started': '⚔️', 'tournament.finished': '🏆' };

/** The embed an event is posted as, in the endpoint's language. */
export function discordEmbed(event: DiscordEvent, payload: EventPayload, locale: Locale, siteUrl: string) {
  const say = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => translate(locale, key, params);
  const { tournament } = payload;
  const when = formatDateTime(tournament.date, { locale });
  const description = {
    'tournament.created': () => say('integrations.discord.created', { game: tournament.game, date: when }),
    'checkIn.opened': () => say('integrations.discord.checkInOpened', { time: payload.closesAt ? formatDateTime(payload.closesAt, { locale }) : when }),
    'round.started': () => say('integrations.discord.roundStarted', { round: payload.round?.number ?? 1, stage: payload.round?.stage || say('matchPage.stage', { number: payload.round?.stageNumber ?? 1 }) }),
    'tournament.finished': () => (payload.champion ? say('integrations.discord.champion', { name: payload.champion }) : say('integrations.discord.finished')),
  }[event]();
  return {
    title: `${ICONS[event]} ${tournament.title}`.slice(0, 256),
    url: `${siteUrl}/tournaments/${tournament.id}`,
    description,
    color: COLOURS[event],
    fields: [{ name: say('integrations.discord.game'), value: tournament.game.slice(0, 1024), inline: true }],
    footer: { text: say('integrations.discord.footer') },
  };
}

export async function postToDiscord(url: string, embed: ReturnType<typeof discordEmbed>, apiRoot: string, timeoutMs = 10_000): Promise<PostOutcome> {
  const webhook = discordWebhook(url);
  if (!webhook) return { ok: false, gone: true, status: 0, error: 'not a Discord webhook address', retryAfterMs: null };
  const rest = new REST({ version: '10', api: apiRoot, timeout: timeoutMs, retries: 0, rejectOnRateLimit: () => true });
  try {
    await rest.post(`/webhooks/${webhook.id}/${webhook.token}`, { body: { embeds: [embed], allowed_mentions: { parse: [] } }, auth: false });
    return { ok: true };
  } catch (error) {
    if (error instanceof RateLimitError) return { ok: false, gone: false, status: 429, error: error.message, retryAfterMs: error.retryAfter };
    if (error instanceof DiscordAPIError) {
      // 404 Unknown Webhook, 401 Invalid Webhook Token: the channel's owners removed it.
      return { ok: false, gone: error.status === 404 || error.status === 401, status: error.status, error: error.message.slice(0, 500), retryAfterMs: null };
    }
    if (error instanceof HTTPError) return { ok: false, gone: false, status: error.status, error: error.message.slice(0, 500), retryAfterMs: null };
    return { ok: false, gone: false, status: 0, error: (error as Error).message.slice(0, 500), retryAfterMs: null };
  }
}
