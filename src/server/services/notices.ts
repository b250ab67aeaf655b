/**
 * Match-day notices (issue 22): one call stores each in the bell, worded in the reader's language
 * when read (notice-words.ts), and queues its letter unless the user turned that kind off. The
 * kinds live in lib/domain/match-day.ts.
 *
 * Letters go through an outbox: the notice's own row carries `mail_state = 'pending'`, written in
 * the caller's transaction, and a sender (`sendDueLetters`: a sweep on every instance, and a kick
 * after each request that announced) sends it later. So a mail server that refuses or hangs never
 * fails the action nor loses the bell's notice; it only delays, retries and at last fails the letter.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { isNoticeOn, type NoticeKind } from '../../lib/domain/match-day.ts';
import type { Database, Tx } from '../db/client.ts';
import { notifications, users, type NotificationPayload } from '../db/schema/index.ts';
import { noticeLetter } from '../mail/letters.ts';
import type { Mailer } from '../mail/mailer.ts';
import { signalUsers } from './live.ts';
import { noticeWords } from './notice-words.ts';
import type { Sweep } from './sweeps.ts';

export interface Notice {
  userId: string;
  kind: NoticeKind;
  /** What the words need; notice-words.ts lists each kind's. */
  params?: Record<string, string | number>;
  /** The site path the notice is about: `/matches/{id}`, `/tournaments/{id}`. */
  link?: string;
  tournamentId?: string;
  /** The stored Ukrainian line when it says more than the kind's words (a team's name, the admin's comment). */
  text?: string;
  /** What else the notice is about (the application, the team), beside `tournamentId`. */
  payload?: Pick<NotificationPayload, 'applicationId' | 'teamId'>;
}

/** Set when notices were stored; the request's kick (`kickLetters`) sends their letters once the transaction committed. */
let announced = false;

/**
 * Stores the notices with the caller's transaction, each as the user's settings say: in the bell
 * unless turned off there, with a letter unless turned off by email or the address is unconfirmed.
 * A notice for neither is not stored; one for the letter alone is kept out of the bell list.
 */
export async function announce(db: Tx, list: readonly Notice[]): Promise<void> {
  if (list.length === 0) return;
  const readers = await db
    .select({ id: users.id, confirmed: users.emailConfirmedAt, settings: users.noticeSettings })
    .from(users)
    .where(inArray(users.id, [...new Set(list.map((n) => n.userId))]));
  const byId = new Map(readers.map((r) => [r.id, r]));
  const rows = list.flatMap((n) => {
    const reader = byId.get(n.userId);
    if (!reader) return [];
    const bell = isNoticeOn(reader.settings, 'bell', n.kind);
    const letter = Boolean(reader.confirmed) && isNoticeOn(reader.settings, 'email', n.kind);
    if (!bell && !letter) return [];
    const params = n.params ?? {};
    return [
      {
        userId: n.userId,
        // Older readers of `text` (and the SPEC shape) get the Ukrainian line; the bell words it anew.
        text: n.text ?? noticeWords('uk', n.kind, params).bell,
        kind: n.kind,
        params,
        link: n.link ?? null,
        payload: { ...n.payload, ...(n.tournamentId ? { tournamentId: n.tournamentId } : {}), ...(bell ? {} : { mailOnly: true as const }) },
        mailState: letter ? ('pending' as const) : null,
      },
    ];
  });
  if (rows.length === 0) return;
  await db.insert(notifications).values(rows);
  if (rows.some((r) => r.mailState)) announced = true;
  // Rings the readers' open bells once the caller's transaction commits (not for a letter alone).
  await signalUsers(
    db,
    rows.filter((r) => !r.payload.mailOnly).map((r) => r.userId),
  );
}

// ------------------------------------------------------------------------------ the outbox

/** Tries per letter before it is marked failed. */
export const MAIL_ATTEMPTS = 5;
/** The wait after the first failure; each next one doubles it (30 s, 1, 2, 4 min). */
export const MAIL_RETRY_MS = 30_000;
/**
 * How long a claimed letter is its sender's alone: longer than the mailer's timeouts together, so
 * no other instance takes it while it is being sent, short enough that a sender that died is
 * replaced soon.
 */
export const MAIL_LEASE_MS = 2 * 60_000;
/** Letters one run sends at most; the next run takes the rest. */
const LETTERS_PER_RUN = 50;

export interface LetterDeps {
  mailer: Mailer;
  /** The site's configured address: letters link to pages under it. */
  siteUrl: string;
}

export interface LetterRun {
  sent: number;
  failed: number;
  /** Failed this time, to be tried again later. */
  retried: number;
}

const mailAfter = sql`coalesce((${notifications.payload} ->> 'mailAfter')::timestamptz, ${notifications.date})`;

/**
 * Takes the oldest letter that is due: marks it as this sender's for `MAIL_LEASE_MS` and counts
 * the attempt, in one statement whose `for update skip locked` lets several instances each take
 * a different one. Returns it with its reader, or undefined when none is due.
 */
async function claimLetter(db: Database, now: Date) {
  const lease = new Date(now.getTime() + MAIL_LEASE_MS).toISOString();
  const due = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.mailState, 'pending'), sql`${mailAfter} <= ${now.toISOString()}::timestamptz`))
    .orderBy(notifications.date)
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(notifications)
    .set({
      mailAttempts: sql`${notifications.mailAttempts} + 1`,
      payload: sql`${notifications.payload} || jsonb_build_object('mailAfter', ${lease}::text)`,
    })
    .where(inArray(notifications.id, due))
    .returning();
  if (!claimed) return undefined;
  const [reader] = await db
    .select({ email: users.email, locale: users.locale, confirmed: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, claimed.userId));
  return { row: claimed, reader };
}

/** Ends a claimed letter: sent, failed for good, or due again after the backoff. */
async function settle(db: Database, id: string, state: 'sent' | 'failed' | { retryAt: Date }): Promise<void> {
  const done = typeof state === 'string';
  await db
    .update(notifications)
    .set({
      mailState: done ? state : 'pending',
      payload: done
        ? sql`${notifications.payload} - 'mailAfter'`
        : sql`${notifications.payload} || jsonb_build_object('mailAfter', ${state.retryAt.toISOString()}::text)`,
    })
    .where(and(eq(notifications.id, id), eq(notifications.mailState, 'pending')));
}

/**
 * Sends the letters that are due, one claimed at a time, in each reader's language (users.locale).
 * A letter whose send fails is tried again after a doubling wait, and after `MAIL_ATTEMPTS` tries
 * is marked `failed`; the bell's notice stays either way. Exactly once across instances: a letter
 * is sent only by the sender that claimed it.
 */
export async function sendDueLetters(db: Database, deps: LetterDeps, now = new Date()): Promise<LetterRun> {
  const run: LetterRun = { sent: 0, failed: 0, retried: 0 };
  for (let n = 0; n < LETTERS_PER_RUN; n++) {
    const claimed = await claimLetter(db, now);
    if (!claimed) break;
    const { row, reader } = claimed;
    // The address was changed (and not yet confirmed) or the account went since the notice.
    if (!reader?.confirmed || !row.kind) {
      await settle(db, row.id, 'failed');
      run.failed++;
      continue;
    }
    const words = noticeWords(reader.locale, row.kind, row.params);
    const link = `${deps.siteUrl}${row.link ?? '/'}`;
    try {
      await deps.mailer.send(noticeLetter(reader.email, words, link, `${deps.siteUrl}/cabinet`, reader.locale));
      await settle(db, row.id, 'sent');
      run.sent++;
    } catch (error) {
      console.error(`[mail] лист ${row.id} не надіслано (спроба ${row.mailAttempts}):`, (error as Error).message);
      if (row.mailAttempts >= MAIL_ATTEMPTS) {
        await settle(db, row.id, 'failed');
        run.failed++;
      } else {
        await settle(db, row.id, { retryAt: new Date(now.getTime() + MAIL_RETRY_MS * 2 ** (row.mailAttempts - 1)) });
        run.retried++;
      }
    }
  }
  return run;
}

/** The outbox's sweep, for `SWEEPS`: every instance sends what is due every few seconds. */
export const letterSweep = (deps: LetterDeps): Sweep => ({
  name: 'letters',
  everyMs: 3000,
  run: (db, now) => sendDueLetters(db, deps, now),
});

const kicks = new WeakMap<Database, Promise<unknown>>();

/**
 * After a request that announced (its transaction has committed by then), sends the new letters
 * now rather than at the next sweep. Never throws and never makes the request wait; a run
 * already going on this database is left to finish, and the sweep takes what it did not.
 */
export function kickLetters(db: Database, deps: LetterDeps): void {
  if (!announced || kicks.has(db)) return;
  announced = false;
  const run = sendDueLetters(db, deps)
    .catch((error: unknown) => console.error('[mail] черга листів:', error))
    .finally(() => kicks.delete(db));
  kicks.set(db, run);
}

/** Resolves once the letters a kick started are sent (tests wait for it). */
export const lettersKicked = async (db: Database): Promise<void> => void (await kicks.get(db));
