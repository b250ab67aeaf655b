import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExtractTablesWithRelations, Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** The drizzle database, whichever driver is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** A database or an open transaction: services accept either. */
export type Tx = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Applies committed migrations; safe to call on every start. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  /**
   * Runs `work` while no other app instance on this database runs its own (a PostgreSQL advisory
   * lock), so instances started together migrate and create the admin once.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Hears NOTIFY payloads on `channel` (services/live/live.ts). PostgreSQL: one dedicated connection,
   * opened again after it is lost (then `onReconnect`, since notices meanwhile were missed); resolves
   * after the first attempt, listening or retrying. Returns the function that stops listening.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Advisory lock key for start-up work: any fixed number unique to this app. */
const STARTUP_LOCK = 4_712_031;
/**
 * The embedded database's own buffer cache. PostgreSQL's default of 128 MB stays resident in the
 * WebAssembly memory; its files are read through the operating system, which caches them anyway,
 * so 16 MB is enough for the small databases PGlite is for.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

/** A database that does not answer within these limits counts as down (503), not as slow. */
const CONNECT_TIMEOUT_MS = 3000;
const QUERY_TIMEOUT_MS = 5000;

// Resolved from the working directory: the same path works from source and from the built bundle.
const migrationsFolder = resolve('drizzle');

export interface DatabaseOptions {
  /** postgres://… for PostgreSQL; otherwise PGlite. */
  url?: string | undefined;
  /** PGlite data directory; omitted means in memory. */
  dataDir?: string | undefined;
  /** Folder of the SQL migrations; the repository's `drizzle/` by default. */
  migrations?: string;
  /** Sees every query the app runs (tests count them). */
  logger?: Logger;
  /** PGlite only: hears that the database stopped after a PANIC (`stopAfterPanic`); every statement fails from then on. */
  onLost?: ((error: Error) => void) | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const folder = options.migrations ?? migrationsFolder;
  const logging = options.logger ? { logger: options.logger } : {};
  // Each driver is loaded only when it is the one in use: a server holds one, not both.
  if (options.url) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    // An idle client that loses its server must not take the process down with it.
    pool.on('error', (error) => console.error('[db] помилка зʼєднання з PostgreSQL:', error.message));
    const db = drizzlePg(pool, { schema, ...logging }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      migrate: () => migratePg(drizzlePg(pool, { schema }), { migrationsFolder: folder }),
      ping: async () => {
        await pool.query('select 1');
      },
      exclusive: async (work) => {
        // A connection of its own, outside the pool's query timeout: waiting for another
        // instance's start-up may take longer than a query may.
        const client = new pg.Client({ connectionString: options.url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
        await client.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
          return await work();
        } finally {
          await client.end().catch(() => {});
        }
      },
      listen: (channel, onMessage, onReconnect) => listenOnPostgres(pg.Client, options.url!, channel, onMessage, onReconnect),
      close: () => pool.end(),
    };
  }
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const client = new PGlite({ ...(options.dataDir ? { dataDir: options.dataDir } : {}), postgresqlconf: PGLITE_SETTINGS });
  await client.waitReady;
  stopAfterPanic(client, options.onLost);
  const pdb = drizzlePglite(client, { schema, ...logging });
  return {
    db: pdb as unknown as Database,
    kind: 'pglite',
    migrate: () => migratePglite(pdb, { migrationsFolder: folder }),
    ping: async () => {
      await client.query('select 1');
    },
    // One process owns an embedded database.
    exclusive: (work) => work(),
    // One process: its own NOTIFYs, delivered on commit.
    listen: async (channel, onMessage) => {
      const stop = await client.listen(channel, onMessage);
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: () => client.close(),
  };
}

/** The PANIC that stopped an embedded database, as the cause of the errors its statements then fail with. */
export class DatabaseStopped extends Error {
  constructor(panic: Error) {
    // Worded as PGlite's own refusal after close, which the API already answers with 503 (api/app.ts).
    super(`PGlite is closed: it stopped after a PANIC (${panic.message})`, { cause: panic });
  }
}

type ProtocolCall = (message: Uint8Array, options?: object) => Promise<unknown>;

/**
 * After a PANIC, PostgreSQL ends its backend and starts afresh; PGlite's one backend stays, and its
 * next statement spins for ever in WebAssembly, holding the process's only thread (seen when a
 * full disk refused a write of the write-ahead log: 53100 with severity PANIC, then no answer to
 * anything, health included). So from the first PANIC on, every statement fails at once without
 * entering PGlite, and `onLost` is told. Every statement PGlite runs goes through these two calls.
 */
export function stopAfterPanic(client: Pick<PGlite, 'execProtocol' | 'execProtocolStream'>, onLost?: (error: Error) => void): void {
  let panic: Error | undefined;
  const guard = (call: ProtocolCall): ProtocolCall => async (message, options) => {
    if (panic) throw new DatabaseStopped(panic);
    try {
      return await call(message, options);
    } catch (error) {
      if (!panic && (error as { severity?: unknown } | null)?.severity === 'PANIC') {
        panic = error as Error;
        onLost?.(panic);
      }
      throw error;
    }
  };
  const calls = client as unknown as Record<'execProtocol' | 'execProtocolStream', ProtocolCall>;
  calls.execProtocol = guard(calls.execProtocol.bind(client));
  calls.execProtocolStream = guard(calls.execProtocolStream.bind(client));
}

/** How long to wait before listening again after the connection was lost: doubling, at most 5 s. */
const relistenDelay = (attempt: number) => Math.min(100 * 2 ** attempt, 5000);

type PgClient = typeof pg.Client;

/** `listen` on PostgreSQL: a connection of its own (a pooled one would be handed to queries), kept open. */
async function listenOnPostgres(
  Client: PgClient,
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onReconnect: () => void,
): Promise<() => Promise<void>> {
  let current: InstanceType<PgClient> | null = null;
  let stopped = false;
  let attempt = 0;
  let everListened = false;
  let timer: NodeJS.Timeout | undefined;

  const retry = () => {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void connect();
    }, relistenDelay(attempt++));
    timer.unref();
  };

  const connect = async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, keepAlive: true });
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error) console.error('[db] слухач подій втратив зʼєднання:', error.message);
      if (current === client) current = null;
      client.end().catch(() => {});
      retry();
    };
    client.on('error', lose);
    client.on('end', () => lose());
    client.on('notification', (message) => {
      if (message.channel === channel && message.payload) onMessage(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      lose(error as Error);
      return;
    }
    if (stopped) return void client.end().catch(() => {});
    current = client;
    attempt = 0;
    if (everListened) onReconnect();
    everListened = true;
  };

  await connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await current?.end().catch(() => {});
    current = null;
  };
}
