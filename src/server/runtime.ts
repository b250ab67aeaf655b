import { join } from 'node:path';
import { ensureAdmin, type AdminBootstrap } from './bootstrap.ts';
import { createApp, type App } from './api/app.ts';
import type { Deps } from './api/context.ts';
import { openDatabase, type DatabaseHandle } from './db/client.ts';
import { checkDataFolders, embeddedOpenProblem, StartProblem, startProblemOf } from './data-folders.ts';
import { seedDemo } from './db/seed.ts';
import { DATABASE_PREPARED, parseEnv, type Env } from './env.ts';
import { mailerFromEnv } from './mail/mailer.ts';
import { databaseLimiter, memoryLimiter } from './services/rate-limit.ts';
import { backfillNameSkeletons } from './services/accounts/names.ts';
import { backfillRatingsAfter } from './services/statistics/recompute.ts';
import { deliverySweep } from './services/integrations/deliveries.ts';
import { registrationClosedSweep } from './services/integrations/registration-closed.ts';
import { redisLimiter } from './services/rate-limit-redis.ts';
import { letterSweep } from './services/notices/notices.ts';
import { vapidKeys } from './services/notices/push-keys.ts';
import { pushSweep } from './services/notices/push-outbox.ts';
import { createPushService } from './push/push-service.ts';
import { createTelegram, startTelegram } from './services/telegram/bot.ts';
import { telegramSweep } from './services/telegram/notice-outbox.ts';
import { derivedWebhookSecret, telegramMode } from './telegram/telegram-bot.ts';
import { signInProvidersFromEnv } from './sign-in/index.ts';
import { startSweeps, SWEEPS } from './services/sweeps.ts';
import { closeStreams, connectLive, onLiveSignal, onTeamChat } from './services/live/live.ts';
import { onChanges } from './services/live/changes.ts';
import { publicAnswers } from './serving/answer-cache.ts';
import { forgetChat, forgetChats } from './services/teams/held-chats.ts';
import { approvedVenueNetworks } from './services/venues/approved-networks.ts';

export interface Runtime {
  env: Env;
  deps: Deps;
  /** What preparing the database did; null when `npm start` had prepared it before this process started. */
  setup: { admin: AdminBootstrap; seeded: boolean } | null;
}

/** The process's runtime, opened by the first to ask. */
let runtime: Promise<Runtime> | undefined;

/**
 * The embedded database stopped after a PANIC (db/client.ts): its statements now fail at once (503),
 * answers under way are sent, then the process ends and npm start's supervisor starts it again
 * (decision 011), where PGlite recovers from its log — or, while the disk is still full, says so.
 */
function lostDatabase(error: Error): void {
  console.error('[db] вбудована база даних зупинилася:', error.message);
  setTimeout(() => process.exit(1), LOST_DATABASE_EXIT_MS);
}
const LOST_DATABASE_EXIT_MS = 1000;

/** Opens the database and, unless npm start did it already, migrates it and makes the admin and demo data. */
async function openPrepared(env: Env, serving: boolean): Promise<{ database: DatabaseHandle; setup: Runtime['setup'] }> {
  const dataDir = join(env.DATA_DIR, 'db');
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir, ...(serving ? { onLost: lostDatabase } : {}) }).catch((error: unknown) => {
    throw env.DATABASE_URL ? error : embeddedOpenProblem(error, dataDir);
  });
  try {
    const setup = process.env[DATABASE_PREPARED] === '1' ? null : await database.exclusive(async () => {
      await database.migrate();
      // Names from before the look-alike check get their skeletons (the migration cannot compute them).
      await backfillNameSkeletons(database.db);
      // History rows from before each match kept its rating after (issue 23) get it from a replay of their game.
      await backfillRatingsAfter(database.db);
      return {
        admin: await ensureAdmin(database.db, env.ADMIN_EMAIL, env.ADMIN_PASSWORD),
        seeded: env.seedDemo ? await seedDemo(database.db) : false,
      };
    });
    return { database, setup };
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}

async function prepare(serving: boolean): Promise<Runtime> {
  const env = parseEnv();
  // A folder that cannot be written ends the start with one sentence naming it, not a trace from inside PGlite.
  checkDataFolders(env);
  const { database, setup } = await openPrepared(env, serving).catch((error: unknown) => {
    throw startProblemOf(error, env);
  });
  const mailer = mailerFromEnv(env);
  // One process owns an embedded database (db/client.ts): its counters need not be shared.
  const limits = env.REDIS_URL ? await redisLimiter(env.REDIS_URL) : database.kind === 'pglite' ? memoryLimiter() : databaseLimiter(database.db);
  // Web push (issue 60) is on with PUSH_SUBJECT: its VAPID keys are made on the first such start and kept in the database.
  const push = env.PUSH_SUBJECT ? createPushService({ subject: env.PUSH_SUBJECT, keys: await vapidKeys(database.db) }) : undefined;
  // Telegram (issue 60, decision 043) is on with TELEGRAM_BOT_TOKEN; the bot calls Telegram only once started below.
  const telegram = env.TELEGRAM_BOT_TOKEN
    ? createTelegram({
        token: env.TELEGRAM_BOT_TOKEN,
        apiRoot: env.TELEGRAM_API_ROOT,
        webhookSecret: env.TELEGRAM_WEBHOOK_SECRET ?? derivedWebhookSecret(env.TELEGRAM_BOT_TOKEN),
        siteUrl: env.siteUrl,
        db: database.db,
      })
    : undefined;
  const deps: Deps = {
    database,
    mailer,
    limits,
    siteUrl: env.siteUrl,
    sessionTtlDays: env.SESSION_TTL_DAYS,
    trustProxy: env.TRUST_PROXY,
    venueNetworks: env.TRUSTED_VENUE_NETWORKS,
    eventStreams: { max: env.EVENT_STREAMS_MAX, perAddress: env.EVENT_STREAMS_PER_ADDRESS },
    letterKick: true,
    push,
    pushKick: true,
    telegram,
    telegramKick: true,
    // Sign-in with Discord and Steam (issue 60, decision 044): each on when its variables are set.
    signInProviders: signInProvidersFromEnv(env),
  };
  // Only a serving process listens and sweeps: the preparing one (scripts/prepare.ts) must end when
  // it is done, and a live link that reconnects or a sweep's timer would keep it running for ever.
  if (!serving) return { env, deps, setup };
  // Data changed, here or on another instance: the held answers that show it are out of date
  // (after a lost link, everything: services/live/live.ts tells it so).
  onChanges((tags) => publicAnswers.changed(tags));
  // A message posted on another instance: the chat held here is no longer the newest.
  onTeamChat(forgetChat);
  onLiveSignal('resync', forgetChats);
  const disconnectLive = await connectLive({ database, redisUrl: env.REDIS_URL });
  // Organisers' approved venue networks count from the first request (services/venues/approved-networks.ts).
  await approvedVenueNetworks(database.db).reload();
  // The notices' outbox needs this process's mailer, so its sweep joins the list here.
  SWEEPS.push(letterSweep({ mailer, siteUrl: env.siteUrl }));
  // The organisations' outbox posts to Discord, Telegram channels and webhooks (issue 60) from every
  // instance; each delivery goes once. Registration closing is a moment of the clock: a sweep tells it.
  SWEEPS.push(registrationClosedSweep);
  SWEEPS.push(deliverySweep({ siteUrl: env.siteUrl, discordApi: env.DISCORD_API_ROOT, telegram }));
  // And the pushes' outbox its push service; with push off, only what waited too long is dropped.
  SWEEPS.push(pushSweep(push ?? null));
  // And Telegram's messages; with Telegram off, only what waited too long is dropped.
  SWEEPS.push(telegramSweep(telegram ?? null));
  const stopTelegram = telegram ? startTelegram(telegram, telegramMode(env.TELEGRAM_MODE, env.siteUrl)) : () => {};
  const stopSweeps = env.SWEEPS ? startSweeps(database.db) : () => {};
  // Once, whichever signal comes first: under npm start's supervisor a terminal's Ctrl+C brings
  // SIGINT and the supervisor's SIGTERM, and a second close must not exit before the first ends.
  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      stopSweeps();
      stopTelegram();
      // Open event streams end now, so no connection keeps the exit waiting.
      closeStreams();
      await disconnectLive().catch(() => {});
      await limits.close().catch(() => {});
      await database.close().catch(() => {});
      process.exit(0);
    })());
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  return { env, deps, setup };
}

/**
 * The process's environment, database and mailer: opened, migrated and seeded on first use.
 * `serving: false` (scripts/prepare.ts) leaves out the live link and the timed sweeps.
 */
export function getRuntime(options: { serving: boolean } = { serving: true }): Promise<Runtime> {
  // A failed start (the database not up yet) is tried again on the next request, not kept.
  runtime ??= prepare(options.serving).catch((error: unknown) => {
    runtime = undefined;
    // A folder that cannot be written will not mend itself between requests: a serving process says
    // so in one sentence and ends, and npm start's supervisor tries again with its back-off (decision 011).
    if (options.serving && error instanceof StartProblem) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  });
  return runtime;
}

let app: App | undefined;
/** The API app bound to this process's runtime. */
export async function getApp(): Promise<App> {
  app ??= createApp((await getRuntime()).deps);
  return app;
}
