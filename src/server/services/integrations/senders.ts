import { DISCORD_EVENTS, type EndpointKind } from '../../../lib/domain/organisation-events.ts';
import type { Delivery, DeliveryDeps, Endpoint, PostOutcome } from './delivery-types.ts';
import { discordEmbed, postToDiscord } from './discord.ts';
import { postToTelegramChannel } from './telegram-channel.ts';
import { postToWebhook } from './webhook-sender.ts';

/**
 * How each kind of endpoint is sent an event (issue 60). The outbox (deliveries.ts) claims, retries
 * and logs; a sender only posts one delivery and says how it went.
 */

type Sender = (endpoint: Endpoint, delivery: Delivery, deps: DeliveryDeps) => Promise<PostOutcome>;

const isDiscordEvent = (event: string): event is (typeof DISCORD_EVENTS)[number] => (DISCORD_EVENTS as readonly string[]).includes(event);

export const SENDERS: Record<EndpointKind, Sender> = {
  discord: async (endpoint, { event, payload }, deps) =>
    isDiscordEvent(event)
      ? postToDiscord(endpoint.url, discordEmbed(event, payload, endpoint.locale, deps.siteUrl), deps.discordApi, deps.timeoutMs)
      : { ok: false, gone: false, status: 0, error: `Discord does not announce ${event}`, retryAfterMs: null },
  telegram: postToTelegramChannel,
  webhook: postToWebhook,
};
