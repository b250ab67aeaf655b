// The embedded database on a thread of its own (decision 025). PGlite runs each statement
// synchronously inside WebAssembly: on the server's thread no answer, not even a held page or a
// 304, could leave while a statement ran. Here the server's thread sends each statement across
// and goes on; `db/pglite-worker.ts` runs PGlite.
//
// Except inside a transaction. PGlite has one connection, so an open transaction holds it; sent
// across one statement at a time, each waiting for the server's loop to take its answer, a
// transaction held PGlite for as many of the server's turns as it had statements (tens of ms each
// on a busy server) while PGlite sat idle and every other statement waited (FINDINGS F28). A
// transaction's statements are therefore answered synchronously: the server's thread waits on a
// shared flag (`Atomics.wait`) and takes the answer off a port of its own, so a transaction runs
// from BEGIN to COMMIT in one turn, holding PGlite for its own statements only.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';

export interface ThreadOptions {
  /** PGlite's data directory; omitted means in memory. */
  dataDir: string | undefined;
  /** `postgresql.conf` lines. */
  settings: string[];
}

/** What the thread is started with: the options, and where a transaction's statements go. */
export interface ThreadData extends ThreadOptions {
  /**
   * The answers to what crosses on the thread's own port (`ToThread`): the server's thread takes
   * them in its loop, and between requests too (`takeAnswers`).
   */
  answers: MessagePort;
  /** A transaction's statements come on it, and their answers go back on it, at once. */
  transactions: MessagePort;
  /** Set to 1 (and notified) once an answer is on `transactions`. */
  signal: Int32Array;
}

/**
 * A statement as it crosses. Parsers are functions and cannot cross: `text` lists the types whose
 * values stay the text PostgreSQL sent, which is all drizzle's parsers do (they keep dates and
 * intervals as strings).
 */
export interface Statement {
  sql: string;
  params: unknown[];
  rowMode: 'array' | 'object';
  text: number[];
}

/** What crosses on the thread's own port, answered there. */
export type ToThread =
  | ({ op: 'query'; id: number } & Statement)
  | { op: 'listen' | 'unlisten'; id: number; channel: string }
  | { op: 'close'; id: number };

/** What crosses on the transactions' port, one transaction at a time, answered there at once. */
export type InTransaction = { op: 'begin'; id: number } | ({ op: 'query'; id: number } & Statement) | { op: 'end'; id: number; commit: boolean };

/** An error as it crosses: its message and the fields callers read (`code`, `constraint`, …). */
export interface ErrorShape {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type Answer = { id: number; result: unknown } | { id: number; error: ErrorShape };

/** What comes on the thread's own port; the answers come on `ThreadData.answers`. */
export type FromThread = { ready: true } | { failed: string } | { channel: string; payload: string };

/**
 * How long a transaction's statement may keep the server's thread waiting. Only a lost thread
 * should reach it: the longest statement the server sends in a transaction takes milliseconds.
 */
const ANSWER_TIMEOUT_MS = 60_000;

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

/** The threads open in this process, on `globalThis`: the serving front and the build load their own copies of this module. */
const OPEN = Symbol.for('kiberarena.pgliteThreads');
const openThreads: Set<PgliteThread> = ((globalThis as Record<symbol, Set<PgliteThread> | undefined>)[OPEN] ??= new Set());

/**
 * Takes the answers PGlite's thread has sent since, and settles their statements, without waiting
 * for the loop's turn to reach them: the serving front calls it for every request it receives
 * (scripts/serve.ts). Under load a turn of the loop takes 100 ms and more, and a request of several
 * statements, each answered in a message, waited a turn for each (FINDINGS F31); their
 * continuations now run right after the request that took them.
 */
export function takeAnswers(): void {
  for (const thread of openThreads) thread.takeAnswers();
}

/** The part of PGlite's client that drizzle and `openDatabase` use, served by the thread. */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #answers: MessagePort;
  readonly #transactions: MessagePort;
  readonly #signal: Int32Array;
  /** A transaction is open: the next waits its turn here, not inside the thread (see above). */
  #inTransaction = false;
  readonly #waitingTransactions: (() => void)[] = [];
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #next = 1;
  /** Why calls fail from now on: the thread stopped or was closed. */
  #gone: Error | null = null;
  #closing = false;

  private constructor(worker: Worker, answers: MessagePort, transactions: MessagePort, signal: Int32Array) {
    this.#worker = worker;
    this.#answers = answers;
    this.#transactions = transactions;
    this.#signal = signal;
  }

  /**
   * Starts PGlite on a thread of its own and waits until it is ready. `onLost` hears that the
   * thread stopped without `close` (a crash): every call fails from then on.
   */
  static open(options: ThreadOptions, onLost?: (error: Error) => void): Promise<PgliteThread> {
    const { port1, port2 } = new MessageChannel();
    const answers = new MessageChannel();
    const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const workerData: ThreadData = { ...options, answers: answers.port2, transactions: port2, signal };
    const worker = new Worker(workerEntry(), { workerData, transferList: [answers.port2, port2] });
    const thread = new PgliteThread(worker, answers.port1, port1, signal);
    answers.port1.on('message', (answer: Answer) => thread.#settle(answer));
    openThreads.add(thread);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromThread) => {
        if ('ready' in message) resolve(thread);
        else if ('failed' in message) reject(new Error(message.failed));
        else thread.#listeners.get(message.channel)?.forEach((hear) => hear(message.payload));
      });
      worker.on('error', (error) => console.error('[db] потік вбудованої бази даних упав:', error.message));
      worker.once('exit', () => {
        const error = new Error('PGlite is closed: its thread stopped');
        openThreads.delete(thread);
        thread.#answers.close();
        thread.#fail(error);
        if (!thread.#closing) onLost?.(error);
        reject(error);
      });
    });
  }

  /** Settles the statements whose answers have come (`takeAnswers`). */
  takeAnswers(): void {
    for (let got = receiveMessageOnPort(this.#answers); got; got = receiveMessageOnPort(this.#answers)) this.#settle(got.message as Answer);
  }

  get closed(): boolean {
    return this.#gone !== null;
  }

  query<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.#call({ op: 'query', ...statementOf(sql, params, options) }) as Promise<Results<T>>;
  }

  /**
   * Runs `work` in one transaction on the thread: committed when it resolves, rolled back when it
   * throws. Its statements are answered synchronously (see above), so unless `work` awaits
   * something else it runs in this one turn; the next transaction waits for it on this side, which
   * never blocks. Other statements wait for it in the thread, as PGlite makes them wait in one.
   */
  async transaction<T>(work: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    if (this.#inTransaction) await new Promise<void>((resolve) => this.#waitingTransactions.push(resolve));
    this.#inTransaction = true;
    try {
      this.#callNow({ op: 'begin' });
      let result: T;
      try {
        // async: a statement that fails rejects, as a query does, rather than throwing at the call.
        result = await work({ query: async (sql, params = [], options = {}) => this.#callNow({ op: 'query', ...statementOf(sql, params, options) }) as Results<never> });
      } catch (error) {
        try {
          this.#callNow({ op: 'end', commit: false });
        } catch {
          // The thread is gone or did not answer: PGlite has nothing left to roll back.
        }
        throw error;
      }
      this.#callNow({ op: 'end', commit: true });
      return result;
    } finally {
      const next = this.#waitingTransactions.shift();
      if (next) next();
      else this.#inTransaction = false;
    }
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

  /**
   * Sends `message` and waits for its answer, blocking this thread: for a transaction's statements
   * only, which the thread runs at once (nothing else holds PGlite while one is open).
   */
  #callNow(message: DistributiveOmit<InTransaction, 'id'>): unknown {
    if (this.#gone) throw this.#gone;
    const id = this.#next++;
    this.#transactions.postMessage({ ...message, id });
    const deadline = performance.now() + ANSWER_TIMEOUT_MS;
    for (;;) {
      // An answer left behind by a call that timed out is passed over.
      for (let got = receiveMessageOnPort(this.#transactions); got; got = receiveMessageOnPort(this.#transactions)) {
        const answer = got.message as Answer;
        if (answer.id !== id) continue;
        if ('error' in answer) throw errorOf(answer.error);
        return answer.result;
      }
      const left = deadline - performance.now();
      if (left <= 0 || Atomics.wait(this.#signal, 0, 0, left) === 'timed-out') {
        throw new Error(`PGlite did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`);
      }
      // Cleared before the port is read again: an answer posted after this is seen by the next wait.
      Atomics.store(this.#signal, 0, 0);
    }
  }

  #call(message: DistributiveOmit<ToThread, 'id'>): Promise<unknown> {
    if (this.#gone) return Promise.reject(this.#gone);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  #settle(message: Answer) {
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

function statementOf(sql: string, params: unknown[], options: QueryOptions): Statement {
  const text = options.parsers ? Object.keys(options.parsers).map(Number) : [];
  return { sql, params, rowMode: options.rowMode ?? 'object', text };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
