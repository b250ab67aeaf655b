/**
 * Web push's outbox (issue 60): every notice stored for a user with devices gets a row per device
 * (`push_deliveries`), written in the transaction that stores the notice, so it commits, or not,
 * with it. A sender (`sendDuePushes`: a sweep on every instance with push on, and a kick right
 * after each request that stored such a notice) claims rows with `for update skip locked`, sends
 * them through the push service (push/push-service.ts) and settles each: taken or given up, the row
 * goes; a device its push service calls gone (404, 410) goes with its rows; a service that is down,
 * slow or throttling (5xx, no answer, 429) is tried again later, after a doubling wait or the
 * `Retry-After` it asked for. A push never runs inside a request's transaction nor keeps its answer
 * waiting. What a push says is worded when it is sent, in its reader's language (users.locale).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Database } from '../../db/client.ts';
import { notifications, pushDeliveries, pushSubscriptions, users } from '../../db/schema/index.ts';
import { PUSH_ATTEMPTS, pushPayload, pushRetryAt, pushTopic } from '../../push/push-payload.ts';
import type { PushOutcome, PushService } from '../../push/push-service.ts';
import { noticeWords } from './notice-words.ts';
import { outboxKicks } from '../outbox-kicks.ts';
import type { Sweep } from '../sweeps.ts';

/** How long a notice is worth pushing: older ones waiting (their push service down all along, push off meanwhile) are dropped unsent. */
export const PUSH_MAX_AGE_MS = 24 * 60 * 60_000;
/**
 * How long a claimed push is its sender's alone: longer than one round of sends (they go at once,
 * each within the push service's timeout), short enough that a sender that died is replaced soon.
 */
export const PUSH_LEASE_MS = 60_000;
/**
 * Pushes claimed at once, and the most one run sends (the next run takes the rest). A claim's
 * pushes go at once to different push services and `PUSHES_AT_ONCE_PER_SERVICE` at a time to one,
 * so a claim ends within its lease even when every push waits out the timeout (16 / 4 × 10 s).
 */
const PUSHES_PER_CLAIM = 16;
const PUSHES_PER_RUN = 192;
const PUSHES_AT_ONCE_PER_SERVICE = 4;

// ------------------------------------------------------------------------------ writing

/**
 * The request being served, when the app sends its pushes right after it: `stored` is set once it
 * stored a notice that may go by push, so only such requests kick.
 */
const requestScope = new AsyncLocalStorage<{ stored: boolean }>();

/** A stored notice that may go by push: its id (given before the insert, so this write can name it) and its reader. */
export interface PushableNotice {
  id: string;
  userId: string;
}

/**
 * The write that queues `list` for every device of its readers, for the statement that stores the
 * notices (db/together.ts: the foreign key is checked at the statement's end). A reader without a
 * device costs one index lookup and queues nothing. Undefined for an empty list.
 */
export function pushDeliveriesFor(list: readonly PushableNotice[]): SQL | undefined {
  if (list.length === 0) return undefined;
  const values = sql.join(
    list.map((n) => sql`(${n.id}::uuid, ${n.userId}::uuid)`),
    sql`, `,
  );
  return sql`insert into ${pushDeliveries} (${sql.identifier(pushDeliveries.notificationId.name)}, ${sql.identifier(pushDeliveries.subscriptionId.name)})
    select queued.notification_id, ${pushSubscriptions.id}
    from (values ${values}) as queued(notification_id, user_id)
    join ${pushSubscriptions} on ${pushSubscriptions.userId} = queued.user_id`;
}

/** Marks the request being served as one that stored a notice that may go by push (`pushesDuring`). */
export function notePushable(): void {
  const scope = requestScope.getStore();
  if (scope) scope.stored = true;
}

/** Serves one request and tells whether it stored a notice that may go by push, so the app sends it at once (`kickPushes`). */
export async function pushesDuring(work: () => Promise<void>): Promise<boolean> {
  const scope = { stored: false };
  await requestScope.run(scope, work);
  return scope.stored;
}

// ------------------------------------------------------------------------------ sending

export interface PushRun {
  sent: number;
  /** Devices dropped because their push service said they are gone. */
  gone: number;
  /** Given up: refused by the push service, out of tries, or too old. */
  failed: number;
  /** Failed this time, to be tried again later. */
  retried: number;
}

/** A claimed push with what it says and where it goes; the attempt number is its claim's fence. */
interface Claimed {
  id: string;
  attempts: number;
  createdAt: Date;
  notificationId: string;
  subscriptionId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  kind: (typeof notifications.$inferSelect)['kind'];
  params: Record<string, string | number>;
  text: string;
  link: string | null;
  locale: Locale;
}

/** Claimed rows as `(id, attempts)` pairs: only the latest claim of each may settle it. */
const claimsOf = (list: readonly Pick<Claimed, 'id' | 'attempts'>[]) =>
  sql`(${pushDeliveries.id}, ${pushDeliveries.attempts}) in (${sql.join(
    list.map((c) => sql`(${c.id}::uuid, ${c.attempts}::integer)`),
    sql`, `,
  )})`;

/**
 * Takes the oldest pushes that are due, at most `limit`: holds them as this sender's for
 * `PUSH_LEASE_MS` and counts the attempt in one statement (`for update skip locked`, so several
 * instances take different ones), then reads what each says and where it goes. A row whose device
 * moved to another user since it was queued is given up (`orphans`).
 */
async function claimPushes(db: Database, now: Date, limit: number): Promise<{ claimed: Claimed[]; orphans: Pick<Claimed, 'id' | 'attempts'>[] }> {
  const due = db
    .select({ id: pushDeliveries.id })
    .from(pushDeliveries)
    .where(and(or(isNull(pushDeliveries.after), lte(pushDeliveries.after, now)), gte(pushDeliveries.createdAt, new Date(now.getTime() - PUSH_MAX_AGE_MS))))
    .orderBy(pushDeliveries.createdAt)
    .limit(limit)
    .for('update', { skipLocked: true });
  const taken = await db
    .update(pushDeliveries)
    .set({ attempts: sql`${pushDeliveries.attempts} + 1`, after: new Date(now.getTime() + PUSH_LEASE_MS) })
    .where(inArray(pushDeliveries.id, due))
    .returning({ id: pushDeliveries.id, attempts: pushDeliveries.attempts });
  if (taken.length === 0) return { claimed: [], orphans: [] };
  const rows = await db
    .select({
      id: pushDeliveries.id,
      createdAt: pushDeliveries.createdAt,
      notificationId: pushDeliveries.notificationId,
      subscriptionId: pushDeliveries.subscriptionId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      kind: notifications.kind,
      params: notifications.params,
      text: notifications.text,
      link: notifications.link,
      locale: users.locale,
    })
    .from(pushDeliveries)
    .innerJoin(pushSubscriptions, eq(pushSubscriptions.id, pushDeliveries.subscriptionId))
    .innerJoin(notifications, and(eq(notifications.id, pushDeliveries.notificationId), eq(notifications.userId, pushSubscriptions.userId)))
    .innerJoin(users, eq(users.id, notifications.userId))
    .where(
      inArray(
        pushDeliveries.id,
        taken.map((t) => t.id),
      ),
    );
  const attempts = new Map(taken.map((t) => [t.id, t.attempts]));
  const claimed = rows.map((row) => ({ ...row, attempts: attempts.get(row.id)! })).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const found = new Set(rows.map((r) => r.id));
  return { claimed, orphans: taken.filter((t) => !found.has(t.id)) };
}

/** Rows done with (taken by the push service, or given up), fenced by their claim. */
async function remove(db: Database, list: readonly Pick<Claimed, 'id' | 'attempts'>[]): Promise<void> {
  if (list.length === 0) return;
  await db.delete(pushDeliveries).where(claimsOf(list));
}

/** A row due again at `retryAt`; `counted: false` gives the try back (a push held because its service asked every sender to wait). */
async function later(db: Database, row: Pick<Claimed, 'id' | 'attempts'>, retryAt: Date, counted = true): Promise<void> {
  await db
    .update(pushDeliveries)
    .set({ after: retryAt, ...(counted ? {} : { attempts: sql`${pushDeliveries.attempts} - 1` }) })
    .where(claimsOf([row]));
}

/** What a push says, in its reader's language: a notice's subject and the bell's line, or the site's name and the stored text. */
function messageOf(row: Claimed): string {
  const lang = row.locale ?? 'uk';
  if (row.kind) {
    const words = noticeWords(lang, row.kind, row.params);
    return pushPayload({ title: words.subject, body: words.bell, link: row.link, id: row.notificationId, lang });
  }
  return pushPayload({ title: translate(lang, 'site.name'), body: row.text, link: row.link, id: row.notificationId, lang });
}

/** The origin of an endpoint: a push service that asked to wait (429) is not asked again in the same run. */
const originOf = (endpoint: string) => {
  try {
    return new URL(endpoint).origin;
  } catch {
    return endpoint;
  }
};

/**
 * Runs `send` for every row, rows of one key (a push service) `PUSHES_AT_ONCE_PER_SERVICE` at a
 * time and different keys at once; each row with its result, in the rows' order.
 */
async function inTurns<T, R>(rows: readonly T[], keyOf: (row: T) => string, send: (row: T) => Promise<R>): Promise<[T, R][]> {
  const results = new Map<T, R>();
  const byKey = new Map<string, T[]>();
  for (const row of rows) byKey.set(keyOf(row), [...(byKey.get(keyOf(row)) ?? []), row]);
  const lanes = [...byKey.values()].flatMap((queue) =>
    Array.from({ length: Math.min(PUSHES_AT_ONCE_PER_SERVICE, queue.length) }, async () => {
      for (let row = queue.shift(); row !== undefined; row = queue.shift()) results.set(row, await send(row));
    }),
  );
  await Promise.all(lanes);
  return rows.map((row) => [row, results.get(row)!]);
}

/** Drops the pushes too old to be worth sending (`PUSH_MAX_AGE_MS`); how many went. */
export async function dropStalePushes(db: Database, now = new Date()): Promise<number> {
  const gone = await db
    .delete(pushDeliveries)
    .where(lt(pushDeliveries.createdAt, new Date(now.getTime() - PUSH_MAX_AGE_MS)))
    .returning({ id: pushDeliveries.id });
  if (gone.length > 0) console.error(`[push] ${gone.length} сповіщень на пристрої не надіслано: застаріли`);
  return gone.length;
}

/**
 * Sends the pushes that are due, a claim of up to `PUSHES_PER_CLAIM` at once, each in its reader's
 * language. A push the service did not take is tried again after a doubling wait counted from the
 * failure (or the service's `Retry-After`, when longer), and given up after `PUSH_ATTEMPTS`; a push
 * service that answered 429 gets no more of this run's pushes (they wait as long, their try not
 * counted). The bell's notice stays whatever happens here. Exactly once across instances while
 * sends end within the lease: a push is sent only by the sender holding its claim.
 */
export async function sendDuePushes(db: Database, service: PushService, now = new Date()): Promise<PushRun> {
  const run: PushRun = { sent: 0, gone: 0, failed: 0, retried: 0 };
  run.failed += await dropStalePushes(db, now);
  const waiting = new Map<string, Date>();
  for (let left = PUSHES_PER_RUN; left > 0; ) {
    const { claimed, orphans } = await claimPushes(db, now, Math.min(PUSHES_PER_CLAIM, left));
    left -= claimed.length + orphans.length;
    await remove(db, orphans);
    run.failed += orphans.length;
    const started = Date.now();
    // `now` is the run's clock (a test's may be ahead of the real one); the sends' own time is added to it.
    const clock = () => new Date(now.getTime() + (Date.now() - started));
    const outcomes = await inTurns(claimed, (row) => originOf(row.endpoint), async (row): Promise<PushOutcome | 'held'> => {
      // A service that asked every sender to wait gets nothing more in this run.
      if (waiting.has(originOf(row.endpoint))) return 'held';
      const ttlSeconds = Math.max(0, Math.floor((row.createdAt.getTime() + PUSH_MAX_AGE_MS - now.getTime()) / 1000));
      const topic = pushTopic(row.notificationId);
      const outcome = await service.send(
        { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
        { payload: messageOf(row), ttlSeconds, ...(topic ? { topic } : {}) },
        clock(),
      );
      if (outcome.kind === 'retry' && outcome.afterMs !== undefined) waiting.set(originOf(row.endpoint), pushRetryAt(clock(), row.attempts, outcome.afterMs));
      return outcome;
    });
    const done: Claimed[] = [];
    const goneDevices = new Set<string>();
    for (const [row, outcome] of outcomes) {
      if (outcome === 'held') {
        await later(db, row, waiting.get(originOf(row.endpoint))!, false);
        continue;
      }
      if (outcome.kind === 'sent') {
        done.push(row);
        run.sent++;
      } else if (outcome.kind === 'gone') {
        goneDevices.add(row.subscriptionId);
        console.error(`[push] пристрій ${row.subscriptionId} більше не приймає сповіщень: ${outcome.reason}`);
      } else if (outcome.kind === 'refused' || row.attempts >= PUSH_ATTEMPTS) {
        done.push(row);
        run.failed++;
        console.error(`[push] сповіщення ${row.notificationId} не надіслано (спроба ${row.attempts}): ${outcome.reason}`);
      } else {
        await later(db, row, pushRetryAt(clock(), row.attempts, outcome.afterMs));
        run.retried++;
      }
    }
    await remove(db, done);
    if (goneDevices.size > 0) {
      // Its waiting pushes go with it (the foreign key cascades).
      await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, [...goneDevices]));
      run.gone += goneDevices.size;
    }
    if (claimed.length + orphans.length < PUSHES_PER_CLAIM) break;
  }
  return run;
}

/**
 * The outbox's sweep, for `SWEEPS`: with push on, every instance sends what is due every few
 * seconds; with it off (`service` null) it only drops what has waited too long, so a site that
 * turned push off does not keep its devices' rows for ever.
 */
export const pushSweep = (service: PushService | null): Sweep =>
  service
    ? { name: 'push', everyMs: 3000, run: (db, now) => sendDuePushes(db, service, now) }
    : { name: 'push-stale', everyMs: 10 * 60_000, run: (db, now) => dropStalePushes(db, now) };

const pushKicks = outboxKicks(sendDuePushes, '[push] черга сповіщень:');

/** After a request that queued pushes (its transaction has committed by then), sends them now: outbox-kicks.ts. */
export const kickPushes = pushKicks.kick;

/** Resolves once the pushes the kicks started are sent (tests and a closing app wait for it). */
export const pushesKicked = pushKicks.kicked;
