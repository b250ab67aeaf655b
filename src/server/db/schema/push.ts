import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { notifications } from './notifications.ts';

/**
 * The site's VAPID key pair for web push (issue 60, decision 042): made by the first instance that
 * starts with PUSH_SUBJECT set and kept here, so every instance signs with the same key and a
 * browser's subscription, made with the public one, outlives restarts. One row: `id` is always 1,
 * and instances starting at once agree through `insert … on conflict do nothing`.
 */
export const pushKeys = pgTable(
  'push_keys',
  {
    id: smallint('id').primaryKey().default(1),
    /** The public key, URL-safe base64 without padding (an uncompressed P-256 point): what browsers subscribe with. */
    publicKey: text('public_key').notNull(),
    privateKey: text('private_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_keys_one_row', sql`${t.id} = 1`)],
);

/**
 * A device that takes a user's notices by web push: the browser's PushSubscription (its push
 * service's endpoint and the keys the payload is encrypted to). An endpoint belongs to one user at
 * a time, the one signed in on that device last. `seen_at` is when the device last said it holds
 * it (the cabinet says so on every visit), which keeps a user's newest devices when there are too many.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
    seenAt: createdAt('seen_at'),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint_idx').on(t.endpoint), index('push_subscriptions_user_idx').on(t.userId, t.seenAt)],
);

/**
 * The outbox of web push: one row per notice and device, written in the transaction that stored
 * the notice, claimed by a sender (`for update skip locked`) and deleted once the push service took
 * it, the device is gone, or it was given up (services/notices/push-outbox.ts).
 */
export const pushDeliveries = pgTable(
  'push_deliveries',
  {
    id: id(),
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => pushSubscriptions.id, { onDelete: 'cascade' }),
    /** Tries so far; also the fence of a claim (only the latest claim may settle the row). */
    attempts: integer('attempts').notNull().default(0),
    /** Not tried before this moment: a sender's lease while it is sent, or the wait after a failed try. Null: due now. */
    after: at('after'),
    createdAt: createdAt(),
  },
  (t) => [
    index('push_deliveries_created_idx').on(t.createdAt),
    uniqueIndex('push_deliveries_notification_idx').on(t.notificationId, t.subscriptionId),
    index('push_deliveries_subscription_idx').on(t.subscriptionId),
  ],
);
