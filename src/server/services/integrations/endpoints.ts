import { and, desc, eq } from 'drizzle-orm';
import type { IntegrationsView } from '../../../lib/api/integrations.ts';
import { DISCORD_EVENTS, maskedWebhook, type OrganisationEvent } from '../../../lib/domain/organisation-events.ts';
import type { Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';

/* An organisation's integrations (issue 60), as its managers set them: its Discord channel's webhook, and what its channels share. */

const LOG_LENGTH = 20;

/** The kinds of endpoint an organisation has one of: a channel. */
type ChannelKind = 'discord' | 'telegram';

/** The organisation's channel of `kind`, as a condition on its endpoints. */
const channelWhere = (organisationId: string, kind: ChannelKind) =>
  and(eq(organisationEndpoints.organisationId, organisationId), eq(organisationEndpoints.kind, kind));

/** The organisation's channel of `kind`, if set. */
export async function channelOf(db: Tx, organisationId: string, kind: ChannelKind) {
  const [row] = await db.select().from(organisationEndpoints).where(channelWhere(organisationId, kind));
  return row;
}

/** What the manage page shows: the channel (its secret cut short), whether it broke, and the latest deliveries. */
export async function integrationsOf(db: Tx, organisationId: string): Promise<IntegrationsView> {
  const endpoint = await channelOf(db, organisationId, 'discord');
  if (!endpoint) return { discord: null, log: [] };
  return {
    discord: { url: maskedWebhook(endpoint.url), broken: endpoint.brokenAt !== null, locale: endpoint.locale },
    log: await deliveryLog(db, endpoint.id),
  };
}

/** The latest deliveries of one endpoint (its Discord channel or its Telegram channel), newest first. */
export async function deliveryLog(db: Tx, endpointId: string) {
  const log = await db
    .select()
    .from(endpointDeliveries)
    .where(eq(endpointDeliveries.endpointId, endpointId))
    .orderBy(desc(endpointDeliveries.createdAt), desc(endpointDeliveries.id))
    .limit(LOG_LENGTH);
  return log.map(loggedDelivery);
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

/** Sets the organisation's Discord webhook (the caller checked the address's form), as `saveChannel` says. */
export async function saveDiscord(db: Tx, organisationId: string, url: string, locale: Locale, userId: string): Promise<IntegrationsView> {
  await saveChannel(db, { organisationId, kind: 'discord', url, events: DISCORD_EVENTS, locale, userId });
  return integrationsOf(db, organisationId);
}

/**
 * Sets an organisation's one channel of `kind` (its Discord webhook, its Telegram chat): the same
 * address mends a broken one and keeps its log; a new one replaces the old with its log and its
 * undelivered events, so nothing meant for the old channel reaches the new one.
 */
export async function saveChannel(
  db: Tx,
  channel: { organisationId: string; kind: ChannelKind; url: string; events: readonly OrganisationEvent[]; locale: Locale; userId: string },
): Promise<void> {
  const { organisationId, kind, url, locale, userId } = channel;
  const events = [...channel.events];
  await db.transaction(async (tx) => {
    const [old] = await tx.select().from(organisationEndpoints).where(channelWhere(organisationId, kind)).for('update');
    if (old && old.url === url) {
      await tx.update(organisationEndpoints).set({ brokenAt: null, events, locale }).where(eq(organisationEndpoints.id, old.id));
      return;
    }
    if (old) await tx.delete(organisationEndpoints).where(eq(organisationEndpoints.id, old.id));
    await tx
      .insert(organisationEndpoints)
      .values({ organisationId, kind, url, events, locale, createdBy: userId })
      .onConflictDoUpdate({
        target: organisationEndpoints.organisationId,
        targetWhere: eq(organisationEndpoints.kind, kind),
        set: { url, events, locale, createdBy: userId, brokenAt: null },
      });
  });
}

/** Disconnects the organisation's channel of `kind`, its undelivered events with it; false when none was set. */
export async function removeChannel(db: Tx, organisationId: string, kind: ChannelKind): Promise<boolean> {
  const removed = await db.delete(organisationEndpoints).where(channelWhere(organisationId, kind)).returning({ id: organisationEndpoints.id });
  return removed.length > 0;
}
