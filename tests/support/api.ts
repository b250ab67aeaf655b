import { createECDH, randomUUID } from 'node:crypto';
import type { Logger } from 'drizzle-orm';
import { createApp } from '../../src/server/api/app.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import type { Letter, Mailer } from '../../src/server/mail/mailer.ts';
import { insertAccount } from '../../src/server/db/factories/index.ts';
import { lettersKicked } from '../../src/server/services/notices/notices.ts';
import { pushesKicked } from '../../src/server/services/notices/push-outbox.ts';
import { createTelegram } from '../../src/server/services/telegram/bot.ts';
import { telegramKicked } from '../../src/server/services/telegram/notice-outbox.ts';
import type { PushMessage, PushService, PushTarget } from '../../src/server/push/push-service.ts';
import type { SignInProviders } from '../../src/server/sign-in/providers.ts';
import { databaseLimiter, type RateLimiter } from '../../src/server/services/rate-limit.ts';
import { proxyTrust, venueNetworks } from '../../src/server/transport.ts';
import { createScratchDatabase } from './postgres.ts';

export interface CallOptions {
  /** JSON, or a FormData sent as multipart as is (an upload). */
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  raw?: string;
  token?: string;
  /** The address of the socket the request comes on (a proxy's, when it is one of ours). */
  ip?: string;
  headers?: Record<string, string>;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApiOptions {
  /** Another instance's database: this API is then a second app instance on it (not migrated or dropped here). */
  database?: DatabaseHandle;
  /** Attempt counters; the database's own by default. */
  limits?: RateLimiter;
  /** Our proxies' addresses and networks (TRUST_PROXY's list); none by default. */
  trustProxy?: readonly string[];
  /** Venue networks (TRUSTED_VENUE_NETWORKS' list), left alone by per-address limits; none by default. */
  venueNetworks?: readonly string[];
  /** The configured public address for links in letters. */
  siteUrl?: string;
  /** Sends the letters instead of keeping them in `outbox` (a real SMTP server, say). */
  mailer?: Mailer;
  /** Sends notices' letters right after the request that announced them, as the runtime does (off: they wait for `sendDueLetters`). */
  letterKick?: boolean;
  /**
   * Web push (issue 60): a push service (a real one aimed at a stand-in on loopback, say); null
   * turns push off. By default push is on with one that keeps each push in `pushes` and says it was taken.
   */
  push?: PushService | null;
  /** Sends the pushes a request queued right after it, as the runtime does (off: they wait for `sendDuePushes`). */
  pushKick?: boolean;
  /** Telegram (issue 60): the bot aimed at a stand-in (tests/support/telegram-service.ts), initialised by its getMe; off by default. */
  telegram?: { apiRoot: string; token: string; timeoutSeconds?: number };
  /** Sends the Telegram messages a request queued right after it, as the runtime does (off: they wait for `sendDueTelegrams`). */
  telegramKick?: boolean;
  /** Sign-in with Discord and Steam (aimed at stand-ins on loopback); none by default. */
  signInProviders?: SignInProviders;
}

/** A key pair's public half in the shape VAPID's is (an uncompressed P-256 point, URL-safe base64), for the test apps' push service. */
const TEST_PUSH_KEY = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return ecdh.getPublicKey().toString('base64url');
})();

/**
 * A fresh API on a fresh database for one test file: in-memory PGlite on its thread, or a new database on the
 * PostgreSQL of TEST_DATABASE_URL when the file runs in the `api-postgres` project.
 */
export async function createTestApi(options: TestApiOptions = {}) {
  // The SQL statements sent while `queriesOf` listens, so a test can count what one request costs.
  let recording: string[] | null = null;
  const logger: Logger = { logQuery: (query) => void recording?.push(query) };
  let database: DatabaseHandle;
  let dropDatabase = async () => {};
  if (options.database) {
    database = options.database;
  } else if (process.env.TEST_DB === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is required for the api-postgres project');
    const scratch = await createScratchDatabase(base);
    database = await openDatabase({ url: scratch.url, logger });
    dropDatabase = scratch.drop;
  } else {
    database = await openDatabase({ logger });
  }
  if (!options.database) await database.migrate();

  const outbox: Letter[] = [];
  const mailer: Mailer = options.mailer ?? {
    async send(letter) {
      outbox.push(letter);
    },
  };
  const limits = options.limits ?? databaseLimiter(database.db);
  const pushes: { target: PushTarget; message: PushMessage }[] = [];
  const push: PushService | undefined =
    options.push === null
      ? undefined
      : (options.push ?? {
          publicKey: TEST_PUSH_KEY,
          async send(target, message) {
            pushes.push({ target, message });
            return { kind: 'sent' };
          },
        });
  const telegram = options.telegram
    ? createTelegram({ ...options.telegram, webhookSecret: 'test-webhook-secret-0123456789', siteUrl: options.siteUrl ?? 'https://arena.test', db: database.db })
    : undefined;
  await telegram?.bot.init();
  const app = createApp({
    database,
    mailer,
    limits,
    sessionTtlDays: 30,
    trustProxy: proxyTrust(options.trustProxy ?? []),
    venueNetworks: venueNetworks(options.venueNetworks ?? []),
    siteUrl: options.siteUrl ?? 'https://arena.test',
    letterKick: options.letterKick ?? false,
    push,
    pushKick: options.pushKick ?? false,
    telegram,
    telegramKick: options.telegramKick ?? false,
    signInProviders: options.signInProviders,
  });

  async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) {
      body = options.body;
    } else if (options.raw !== undefined) {
      body = options.raw;
      headers['content-type'] ??= 'application/json';
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) }, { clientAddress: options.ip ?? '203.0.113.1' });
    // An event stream (routes/live.ts) never ends: its status and headers are the answer.
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel();
      return { status: response.status, body: '' as T, headers: response.headers };
    }
    const text = await response.text();
    let parsed: unknown = text;
    if (response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** The token of the last letter sent to `email`. */
  function letterToken(email: string): string {
    const letter = outbox.findLast((l) => l.to === email);
    const link = letter?.link;
    if (!link) throw new Error(`no letter for ${email}`);
    const token = new URL(link).searchParams.get('token');
    if (!token) throw new Error(`no token in ${link}`);
    return token;
  }

  let counter = 0;
  /** A confirmed, signed-in account made by the account factory (fast, no letter). */
  async function signedIn(role: 'user' | 'admin' = 'user', name?: string) {
    counter += 1;
    const username = name ?? `${role}${counter}_${randomUUID().slice(0, 6)}`;
    const password = 'correct-horse-9';
    const user = await insertAccount(database.db, { username, password, role });
    const login = await call<{ token: string }>('POST', '/api/auth/login', { body: { loginOrEmail: username, password } });
    if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
    return { user, token: login.body.token, password };
  }

  /** Runs `work` and returns the SQL statements it sent (in order), with its result. */
  async function queriesOf<T>(work: () => Promise<T>): Promise<{ result: T; queries: string[] }> {
    const queries: string[] = [];
    recording = queries;
    try {
      return { result: await work(), queries };
    } finally {
      recording = null;
    }
  }

  return {
    app,
    queriesOf,
    db: database.db,
    database,
    outbox,
    /** What the default push service was given (with `push` of a test's own, nothing). */
    pushes,
    /** The Telegram bot, when `telegram` was given. */
    telegram,
    call,
    letterToken,
    signedIn,
    async close() {
      // Letters a last request's kick is still sending (services/notices/notices.ts) finish before the database goes.
      await lettersKicked(database.db);
      await pushesKicked(database.db);
      await telegramKicked(database.db);
      await limits.close();
      if (options.database) return;
      // A test may already have closed it to simulate an outage.
      await database.close().catch(() => undefined);
      await dropDatabase();
    },
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;
