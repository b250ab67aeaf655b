import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { DELIVERY_ATTEMPTS, nextAttemptAt } from '../../../lib/domain/organisation-events.ts';
import type { Database } from '../../db/client.ts';
import { endpointDeliveries, organisationEndpoints } from '../../db/schema/index.ts';
import type { Sweep } from '../sweeps.ts';
import type { DeliveryDeps } from './delivery-types.ts';
import { SENDERS } from './senders.ts';

/**
 * The organisations' outbox (issue 60): deliveries written with the changes they tell of
 * (events.ts) are claimed a few at a time and posted. The claim moves the row's next attempt a
 * lease ahead, so a sender that dies leaves it to another after the lease; the attempt number
 * fences the settling, so a late sender cannot overwrite a newer claim. A failure waits Retry-After
 * or a doubling back-off and is given up after `DELIVERY_ATTEMPTS`; an address the service says is
 * gone marks its endpoint broken, and its other deliveries wait for a new address no more.
 */

export type { DeliveryDeps };

const PER_CLAIM = 10;
/** Longer than a post's timeout and its own work, so a live claim is never taken over. */
const LEASE_MS = 60_000;

export interface DeliveryRun {
  sent: number;
  retried: number;
  failed: number;
}

async function claim(db: Database, now: Date, limit: number) {
  const due = db
    .select({ id: endpointDeliveries.id })
    .from(endpointDeliveries)
    .where(and(eq(endpointDeliveries.state, 'pending'), lte(endpointDeliveries.nextAttemptAt, now)))
    .orderBy(endpointDeliveries.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(endpointDeliveries)
    .set({ attempts: sql`${endpointDeliveries.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(endpointDeliveries.id, due))
    .returning();
  if (claimed.length === 0) return [];
  const endpoints = await db
    .select()
    .from(organisationEndpoints)
    .where(
      inArray(
        organisationEndpoints.id,
        claimed.map((c) => c.endpointId),
      ),
    );
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  return claimed.map((delivery) => ({ delivery, endpoint: byId.get(delivery.endpointId)! }));
}

/** Settles one claim, if it is still the latest (`attempts` is its fence). */
async function settle(db: Database, id: string, attempts: number, set: Partial<typeof endpointDeliveries.$inferInsert>): Promise<void> {
  await db
    .update(endpointDeliveries)
    .set(set)
    .where(and(eq(endpointDeliveries.id, id), eq(endpointDeliveries.attempts, attempts), eq(endpointDeliveries.state, 'pending')));
}

/** Posts what is due, claim by claim, until nothing is due or a claim comes back short. */
export async function sendDueDeliveries(db: Database, deps: DeliveryDeps, now = new Date()): Promise<DeliveryRun> {
  const run: DeliveryRun = { sent: 0, retried: 0, failed: 0 };
  for (let rounds = 0; rounds < 10; rounds++) {
    const claimed = await claim(db, now, PER_CLAIM);
    for (const { delivery, endpoint } of claimed) {
      if (endpoint.brokenAt) {
        await settle(db, delivery.id, delivery.attempts, { state: 'failed', lastError: 'endpoint broken' });
        run.failed++;
        continue;
      }
      const outcome = await SENDERS[endpoint.kind](endpoint, delivery, deps);
      if (outcome.ok) {
        await settle(db, delivery.id, delivery.attempts, { state: 'sent', sentAt: new Date(), lastStatus: outcome.status ?? 200, lastError: null });
        run.sent++;
        continue;
      }
      const last = { lastStatus: outcome.status, lastError: outcome.error };
      if (outcome.gone) {
        await db.update(organisationEndpoints).set({ brokenAt: new Date() }).where(eq(organisationEndpoints.id, endpoint.id));
        await settle(db, delivery.id, delivery.attempts, { state: 'failed', ...last });
        run.failed++;
      } else if (delivery.attempts >= DELIVERY_ATTEMPTS) {
        await settle(db, delivery.id, delivery.attempts, { state: 'failed', ...last });
        run.failed++;
      } else {
        await settle(db, delivery.id, delivery.attempts, { nextAttemptAt: nextAttemptAt(now, delivery.attempts, outcome.retryAfterMs), ...last });
        run.retried++;
      }
    }
    if (claimed.length < PER_CLAIM) break;
  }
  return run;
}

/** The outbox's sweep, for `SWEEPS`: every instance posts what is due every few seconds. */
export const deliverySweep = (deps: DeliveryDeps): Sweep => ({ name: 'deliveries', everyMs: 3000, run: (db, now) => sendDueDeliveries(db, deps, now) });
