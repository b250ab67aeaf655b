/**
 * Match-day notices (issue 22): one call stores each in the bell, worded in the reader's language
 * when read (notice-words.ts), and queues its letter unless the user turned that kind off. The
 * kinds live in lib/domain/match-day.ts.
 *
 * Letters go through an outbox: the notice's own row carries `mail_state = 'pending'`, written in
 * the caller's transaction, and a sender (`sendDueLetters`: a sweep on every instance, and a kick
 * after each request that announced) sends it later. So a mail server that refuses or hangs never
 * fails the action nor loses the bell's notice; it only delays, retries and at last fails the letter.
 *
 * Letters about an account (a confirmation, an address change) use the same outbox
 * (`queueAccountLetter`): a row kept out of the bell, written with the token it carries, and sent
 * right after the commit by the request that made it (`sendLettersNow`), or later by the sweep.
 *
 * Pushes to the reader's devices have an outbox of their own, a row per notice and device written
 * in the same statement as the notice (push-outbox.ts), and so have messages to the reader's
 * Telegram (services/telegram/notice-outbox.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { isNoticeOn, type NoticeKind, type NoticeSettings } from '../../../lib/domain/match-day.ts';
import { translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Database, Tx } from '../../db/client.ts';
import { perTransaction } from '../../db/per-transaction.ts';
import { together } from '../../db/together.ts';
import { notifications, pushSubscriptions, telegramLinks, users, type NotificationPayload } from '../../db/schema/index.ts';
import { accountLetter, noticeLetter, type AccountLetterKind } from '../../mail/letters.ts';
import type { Letter, Mailer } from '../../mail/mailer.ts';
import { userSignals } from '../live/live.ts';
import { noticeWords } from './notice-words.ts';
import { notePushable, pushDeliveriesFor, type PushableNotice } from './push-outbox.ts';
import { noteTelegram, telegramDeliveriesFor } from '../telegram/notice-outbox.ts';
import { outboxKicks } from '../outbox-kicks.ts';
import type { Sweep } from '../sweeps.ts';

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

/**
 * The request being served, when the app sends its letters right after it (`Deps.letterKick`):
 * `announced` is set once one of its notices queued a letter, so only such requests kick.
 */
const requestScope = new AsyncLocalStorage<{ announced: boolean }>();

/** How a user wants their notices: whether their address is confirmed, and what they turned off. */
export interface Reader {
  id: string;
  confirmed: Date | null;
  settings: NoticeSettings;
  /** Whether they registered a device for web push; not known (undefined) counts as maybe. */
  devices?: boolean;
  /** Whether they linked their Telegram (services/telegram/links.ts); not known counts as maybe. */
  telegram?: boolean;
}

/** The readers a transaction has read (null: no such user), so `announce` reads each once. */
const readersIn = perTransaction<string, Reader | null>();

/** Readers a transaction was told of, read before it opened (match-actions.ts `knowSides`): `announce` asks only for the others. */
export function knowReaders(tx: Tx, readers: readonly Reader[]): void {
  const known = readersIn(tx);
  for (const r of readers) known.set(r.id, r);
}

/**
 * Stores the notices with the caller's transaction, each as the user's settings say: in the bell
 * unless turned off there, with a letter unless turned off by email or the address is unconfirmed,
 * and pushed to each of the user's devices unless turned off by push (push-outbox.ts). A notice for
 * none of them is not stored; one for the letter or the devices alone is kept out of the bell list.
 */
export async function announce(db: Tx, list: readonly Notice[]): Promise<void> {
  const notices = await noticeWrites(db, list);
  await together(db, notices.writes, notices.signal);
  notices.sent();
}

/** Notices as writes (`noticeWrites`): the inserts, the NOTIFY to send with them, and what to do once they are sent. */
export interface NoticeWrites {
  writes: SQLWrapper[];
  signal: SQL | undefined;
  sent: () => void;
}

/**
 * What storing the notices takes, for a caller that sends it with writes of its own in one statement
 * (db/together.ts): the insert, the NOTIFY that rings the readers' open bells once the transaction
 * commits (not for a letter alone), and `sent`, to call once it is sent. `announce` sends it alone.
 */
export async function noticeWrites(db: Tx, list: readonly Notice[]): Promise<NoticeWrites> {
  const none = { writes: [], signal: undefined, sent: () => {} };
  if (list.length === 0) return none;
  const byId = readersIn(db);
  const missing = [...new Set(list.map((n) => n.userId))].filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const readers = await db
      .select({
        id: users.id,
        confirmed: users.emailConfirmedAt,
        settings: users.noticeSettings,
        // Qualified by hand: a select from one table names its columns bare, which inside the subquery would mean its own.
        devices: sql<boolean>`exists (select 1 from ${pushSubscriptions} where ${pushSubscriptions}.${sql.identifier(pushSubscriptions.userId.name)} = ${users}.${sql.identifier(users.id.name)})`,
        telegram: sql<boolean>`exists (select 1 from ${telegramLinks} where ${telegramLinks}.${sql.identifier(telegramLinks.userId.name)} = ${users}.${sql.identifier(users.id.name)})`,
      })
      .from(users)
      .where(inArray(users.id, missing));
    for (const id of missing) byId.set(id, null);
    for (const r of readers) byId.set(r.id, r);
  }
  const rows = list.flatMap((n) => {
    const reader = byId.get(n.userId);
    if (!reader) return [];
    const bell = isNoticeOn(reader.settings, 'bell', n.kind);
    const letter = Boolean(reader.confirmed) && isNoticeOn(reader.settings, 'email', n.kind);
    const push = reader.devices !== false && isNoticeOn(reader.settings, 'push', n.kind);
    const telegram = reader.telegram !== false && isNoticeOn(reader.settings, 'telegram', n.kind);
    if (!bell && !letter && !push && !telegram) return [];
    const params = n.params ?? {};
    return [
      {
        // Named before the insert, so the devices' pushes and the Telegram message can name it in the same statement.
        ...(push || telegram ? { id: randomUUID() } : {}),
        queue: { push, telegram },
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
  if (rows.length === 0) return none;
  const named = rows.filter((r): r is (typeof rows)[number] & PushableNotice => 'id' in r);
  const pushable = named.filter((r) => r.queue.push);
  const toTelegram = named.filter((r) => r.queue.telegram);
  const pushes = pushDeliveriesFor(pushable);
  const messages = telegramDeliveriesFor(toTelegram);
  return {
    writes: [db.insert(notifications).values(rows.map(({ queue: _queue, ...row }) => row)), ...(pushes ? [pushes] : []), ...(messages ? [messages] : [])],
    signal: userSignals(
      rows.filter((r) => !r.payload.mailOnly).map((r) => r.userId),
      'notification',
    ),
    sent: () => {
      const scope = requestScope.getStore();
      if (scope && rows.some((r) => r.mailState)) scope.announced = true;
      if (pushable.length > 0) notePushable();
      if (toTelegram.length > 0) noteTelegram();
    },
  };
}

/** A letter about an account, for `queueAccountLetter`. */
export interface AccountLetterWrite {
  /** The account it is about: the letter goes when the account does. */
  userId: string;
  kind: AccountLetterKind;
  /** The address it goes to: the account's, the new one it asked for, or one another account holds. */
  to: string;
  /** The page its button opens, as a site path (mail/letters.ts `confirmPath`). */
  path: string;
  params: Record<string, string>;
  locale: Locale;
}

/**
 * Queues a letter about an account in the caller's transaction, so it commits, or not, with the
 * account or token it is about. Returns its outbox id, for `sendLettersNow` once committed.
 */
export async function queueAccountLetter(db: Tx, letter: AccountLetterWrite): Promise<string> {
  const [row] = await db
    .insert(notifications)
    .values({
      userId: letter.userId,
      text: translate('uk', `mail.${letter.kind}.subject`),
      link: letter.path,
      payload: { mailOnly: true, letter: { kind: letter.kind, to: letter.to, params: letter.params, locale: letter.locale } },
      mailState: 'pending',
    })
    .returning({ id: notifications.id });
  if (!row) throw new Error('insert returned no letter');
  return row.id;
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
/**
 * Letters claimed in one statement, and settled in one or two: a round's end announces a letter to
 * every player at once, and a statement per letter would make the outbox's cost grow with the field.
 */
const LETTERS_PER_CLAIM = 10;

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

/** A claimed letter: the attempt number is its claim's fence (`settle`). */
interface Claimed {
  id: string;
  mailAttempts: number;
}

/** Claimed letters as `(id, attempt)` pairs: only the latest claim of each may settle it. */
const claimsOf = (list: readonly Claimed[]) =>
  sql`(${notifications.id}, ${notifications.mailAttempts}) in (${sql.join(
    list.map((c) => sql`(${c.id}::uuid, ${c.mailAttempts}::integer)`),
    sql`, `,
  )})`;

/**
 * Takes the oldest letters that are due (of `only`, when given), at most `limit`: holds them as
 * this sender's for `MAIL_LEASE_MS` (their `mail_after`) and counts the attempt, with each
 * reader's address and language, in one statement whose `for update skip locked` lets several
 * instances each take different ones. Oldest first; none when nothing is due.
 */
async function claimLetters(db: Database, now: Date, limit: number, only?: readonly string[]) {
  const due = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.mailState, 'pending'),
        or(isNull(notifications.mailAfter), lte(notifications.mailAfter, now)),
        only ? inArray(notifications.id, [...only]) : undefined,
      ),
    )
    .orderBy(notifications.date)
    .limit(limit)
    .for('update', { skipLocked: true });
  // The reader's columns by subquery, not a join: a letter whose reader is gone is still claimed (and failed).
  const reader = <T>(column: typeof users.email | typeof users.locale | typeof users.emailConfirmedAt) =>
    sql<T | null>`(select ${column} from ${users} where ${users.id} = ${notifications.userId})`;
  const claimed = await db
    .update(notifications)
    .set({ mailAttempts: sql`${notifications.mailAttempts} + 1`, mailAfter: new Date(now.getTime() + MAIL_LEASE_MS) })
    .where(inArray(notifications.id, due))
    .returning({
      id: notifications.id,
      date: notifications.date,
      kind: notifications.kind,
      params: notifications.params,
      link: notifications.link,
      payload: notifications.payload,
      mailAttempts: notifications.mailAttempts,
      email: reader<string>(users.email),
      locale: reader<Locale>(users.locale),
      confirmed: reader<unknown>(users.emailConfirmedAt),
    });
  return claimed.sort((a, b) => a.date.getTime() - b.date.getTime());
}

/**
 * Ends claims: sent, failed for good, or due again at `retryAt` (the lease gives way to the
 * backoff). Only the latest claim may settle (its attempt number is the fence): a sender whose
 * lease ran out and was claimed again by another leaves the row to that one.
 */
async function settle(db: Database, list: readonly Claimed[], state: 'sent' | 'failed' | { retryAt: Date }): Promise<void> {
  if (list.length === 0) return;
  const done = typeof state === 'string';
  // A settled account letter's link held a token: it is not kept once nothing will send it.
  const link = done ? sql`case when ${notifications.payload} -> 'letter' is null then ${notifications.link} end` : notifications.link;
  await db
    .update(notifications)
    .set({ mailState: done ? state : 'pending', mailAfter: done ? null : state.retryAt, link })
    .where(and(eq(notifications.mailState, 'pending'), claimsOf(list)));
}

/** Gives claims back untried (attempt and lease undone), so any sender takes them at once. */
async function release(db: Database, list: readonly Claimed[]): Promise<void> {
  if (list.length === 0) return;
  await db
    .update(notifications)
    .set({ mailAttempts: sql`${notifications.mailAttempts} - 1`, mailAfter: null })
    .where(and(eq(notifications.mailState, 'pending'), claimsOf(list)));
}

/**
 * A claimed row's letter: an account's as it was queued (its own address, unconfirmed as it may
 * be), or a notice's worded in its reader's language. None for a notice whose reader's address
 * was changed (and not yet confirmed) or whose account went since.
 */
function letterOf(row: Awaited<ReturnType<typeof claimLetters>>[number], deps: LetterDeps): Letter | null {
  const link = `${deps.siteUrl}${row.link ?? '/'}`;
  const account = row.payload.letter;
  if (account) return row.link ? accountLetter(account.to, account.kind, link, account.params, account.locale) : null;
  if (!row.confirmed || !row.email || !row.kind) return null;
  const words = noticeWords(row.locale ?? 'uk', row.kind, row.params);
  return noticeLetter(row.email, words, link, `${deps.siteUrl}/cabinet`, row.locale ?? 'uk');
}

/**
 * Sends the letters that are due, claimed a few at a time, in each reader's language (users.locale).
 * A letter whose send fails is tried again after a doubling wait counted from the failure, and after
 * `MAIL_ATTEMPTS` tries is marked `failed`; the bell's notice stays either way. A sender that hangs
 * or dies loses its claims when the lease ends, and another takes the letters. Exactly once across
 * instances while sends end within the lease: a letter is sent only by the sender holding its
 * claim, and letters of a claim not yet tried when half its lease has gone (a slow mail server)
 * are given back rather than sent late. With `only`, just those letters are taken.
 */
export async function sendDueLetters(db: Database, deps: LetterDeps, now = new Date(), only?: readonly string[]): Promise<LetterRun> {
  const run: LetterRun = { sent: 0, failed: 0, retried: 0 };
  for (let left = LETTERS_PER_RUN; left > 0; ) {
    const claimed = await claimLetters(db, now, Math.min(LETTERS_PER_CLAIM, left), only);
    left -= claimed.length;
    const claimedAt = Date.now();
    const sent: Claimed[] = [];
    const failed: Claimed[] = [];
    const untried: Claimed[] = [];
    for (const row of claimed) {
      // Half the lease and one send's timeouts (SMTP_TIMEOUTS, 40 s together) end inside the lease.
      if (Date.now() - claimedAt > MAIL_LEASE_MS / 2) {
        untried.push(row);
        continue;
      }
      const letter = letterOf(row, deps);
      if (!letter) {
        failed.push(row);
        continue;
      }
      const started = Date.now();
      try {
        await deps.mailer.send(letter);
        sent.push(row);
      } catch (error) {
        console.error(`[mail] лист ${row.id} не надіслано (спроба ${row.mailAttempts}):`, (error as Error).message);
        if (row.mailAttempts >= MAIL_ATTEMPTS) failed.push(row);
        else {
          // `now` is the run's clock (a test's may be ahead of the real one); the send's own time is added to it.
          const failedAt = now.getTime() + (Date.now() - started);
          await settle(db, [row], { retryAt: new Date(failedAt + MAIL_RETRY_MS * 2 ** (row.mailAttempts - 1)) });
          run.retried++;
        }
      }
    }
    await settle(db, sent, 'sent');
    await settle(db, failed, 'failed');
    await release(db, untried);
    run.sent += sent.length;
    run.failed += failed.length;
    if (claimed.length < LETTERS_PER_CLAIM || untried.length > 0) break;
  }
  return run;
}

/** The outbox's sweep, for `SWEEPS`: every instance sends what is due every few seconds. */
export const letterSweep = (deps: LetterDeps): Sweep => ({
  name: 'letters',
  everyMs: 3000,
  run: (db, now) => sendDueLetters(db, deps, now),
});

/**
 * Sends the letters a request queued (`queueAccountLetter`) once its transaction has committed,
 * before it answers, as a sign-up's letter always was. Never throws: a letter that could not go
 * now stays in the outbox, and the sweep sends it.
 */
export async function sendLettersNow(db: Database, deps: LetterDeps, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sendDueLetters(db, deps, new Date(), ids).catch((error: unknown) => console.error('[mail] черга листів:', error));
}

/**
 * Serves one request and tells whether it announced a letter (`announce` marks it), so the app
 * sends that letter at once (`kickLetters`) rather than at the next sweep.
 */
export async function announcedDuring(work: () => Promise<void>): Promise<boolean> {
  const scope = { announced: false };
  await requestScope.run(scope, work);
  return scope.announced;
}

const letterKicks = outboxKicks(sendDueLetters, '[mail] черга листів:');

/** After a request that queued letters (its transaction has committed by then), sends them now: outbox-kicks.ts. */
export const kickLetters = letterKicks.kick;

/** Resolves once the letters the kicks started are sent (tests and a closing app wait for it). */
export const lettersKicked = letterKicks.kicked;
