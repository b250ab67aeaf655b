import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Notification } from '../../../lib/api/notifications.ts';
import { currentLocale, defaultLocale, t, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { notifications, users, type NotificationAction, type NotificationPayload } from '../../db/schema/index.ts';
import { noticeWords } from './notice-words.ts';
import { signalUsers } from '../live/live.ts';
import { notePushable, pushDeliveriesFor } from './push-outbox.ts';

type ActionType = NonNullable<(typeof notifications.$inferInsert)['actionType']>;
type NotificationRow = typeof notifications.$inferSelect;

/** How many of the newest notifications the bell receives. */
export const NOTIFICATION_LIST_LIMIT = 50;

interface NotificationOptions {
  actions?: NotificationAction[];
  actionType?: ActionType;
  payload?: NotificationPayload;
  /** The site path the notification is about (`/tournaments/{id}`): the bell links its line there. */
  link?: string;
}

/** One notification to store: who gets it, its text and its buttons. */
/**
 * A notice's text: in its reader's language (their account's, `users.locale`), worded when it is
 * stored — not in the language of whoever's action sent it — or, rarely, a text given as is.
 */
export type NoticeText = string | ((locale: Locale) => string);

export interface NewNotification extends NotificationOptions {
  userId: string;
  text: NoticeText;
}

/** Stores a notification for one user; the bell shows it (SPEC §3 Notification). */
export async function notify(db: Tx, userId: string, text: NoticeText, options: NotificationOptions = {}): Promise<void> {
  await notifyAll(db, [{ userId, text, ...options }]);
}

/** Each reader's language, for the notices worded for them. */
async function languagesOf(db: Tx, list: readonly NewNotification[]): Promise<Map<string, Locale>> {
  const readers = [...new Set(list.filter((n) => typeof n.text === 'function').map((n) => n.userId))];
  if (readers.length === 0) return new Map();
  const rows = await db.select({ id: users.id, locale: users.locale }).from(users).where(inArray(users.id, readers));
  return new Map(rows.map((row) => [row.id, row.locale]));
}

/**
 * Stores many notifications (a whole team's, say) in one statement, whatever their number, and
 * queues them for each reader's devices by web push (push-outbox.ts) in the same statement.
 */
export async function notifyAll(db: Tx, list: readonly NewNotification[]): Promise<void> {
  if (list.length === 0) return;
  const languages = await languagesOf(db, list);
  const rows = list.map((n) => ({
    // Named before the insert, so the devices' pushes can name it.
    id: randomUUID(),
    userId: n.userId,
    text: typeof n.text === 'function' ? n.text(languages.get(n.userId) ?? defaultLocale) : n.text,
    actions: n.actions ?? [],
    actionType: n.actionType ?? null,
    payload: n.payload ?? {},
    link: n.link ?? null,
  }));
  // Stored, queued for the readers' devices and their open bells rung (once the caller's transaction commits) in one statement.
  await signalUsers(
    db,
    list.map((n) => n.userId),
    'notification',
    [db.insert(notifications).values(rows), pushDeliveriesFor(rows)!],
  );
  notePushable();
}

const PAYLOAD_KEYS: Record<keyof NotificationPayload, string> = {
  applicationId: 'applicationId',
  teamId: 'teamId',
  tournamentId: 'tournamentId',
};

/** `payload ->> 'key' = value`; the key is a fixed literal (a bound key would be ambiguous to PostgreSQL). */
const payloadIs = (key: keyof NotificationPayload, value: string) =>
  sql`${notifications.payload} ->> ${sql.raw(`'${PAYLOAD_KEYS[key]}'`)} = ${value}`;

/** The accept / decline buttons of an invite; their labels are also shown from the site's catalog. */
export const inviteActions = (): NotificationAction[] => [
  { label: t('notifications.accept'), type: 'accept' },
  { label: t('notifications.reject'), type: 'reject' },
];

/**
 * Deletes the invite notifications one user holds about one thing (`teamId` or `applicationId`
 * in the payload), once the invite is answered or withdrawn. Returns how many went.
 */
export async function withdrawNotifications(
  db: Tx,
  userId: string,
  about: { actionTypes: ActionType[]; key: keyof NotificationPayload; value: string },
): Promise<number> {
  const gone = await db
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.actionType, about.actionTypes),
        payloadIs(about.key, about.value),
      ),
    )
    .returning({ id: notifications.id });
  return gone.length;
}

/** Whether the user holds an invite notification about `value` (the proof that an invite was sent to them). */
export async function holdsInvite(
  db: Tx,
  userId: string,
  about: { actionTypes: ActionType[]; key: keyof NotificationPayload; value: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        inArray(notifications.actionType, about.actionTypes),
        payloadIs(about.key, about.value),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * A notification as the bell shows it. A match-day notice (one with a kind) is worded now, in the
 * reader's language, and carries the page it is about; older ones keep their stored text. The
 * payload shows only what it is about, never the outbox's bookkeeping.
 */
export function presentNotification(row: NotificationRow): Notification {
  const { applicationId, teamId, tournamentId } = row.payload;
  return {
    _id: row.id,
    text: row.kind ? noticeWords(currentLocale(), row.kind, row.params).bell : row.text,
    date: row.date.toISOString(),
    read: row.read,
    actions: row.actions,
    actionType: row.actionType,
    payload: { ...(applicationId ? { applicationId } : {}), ...(teamId ? { teamId } : {}), ...(tournamentId ? { tournamentId } : {}) },
    ...(row.kind ? { kind: row.kind } : {}),
    ...(row.link ? { link: row.link } : {}),
  };
}

/** Notices kept only for their letter (the reader turned the bell off for their kind) are not the bell's. */
const inBell = sql`${notifications.payload} ->> 'mailOnly' is null`;

/** The user's newest notifications, newest first. */
export async function listNotifications(db: Tx, userId: string): Promise<Notification[]> {
  const rows = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), inBell))
    .orderBy(desc(notifications.date), desc(notifications.id))
    .limit(NOTIFICATION_LIST_LIMIT);
  return rows.map(presentNotification);
}

/** Marks every unread notification of the user read; returns how many changed. */
export async function markAllRead(db: Tx, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** Deletes one of the user's own notifications; false when the user has none with that id. */
export async function deleteOwnNotification(db: Tx, userId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}
