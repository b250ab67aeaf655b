// The embedded database on a thread of its own (decision 025). PGlite runs each statement
// synchronously inside WebAssembly: on the server's thread no answer, not even a held page or a
// 304, could leave while a statement ran. Here the server's thread sends each statement across
// and goes on; `db/pglite-worker.ts` runs PGlite.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

export interface ThreadOptions {
  /** PGlite's data directory; omitted means in memory. */
  dataDir: string | undefined;
  /** `postgresql.conf` lines. */
  settings: string[];
}

/**
 * What crosses to the thread. A query names its transaction (0: none). Parsers are functions and
 * cannot cross: `text` lists the types whose values stay the text PostgreSQL sent, which is all
 * drizzle's parsers do (they keep dates and intervals as strings).
 */
export type ToThread =
  | { op: 'query'; id: number; tx: number; sql: string; params: unknown[]; rowMode: 'array' | 'object'; text: number[] }
  | { op: 'begin'; id: number; tx: number }
  | { op: 'end'; id: number; tx: number; commit: boolean }
  | { op: 'listen' | 'unlisten'; id: number; channel: string }
  | { op: 'close'; id: number };

/** An error as it crosses: its message and the fields callers read (`code`, `constraint`, …). */
export interface ErrorShape {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type FromThread =
  | { ready: true }
  | { failed: string }
  | { id: number; result: unknown }
  | { id: number; error: ErrorShape }
  | { channel: string; payload: string };

/** A database error's primitive fields survive the crossing; its stack and its options' functions do not. */
export function errorShape(error: unknown): ErrorShape {
  const fields: ErrorShape['fields'] = {};
  if (error && typeof error === 'object') {
    for (const [key, value] of Object.entries(error)) {
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
    }
  }
  return { message: error instanceof Error ? error.message : String(error), fields };
}

function errorOf(shape: ErrorShape): Error {
  return Object.assign(new Error(shape.message), shape.fields);
}

/**
 * The thread's entry: beside this module when it runs from the sources (tests, `astro dev`), or
 * the build's bundle (`dist/serving/pglite-worker.mjs`, scripts/bundle-serving.ts) above the chunk
 * the build put this module in.
 */
function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./pglite-worker.ts', import.meta.url);
  for (let dir = dirname(fileURLToPath(import.meta.url)), up = 0; up < 4; dir = dirname(dir), up++) {
    const bundled = join(dir, 'serving', 'pglite-worker.mjs');
    if (existsSync(bundled)) return pathToFileURL(bundled);
  }
  throw new Error('pglite-worker.mjs is not in the build: run `npm run build`');
}

/** The calls drizzle's PGlite driver makes inside a transaction. */
interface ThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/** The part of PGlite's client that drizzle and `openDatabase` use, served by the thread. */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #next = 1;
  #nextTx = 1;
  /** Why calls fail from now on: the thread stopped or was closed. */
  #gone: Error | null = null;
  #closing = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  /**
   * Starts PGlite on a thread of its own and waits until it is ready. `onLost` hears that the
   * thread stopped without `close` (a crash): every call fails from then on.
   */
  static open(options: ThreadOptions, onLost?: (error: Error) => void): Promise<PgliteThread> {
    const worker = new Worker(workerEntry(), { workerData: options });
    const thread = new PgliteThread(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromThread) => {
        if ('ready' in message) resolve(thread);
        else if ('failed' in message) reject(new Error(message.failed));
        else if ('channel' in message) thread.#listeners.get(message.channel)?.forEach((hear) => hear(message.payload));
        else thread.#settle(message);
      });
      worker.on('error', (error) => console.error('[db] потік вбудованої бази даних упав:', error.message));
      worker.once('exit', () => {
        const error = new Error('PGlite is closed: its thread stopped');
        thread.#fail(error);
        if (!thread.#closing) onLost?.(error);
        reject(error);
      });
    });
  }

  get closed(): boolean {
    return this.#gone !== null;
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#query(0, sql, params, options);
  }

  /**
   * Runs `work` in one transaction on the thread: committed when it resolves, rolled back when it
   * throws. Other statements wait for it there, as PGlite makes them wait in one thread.
   */
  async transaction<T>(work: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const tx = this.#nextTx++;
    await this.#call({ op: 'begin', tx });
    let result: T;
    try {
      result = await work({ query: (sql, params = [], options = {}) => this.#query(tx, sql, params, options) });
    } catch (error) {
      await this.#call({ op: 'end', tx, commit: false }).catch(() => {});
      throw error;
    }
    await this.#call({ op: 'end', tx, commit: true });
    return result;
  }

  /** Hears NOTIFY payloads on `channel`; returns the function that stops. */
  async listen(channel: string, hear: (payload: string) => void): Promise<() => Promise<void>> {
    let heard = this.#listeners.get(channel);
    if (!heard) {
      heard = new Set();
      this.#listeners.set(channel, heard);
      await this.#call({ op: 'listen', channel });
    }
    heard.add(hear);
    return async () => {
      heard.delete(hear);
      if (heard.size > 0 || this.#listeners.get(channel) !== heard) return;
      this.#listeners.delete(channel);
      if (!this.closed) await this.#call({ op: 'unlisten', channel });
    };
  }

  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    await this.#call({ op: 'close' }).catch(() => {});
    this.#fail(new Error('PGlite is closed'));
    await this.#worker.terminate();
  }

  #query<T>(tx: number, sql: string, params: unknown[], options: QueryOptions): Promise<Results<T>> {
    const text = options.parsers ? Object.keys(options.parsers).map(Number) : [];
    return this.#call({ op: 'query', tx, sql, params, rowMode: options.rowMode ?? 'object', text }) as Promise<Results<T>>;
  }

  #call(message: DistributiveOmit<ToThread, 'id'>): Promise<unknown> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #settle(message: { id: number; result: unknown } | { id: number; error: ErrorShape }) {
    const pending = this.#pending.get(message.id);
    this.#pending.delete(message.id);
    if ('error' in message) pending?.reject(errorOf(message.error));
    else pending?.resolve(message.result);
  }

  #fail(error: Error) {
    this.#gone ??= error;
    for (const pending of this.#pending.values()) pending.reject(this.#gone);
    this.#pending.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
