import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { WebhooksView, WebhookView } from '../../../lib/api/webhooks.ts';
import {
  WEBHOOK_EVENTS,
  WEBHOOKS_PER_ORGANISATION,
  webhookAddressProblem,
  type WebhookAddressProblem,
  type WebhookEvent,
} from '../../../lib/domain/organisation-events.ts';
import type { Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';
import { isPublicAddress } from '../../outbound/public-only.ts';
import { lockOrganisation } from '../organisations/organisations.ts';
import { loggedDelivery } from './endpoints.ts';

/* An organisation's outgoing webhooks (issue 60), as its managers register them. */

const LOG_LENGTH = 10;

type EndpointRow = typeof organisationEndpoints.$inferSelect;

/** A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64, as the specification's libraries make and read it. */
const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

const isWebhookEvent = (event: string): event is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(event);

async function present(db: Tx, rows: readonly EndpointRow[]): Promise<WebhookView[]> {
  if (rows.length === 0) return [];
  const deliveries = await db
    .select()
    .from(endpointDeliveries)
    .where(
      inArray(
        endpointDeliveries.endpointId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(desc(endpointDeliveries.createdAt), desc(endpointDeliveries.id));
  return rows.map((row) => ({
    _id: row.id,
    url: row.url,
    events: row.events.filter(isWebhookEvent),
    broken: row.brokenAt !== null,
    createdAt: row.createdAt.toISOString(),
    log: deliveries
      .filter((d) => d.endpointId === row.id)
      .slice(0, LOG_LENGTH)
      .map(loggedDelivery),
  }));
}

const webhookRows = (db: Tx, organisationId: string) =>
  db
    .select()
    .from(organisationEndpoints)
    .where(and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'webhook')))
    .orderBy(organisationEndpoints.createdAt, organisationEndpoints.id);

/** The organisation's webhooks with their latest deliveries (never their secrets). */
export async function webhooksOf(db: Tx, organisationId: string): Promise<WebhooksView> {
  return { webhooks: await present(db, await webhookRows(db, organisationId)), limit: WEBHOOKS_PER_ORGANISATION };
}

export type WebhookRefusal = WebhookAddressProblem | 'tooMany' | 'duplicate';

/**
 * Registers a webhook; its secret is returned this once. The organisation's row is locked while
 * its webhooks are counted, so a burst of requests never passes the limit.
 */
export async function createWebhook(
  db: Tx,
  organisationId: string,
  input: { url: string; events: readonly WebhookEvent[] },
  locale: Locale,
  userId: string,
): Promise<{ ok: true; webhook: WebhookView; secret: string } | { ok: false; reason: WebhookRefusal }> {
  const problem = webhookAddressProblem(input.url, (host) => (/^[\d.]+$|:/.test(host) ? isPublicAddress(host) : null));
  if (problem) return { ok: false, reason: problem };
  return db.transaction(async (tx) => {
    await lockOrganisation(tx, organisationId);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(organisationEndpoints)
      .where(and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'webhook')));
    if (n >= WEBHOOKS_PER_ORGANISATION) return { ok: false as const, reason: 'tooMany' as const };
    const [same] = await tx
      .select({ id: organisationEndpoints.id })
      .from(organisationEndpoints)
      .where(
        and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'webhook'), eq(organisationEndpoints.url, input.url)),
      );
    if (same) return { ok: false as const, reason: 'duplicate' as const };
    const secret = newSecret();
    const events = WEBHOOK_EVENTS.filter((e) => input.events.includes(e));
    const [row] = await tx
      .insert(organisationEndpoints)
      .values({ organisationId, kind: 'webhook', url: input.url, events, secret, locale, createdBy: userId })
      .returning();
    const [webhook] = await present(tx, [row!]);
    return { ok: true as const, webhook: webhook!, secret };
  });
}

/** Removes one of the organisation's webhooks, its undelivered events with it; false when it has none by that id. */
export async function removeWebhook(db: Tx, organisationId: string, webhookId: string): Promise<boolean> {
  const removed = await db
    .delete(organisationEndpoints)
    .where(and(eq(organisationEndpoints.id, webhookId), eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'webhook')))
    .returning({ id: organisationEndpoints.id });
  return removed.length > 0;
}
