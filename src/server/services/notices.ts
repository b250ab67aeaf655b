/**
 * Match-day notices (issue 22): one call stores each in the bell, worded in the reader's language
 * when read, and sends it by email unless the user turned that kind off. The kinds live in
 * lib/domain/match-day.ts.
 */
import type { NoticeKind } from '../../lib/domain/match-day.ts';
import type { Tx } from '../db/client.ts';
import { notifications, type NotificationPayload } from '../db/schema/index.ts';
import { signalUsers } from './live.ts';

export interface Notice {
  userId: string;
  kind: NoticeKind;
  params?: Record<string, string | number>;
  /** The site path the notice is about: `/matches/{id}`, `/tournaments/{id}`. */
  link?: string;
  tournamentId?: string;
  /** The stored Ukrainian wording, for readers that do not word kinds yet; the kind's name when absent. */
  text?: string;
  /** More of what the notice is about (the application, the team), beside `tournamentId`. */
  payload?: NotificationPayload;
}

/** Stores the notices with the caller's transaction. */
export async function announce(db: Tx, list: readonly Notice[]): Promise<void> {
  if (list.length === 0) return;
  await db.insert(notifications).values(
    list.map((n) => ({
      userId: n.userId,
      text: n.text ?? n.kind,
      kind: n.kind,
      params: n.params ?? {},
      link: n.link ?? null,
      payload: { ...n.payload, ...(n.tournamentId ? { tournamentId: n.tournamentId } : {}) },
    })),
  );
  // Rings the readers' open bells once the caller's transaction commits.
  await signalUsers(db, list.map((n) => n.userId));
}
