import type { Dispatcher } from 'undici';
import type { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';
import type { Telegram } from '../../telegram/telegram-bot.ts';

/* What the organisations' outbox (deliveries.ts) and its senders (senders.ts) share. */

/** How a post went: sent; gone for good (the address was deleted: nothing more goes there); or to try again, when the service said or after the back-off. */
export type PostOutcome = { ok: true; status?: number } | { ok: false; gone: boolean; status: number; error: string; retryAfterMs: number | null };

export type Endpoint = typeof organisationEndpoints.$inferSelect;
export type Delivery = typeof endpointDeliveries.$inferSelect;

export interface DeliveryDeps {
  siteUrl: string;
  /** Discord's API root: https://discord.com/api, or a test's stand-in. */
  discordApi: string;
  /** The site's Telegram bot, for organisations' Telegram channels (telegram-channel.ts); absent with Telegram off. */
  telegram?: Telegram | undefined;
  timeoutMs?: number;
  /**
   * How outgoing webhooks connect: by default a pool that dials public addresses only
   * (server/outbound/public-only.ts). Tests give their own to reach a receiver on loopback, and
   * `privateAllowed` lets an address written as a private IP through.
   */
  outbound?: { dispatcher: Dispatcher; privateAllowed: boolean };
}
