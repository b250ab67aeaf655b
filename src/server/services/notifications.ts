import type { Tx } from '../db/client.ts';
import { notifications, type NotificationAction, type NotificationPayload } from '../db/schema/index.ts';

type ActionType = (typeof notifications.$inferInsert)['actionType'];

/** Stores a notification for one user; the bell shows it (SPEC §3 Notification). */
export async function notify(
  db: Tx,
  userId: string,
  text: string,
  options: { actions?: NotificationAction[]; actionType?: ActionType; payload?: NotificationPayload } = {},
): Promise<void> {
  await db.insert(notifications).values({
    userId,
    text,
    actions: options.actions ?? [],
    actionType: options.actionType ?? null,
    payload: options.payload ?? {},
  });
}
