import type { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';

/* What the organisations' outbox (deliveries.ts) and its senders (senders.ts) share. */

/** How a post went: sent; gone for good (the address was deleted: nothing more goes there); or to try again, when the service said or after the back-off. */
export type PostOutcome = { ok: true; status?: number } | { ok: false; gone: boolean; status: number; error: string; retryAfterMs: number | null };

export type Endpoint = typeof organisationEndpoints.$inferSelect;
export type Delivery = typeof endpointDeliveries.$inferSelect;

export interface DeliveryDeps {
  siteUrl: string;
  /** Discord's API root: https://discord.com/api, or a test's stand-in. */
  discordApi: string;
  timeoutMs?: number;
}
