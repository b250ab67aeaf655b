import { and, desc, eq } from 'drizzle-orm';
import type { IntegrationsView } from '../../../lib/api/integrations.ts';
import { DISCORD_EVENTS, maskedWebhook } from '../../../lib/domain/organisation-events.ts';
import type { Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';

/* An organisation's integrations (issue 60), as its managers set them: its Discord channel's webhook. */

const LOG_LENGTH = 20;

/** What the manage page shows: the channel (its secret cut short), whether it broke, and the latest deliveries. */
export async function integrationsOf(db: Tx, organisationId: string): Promise<IntegrationsView> {
  const [endpoint] = await db
    .select()
    .from(organisationEndpoints)
    .where(and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'discord')));
  if (!endpoint) return { discord: null, log: [] };
  const log = await db
    .select()
    .from(endpointDeliveries)
    .where(eq(endpointDeliveries.endpointId, endpoint.id))
    .orderBy(desc(endpointDeliveries.createdAt), desc(endpointDeliveries.id))
    .limit(LOG_LENGTH);
  return {
    discord: { url: maskedWebhook(endpoint.url), broken: endpoint.brokenAt !== null, locale: endpoint.locale },
    log: log.map(loggedDelivery),
  };
}

/** A delivery as a manage page's log shows it: the one shape of Discord's log and each webhook's. */
export const loggedDelivery = (d: typeof endpointDeliveries.$inferSelect) => ({
  _id: d.id,
  event: d.event,
  tournament: d.payload.tournament.title,
  state: d.state,
  attempts: d.attempts,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  sentAt: d.sentAt?.toISOString() ?? null,
});

/**
 * Sets the organisation's Discord webhook (the caller checked the address's form): a new address
 * replaces the old, mends a broken one, and keeps the log only while the address stays the same.
 */
export async function saveDiscord(db: Tx, organisationId: string, url: string, locale: Locale, userId: string): Promise<IntegrationsView> {
  await db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(organisationEndpoints)
      .where(and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'discord')))
      .for('update');
    if (old && old.url === url) {
      await tx.update(organisationEndpoints).set({ brokenAt: null, locale }).where(eq(organisationEndpoints.id, old.id));
      return;
    }
    if (old) await tx.delete(organisationEndpoints).where(eq(organisationEndpoints.id, old.id));
    await tx
      .insert(organisationEndpoints)
      .values({ organisationId, kind: 'discord', url, events: [...DISCORD_EVENTS], locale, createdBy: userId })
      .onConflictDoUpdate({
        target: organisationEndpoints.organisationId,
        targetWhere: eq(organisationEndpoints.kind, 'discord'),
        set: { url, locale, createdBy: userId, brokenAt: null },
      });
  });
  return integrationsOf(db, organisationId);
}

/** Disconnects the organisation's Discord, its undelivered events with it; false when none was set. */
export async function removeDiscord(db: Tx, organisationId: string): Promise<boolean> {
  const removed = await db
    .delete(organisationEndpoints)
    .where(and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, 'discord')))
    .returning({ id: organisationEndpoints.id });
  return removed.length > 0;
}
