/**
 * The devices that take a user's notices by web push (issue 60): a browser's PushSubscription,
 * registered by the cabinet and removed by it, or by the outbox when the push service says the
 * device is gone (push-outbox.ts).
 *
 * These writes change no data any answer shows to a reader but the device's own user, and nothing
 * held: they tell no data tag (services/live/changes.ts).
 */
import { ECDH } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { pushDeliveries, pushSubscriptions } from '../../db/schema/index.ts';
import type { PushTarget } from '../../push/push-service.ts';

/** Devices one user keeps at most: past it, the one not seen longest is dropped (it subscribes again on its next visit to the cabinet). */
export const DEVICES_PER_USER = 20;

/** Whether the device's keys can be encrypted to: `p256dh` a point on P-256 (65 bytes, uncompressed), `auth` 16 bytes. */
export function usableKeys(keys: PushTarget['keys']): boolean {
  if (Buffer.from(keys.auth, 'base64url').length !== 16) return false;
  const point = Buffer.from(keys.p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return false;
  try {
    // Throws for bytes that are not a point on the curve: web-push could never encrypt to them.
    ECDH.convertKey(point, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

export type SubscribeResult = { ok: true; created: boolean } | { ok: false; reason: 'badKeys' };

/**
 * Registers the caller's device, or refreshes it (the same endpoint again: its keys and `seen_at`).
 * An endpoint another user registered moves to the caller: a browser holds one subscription per
 * site, so whoever signed in on that device last is who it belongs to; the notices still waiting
 * for it under the other account are dropped, never shown to the new one. Keeps the user's newest
 * `DEVICES_PER_USER`. Changes rows of `push_subscriptions` (and `push_deliveries`) only.
 */
export async function subscribeDevice(db: Database, userId: string, device: PushTarget): Promise<SubscribeResult> {
  if (!usableKeys(device.keys)) return { ok: false, reason: 'badKeys' };
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: pushSubscriptions.id, userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, device.endpoint))
      .for('update');
    if (before && before.userId !== userId) await tx.delete(pushDeliveries).where(eq(pushDeliveries.subscriptionId, before.id));
    const values = { userId, endpoint: device.endpoint, p256dh: device.keys.p256dh, auth: device.keys.auth, seenAt: new Date() };
    await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId, p256dh: values.p256dh, auth: values.auth, seenAt: values.seenAt } });
    // The newest devices stay; the one not seen longest goes first.
    const beyond = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.seenAt), desc(pushSubscriptions.createdAt))
      .offset(DEVICES_PER_USER);
    await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, beyond));
    return { ok: true as const, created: !before };
  });
}

/** Removes the caller's device by its endpoint (its waiting pushes with it); true when it was theirs. Another user's endpoint is left alone. */
export async function unsubscribeDevice(db: Database, userId: string, endpoint: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}

/** How many devices a user has registered. */
export async function devicesOf(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId));
  return row?.count ?? 0;
}
