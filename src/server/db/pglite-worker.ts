// The embedded database's own thread (decision 025): PGlite runs every statement synchronously
// inside its WebAssembly, so here it blocks this thread's loop instead of the server's. It answers
// what the server's `PgliteThread` (db/pglite-thread.ts) sends.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { errorShape, type FromThread, type ThreadOptions, type ToThread } from './pglite-thread.ts';

/** Ends a transaction's callback without committing: PGlite rolls back when its callback throws. */
const ROLLBACK = Symbol('rollback');

/** Parsers that keep these types' values as the text PostgreSQL sent, by their list of types. */
const keptAsText = new Map<string, Record<number, (value: string) => string>>();
function parsersKeeping(types: readonly number[]) {
  const key = types.join(',');
  let parsers = keptAsText.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, (value: string) => value]));
    keptAsText.set(key, parsers);
  }
  return parsers;
}

const noTransaction = (txId: number) => new Error(`no open transaction ${txId}`);

interface Open {
  tx: Transaction;
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back. */
  ended: Promise<void>;
}

/** Answers the statements, transactions and LISTENs the server's thread sends, then tells it PGlite is ready. */
function host(db: PGlite, port: MessagePort): void {
  const send = (message: FromThread) => port.postMessage(message);
  const transactions = new Map<number, Open>();
  const listening = new Map<string, () => Promise<void>>();

  const reply = (id: number, work: Promise<unknown>) =>
    work.then(
      (result) => send({ id, result }),
      (error: unknown) => send({ id, error: errorShape(error) }),
    );

  // What PGlite runs next. PGlite runs one thing at a time, in the order it is called. A transaction
  // holds it from BEGIN to COMMIT across a round trip to the server's thread for each statement,
  // which on a busy server takes far longer than the statements; a statement alone takes none. So a
  // statement that comes while a transaction is open waits for that one only, not for every
  // transaction queued after it: when one ends, the statements that came meanwhile run, then the
  // next transaction begins. Neither kind can starve the other.
  let inTransaction = false;
  const heldStatements: (() => void)[] = [];
  const waitingBegins: (() => void)[] = [];
  const next = () => {
    inTransaction = false;
    for (const run of heldStatements.splice(0)) run();
    waitingBegins.shift()?.();
  };

  const begin = (id: number, txId: number) => {
    if (inTransaction) return void waitingBegins.push(() => begin(id, txId));
    inTransaction = true;
    let begun = false;
    const ended: Promise<void> = db.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          begun = true;
          transactions.set(txId, { tx, finish: (commit) => (commit ? resolve() : reject(ROLLBACK)), ended });
          send({ id, result: null });
        }),
    );
    // A BEGIN that failed never ran the callback: its caller is still waiting for an answer.
    ended.catch((error: unknown) => {
      if (!begun) send({ id, error: errorShape(error) });
    });
    ended.then(next, next);
  };

  const end = async (txId: number, commit: boolean) => {
    const open = transactions.get(txId);
    if (!open) throw noTransaction(txId);
    transactions.delete(txId);
    open.finish(commit);
    try {
      await open.ended;
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    }
    return null;
  };

  const listen = async (channel: string) => {
    if (!listening.has(channel)) listening.set(channel, await db.listen(channel, (payload) => send({ channel, payload })));
    return null;
  };

  const unlisten = async (channel: string) => {
    const stop = listening.get(channel);
    listening.delete(channel);
    if (stop && !db.closed) await stop();
    return null;
  };

  port.on('message', (message: ToThread) => {
    switch (message.op) {
      case 'query': {
        const target = message.tx === 0 ? db : transactions.get(message.tx)?.tx;
        if (!target) return void send({ id: message.id, error: errorShape(noTransaction(message.tx)) });
        const run = () => void reply(message.id, target.query(message.sql, message.params, { rowMode: message.rowMode, parsers: parsersKeeping(message.text) }));
        return message.tx === 0 && inTransaction ? void heldStatements.push(run) : run();
      }
      case 'begin':
        return begin(message.id, message.tx);
      case 'end':
        return void reply(message.id, end(message.tx, message.commit));
      case 'listen':
        return void reply(message.id, listen(message.channel));
      case 'unlisten':
        return void reply(message.id, unlisten(message.channel));
      case 'close':
        return void reply(
          message.id,
          db.close().then(() => null),
        ).then(() => port.close());
    }
  });
  send({ ready: true });
}

const port = parentPort!;
const { dataDir, settings } = workerData as ThreadOptions;
try {
  const db = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: settings });
  await db.waitReady;
  host(db, port);
} catch (error) {
  port.postMessage({ failed: (error as Error).message } satisfies FromThread);
  port.close();
}
