/**
 * Telegram's outbox of notices (issue 60, decision 043), built as web push's (push-outbox.ts): every
 * notice stored for a linked reader who keeps that kind on for Telegram gets a row
 * (`telegram_deliveries`), written in the statement that stores the notice. A sender (a sweep on
 * every instance with Telegram on, and a kick right after each request that stored such a notice)
 * claims rows with `for update skip locked` and sends each as a message in its reader's language
 * (users.locale) with a button to the page it is about. Telegram down, slow or answering 5xx: tried
 * again after a doubling wait; 429: not before its `retry_after`, and no more claims in that run;
 * 403 (the bot blocked): the reader is unlinked, so nothing more is sent there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { InlineKeyboard } from 'grammy';
import { translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Database } from '../../db/client.ts';
import { notifications, telegramDeliveries, telegramLinks, users } from '../../db/schema/index.ts';
import { sitePath } from '../../push/push-payload.ts';
import { buttonable, telegramCall, type Telegram, type TelegramOutcome } from '../../telegram/telegram-bot.ts';
import { noticeWords } from '../notices/notice-words.ts';
import { outboxKicks } from '../outbox-kicks.ts';
import type { Sweep } from '../sweeps.ts';

/** A notice older than this is not worth sending: dropped unsent (also all the sweep does with Telegram off). */
export const TELEGRAM_MAX_AGE_MS = 24 * 60 * 60_000;
/** Longer than a claim's sends, which go at once, each within the bot's timeout. */
export const TELEGRAM_LEASE_MS = 60_000;
/** Tries before a message is given up, and the first retry's wait (then doubled: 15 s, 30 s, 1 min, 2 min). */
export const TELEGRAM_ATTEMPTS = 5;
export const TELEGRAM_RETRY_MS = 15_000;
/** Messages claimed and sent at once (below Telegram's 30 a second), and the most one run sends. */
const PER_CLAIM = 16;
const PER_RUN = 160;

// ------------------------------------------------------------------------------ writing

const requestScope = new AsyncLocalStorage<{ stored: boolean }>();

/** A stored notice that may go to Telegram: its id (given before the insert) and its reader. */
export interface TelegramNotice {
  id: string;
  userId: string;
}

/**
 * The write that queues `list` for its readers' Telegram, for the statement that stores the
 * notices: a reader who is not linked costs one index lookup and queues nothing.
 */
export function telegramDeliveriesFor(list: readonly TelegramNotice[]): SQL | undefined {
  if (list.length === 0) return undefined;
  const values = sql.join(
    list.map((n) => sql`(${n.id}::uuid, ${n.userId}::uuid)`),
    sql`, `,
  );
  return sql`insert into ${telegramDeliveries} (${sql.identifier(telegramDeliveries.notificationId.name)}, ${sql.identifier(telegramDeliveries.userId.name)})
    select queued.notification_id, ${telegramLinks.userId}
    from (values ${values}) as queued(notification_id, user_id)
    join ${telegramLinks} on ${telegramLinks.userId} = queued.user_id`;
}

/** Marks the request being served as one that stored a notice that may go to Telegram (`telegramDuring`). */
export function noteTelegram(): void {
  const scope = requestScope.getStore();
  if (scope) scope.stored = true;
}

/** Serves one request and tells whether it stored a notice that may go to Telegram, so the app sends it at once (`kickTelegram`). */
export async function telegramDuring(work: () => Promise<void>): Promise<boolean> {
  const scope = { stored: false };
  await requestScope.run(scope, work);
  return scope.stored;
}

// ------------------------------------------------------------------------------ sending

export interface TelegramRun {
  sent: number;
  /** Readers unlinked because they blocked the bot or their chat is gone. */
  unlinked: number;
  /** Given up: refused, out of tries, or too old. */
  failed: number;
  retried: number;
}

type Claimed = Awaited<ReturnType<typeof claim>>[number];

const claimsOf = (list: readonly Pick<Claimed, 'id' | 'attempts'>[]) =>
  sql`(${telegramDeliveries.id}, ${telegramDeliveries.attempts}) in (${sql.join(
    list.map((c) => sql`(${c.id}::uuid, ${c.attempts}::integer)`),
    sql`, `,
  )})`;

/** Takes the oldest due messages, holds them for the lease and counts the try, with what each says and where it goes. */
async function claim(db: Database, now: Date, limit: number) {
  const due = db
    .select({ id: telegramDeliveries.id })
    .from(telegramDeliveries)
    .where(
      and(
        or(isNull(telegramDeliveries.after), lte(telegramDeliveries.after, now)),
        gte(telegramDeliveries.createdAt, new Date(now.getTime() - TELEGRAM_MAX_AGE_MS)),
      ),
    )
    .orderBy(telegramDeliveries.createdAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const taken = await db
    .update(telegramDeliveries)
    .set({ attempts: sql`${telegramDeliveries.attempts} + 1`, after: new Date(now.getTime() + TELEGRAM_LEASE_MS) })
    .where(inArray(telegramDeliveries.id, due))
    .returning({ id: telegramDeliveries.id, attempts: telegramDeliveries.attempts });
  if (taken.length === 0) return [];
  const rows = await db
    .select({
      id: telegramDeliveries.id,
      createdAt: telegramDeliveries.createdAt,
      notificationId: telegramDeliveries.notificationId,
      chatId: telegramLinks.chatId,
      kind: notifications.kind,
      params: notifications.params,
      text: notifications.text,
      link: notifications.link,
      locale: users.locale,
    })
    .from(telegramDeliveries)
    .innerJoin(telegramLinks, eq(telegramLinks.userId, telegramDeliveries.userId))
    .innerJoin(notifications, eq(notifications.id, telegramDeliveries.notificationId))
    .innerJoin(users, eq(users.id, telegramDeliveries.userId))
    .where(
      inArray(
        telegramDeliveries.id,
        taken.map((t) => t.id),
      ),
    );
  const attempts = new Map(taken.map((t) => [t.id, t.attempts]));
  return rows.map((row) => ({ ...row, attempts: attempts.get(row.id)! })).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** A notice as a Telegram message in its reader's language: the subject and line, and a button to its page. */
export function telegramMessage(row: Pick<Claimed, 'kind' | 'params' | 'text' | 'link' | 'locale'>, siteUrl: string) {
  const lang: Locale = row.locale ?? 'uk';
  const words = row.kind ? noticeWords(lang, row.kind, row.params) : null;
  const url = `${siteUrl}${sitePath(row.link)}`;
  const label = words?.action ?? translate(lang, 'telegram.bot.open');
  const text = words ? `${words.subject}\n\n${words.bell}` : `${translate(lang, 'site.name')}\n\n${row.text}`;
  // Telegram refuses buttons to a development site's address: its link then goes in the text.
  return buttonable(url) ? { text, options: { reply_markup: new InlineKeyboard().url(label, url) } } : { text: `${text}\n\n${url}`, options: {} };
}

/** Drops the messages too old to be worth sending; how many went. */
export async function dropStaleTelegrams(db: Database, now = new Date()): Promise<number> {
  const gone = await db
    .delete(telegramDeliveries)
    .where(lt(telegramDeliveries.createdAt, new Date(now.getTime() - TELEGRAM_MAX_AGE_MS)))
    .returning({ id: telegramDeliveries.id });
  if (gone.length > 0) console.error(`[telegram] ${gone.length} сповіщень у Telegram не надіслано: застаріли`);
  return gone.length;
}

/**
 * Sends the messages that are due, a claim at a time, each in its reader's language. The bell's
 * notice stays whatever happens here; a message is sent only by the sender holding its claim.
 */
export async function sendDueTelegrams(db: Database, telegram: Telegram, now = new Date()): Promise<TelegramRun> {
  const run: TelegramRun = { sent: 0, unlinked: 0, failed: 0, retried: 0 };
  run.failed += await dropStaleTelegrams(db, now);
  for (let left = PER_RUN; left > 0;) {
    const claimed = await claim(db, now, Math.min(PER_CLAIM, left));
    left -= claimed.length;
    const started = Date.now();
    // `now` is the run's clock (a test's may be ahead of the real one); the sends' own time is added to it.
    const clock = () => new Date(now.getTime() + (Date.now() - started));
    const outcomes: [Claimed, TelegramOutcome][] = await Promise.all(
      claimed.map(async (row): Promise<[Claimed, TelegramOutcome]> => {
        const message = telegramMessage(row, telegram.siteUrl);
        return [row, await telegramCall(() => telegram.bot.api.sendMessage(row.chatId, message.text, message.options))];
      }),
    );
    const done: Claimed[] = [];
    const goneChats = new Set<number>();
    let throttled = false;
    for (const [row, outcome] of outcomes) {
      if (outcome.kind === 'sent') {
        done.push(row);
        run.sent++;
      } else if (outcome.kind === 'gone') {
        goneChats.add(row.chatId);
        console.error(`[telegram] чат ${row.chatId} більше не приймає повідомлень, його від’єднано: ${outcome.reason}`);
      } else if (outcome.kind === 'refused' || row.attempts >= TELEGRAM_ATTEMPTS) {
        done.push(row);
        run.failed++;
        console.error(`[telegram] сповіщення ${row.notificationId} не надіслано (спроба ${row.attempts}): ${outcome.reason}`);
      } else {
        if (outcome.afterMs !== undefined) throttled = true;
        const wait = Math.max(outcome.afterMs ?? 0, TELEGRAM_RETRY_MS * 2 ** Math.max(0, row.attempts - 1));
        await db
          .update(telegramDeliveries)
          .set({ after: new Date(clock().getTime() + wait) })
          .where(claimsOf([row]));
        run.retried++;
      }
    }
    if (done.length > 0) await db.delete(telegramDeliveries).where(claimsOf(done));
    if (goneChats.size > 0) {
      // The reader's waiting messages go with the link (the foreign key cascades).
      const gone = await db
        .delete(telegramLinks)
        .where(inArray(telegramLinks.chatId, [...goneChats]))
        .returning({ userId: telegramLinks.userId });
      run.unlinked += gone.length;
    }
    // A 429 is the bot's as a whole: the rest waits for the next run.
    if (throttled || claimed.length < PER_CLAIM) break;
  }
  return run;
}

/** The outbox's sweep: with Telegram on, every instance sends what is due every few seconds; off, it only drops what waited too long. */
export const telegramSweep = (telegram: Telegram | null): Sweep =>
  telegram
    ? { name: 'telegram', everyMs: 3000, run: (db, now) => sendDueTelegrams(db, telegram, now) }
    : { name: 'telegram-stale', everyMs: 10 * 60_000, run: (db, now) => dropStaleTelegrams(db, now) };

const telegramKicks = outboxKicks(sendDueTelegrams, '[telegram] черга сповіщень:');

/** After a request that queued messages (its transaction has committed by then), sends them now. */
export const kickTelegram = telegramKicks.kick;

/** Resolves once the messages the kicks started are sent (tests and a closing app wait for it). */
export const telegramKicked = telegramKicks.kicked;
