// The embedded database's own thread (decision 025): PGlite runs every statement synchronously
// inside its WebAssembly, so here it blocks this thread's loop instead of the server's. It answers
// what the server's `PgliteThread` (db/pglite-thread.ts) sends: statements on the thread's own port,
// a transaction's on the transactions' port, where the server's thread is waiting for them.
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type ParserOptions, type Transaction } from '@electric-sql/pglite';
import { PreparedStatements } from './pglite-prepared.ts';
import { errorShape, type Answer, type FromThread, type InTransaction, type Statement, type ThreadData, type ToThread } from './pglite-thread.ts';

/** Ends a transaction's callback without committing: PGlite rolls back when its callback throws. */
const ROLLBACK = Symbol('rollback');

/**
 * Runs a statement on PGlite, in `tx` when given, prepared once its text has been seen before
 * (db/pglite-prepared.ts), with the parsers of PGlite's instance but the types `text` names kept
 * as the text PostgreSQL sent.
 */
function runner(db: PGlite) {
  const prepared = new PreparedStatements(db);
  // By their list of types. PGlite's own parsers are these tables' prototype, not copied into them:
  // it has one for each of its 318 types, and copying them took 0.1 ms a statement (FINDINGS F31).
  const keptAsText = new Map<string, ParserOptions>();
  const parsersKeeping = (types: readonly number[]): ParserOptions => {
    const key = types.join(',');
    let parsers = keptAsText.get(key);
    if (!parsers) {
      parsers = Object.create(db.parsers) as ParserOptions;
      for (const type of types) parsers[type] = (value: string) => value;
      keptAsText.set(key, parsers);
    }
    return parsers;
  };
  return (statement: Statement, tx?: Transaction) => {
    const options = { rowMode: statement.rowMode, parsers: parsersKeeping(statement.text) };
    return prepared.run(statement.sql, statement.params, options, tx !== undefined, () => (tx ?? db).query(statement.sql, statement.params, options));
  };
}

/** The open transaction: its PGlite handle once begun, how to end it, and when it has ended. */
interface Open {
  tx: Transaction | null;
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back (or failed to begin). */
  ended: Promise<void>;
}

/**
 * Answers what the server's thread sends, then tells it PGlite is ready. The server's thread opens
 * one transaction at a time and waits, blocked, for each of its answers (`signal` says one is on
 * `transactions`), so those come first: the other statements run one at a time, each after a look
 * at `transactions`, and none while a transaction is open. The server's thread then waits for at
 * most one statement before its own, and a transaction holds PGlite for its statements alone.
 */
function host(db: PGlite, port: MessagePort, { answers, transactions, signal }: Pick<ThreadData, 'answers' | 'transactions' | 'signal'>): void {
  const send = (message: FromThread) => port.postMessage(message);
  // Answers to what came on `port`, on the port the server's thread empties between requests too.
  const reply = (message: Answer) => answers.postMessage(message);
  const run = runner(db);
  const answerNow = (answer: Answer) => {
    transactions.postMessage(answer);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  };
  const settle = (id: number, work: Promise<unknown>, answer: (answer: Answer) => void) =>
    work.then(
      (result) => answer({ id, result }),
      (error: unknown) => answer({ id, error: errorShape(error) }),
    );

  let open: Open | null = null;
  /** Statements from outside a transaction, in the order they came. */
  const waiting: (() => Promise<void>)[] = [];
  /** What came on the transactions' port, not yet handled. */
  const urgent: InTransaction[] = [];
  /** How many of `waiting` came while the last transaction was open: they run before the next BEGIN. */
  let owed = 0;
  let pumping = false;

  // What runs next. A transaction's statements and its end go first, always: the server's thread is
  // blocked on them. A BEGIN goes before the statements waiting, except those that came while the
  // last transaction was open, so neither kind starves the other. Statements run one at a time, so
  // whatever comes on the transactions' port waits for at most the one running.
  const pump = async () => {
    if (pumping) return;
    pumping = true;
    try {
      for (;;) {
        for (let got = receiveMessageOnPort(transactions); got; got = receiveMessageOnPort(transactions)) urgent.push(got.message as InTransaction);
        const first = urgent[0];
        if (first && (first.op !== 'begin' || owed === 0)) {
          urgent.shift();
          inTransaction(first);
          continue;
        }
        const next = open ? undefined : waiting.shift();
        if (!next) break;
        owed = Math.max(0, owed - 1);
        await next();
      }
    } finally {
      pumping = false;
    }
  };

  const begin = (id: number) => {
    if (open) return void answerNow({ id, error: errorShape(new Error('a transaction is already open')) });
    const opened: Open = { tx: null, finish: () => {}, ended: Promise.resolve() };
    open = opened;
    opened.ended = db.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          opened.tx = tx;
          opened.finish = (commit) => (commit ? resolve() : reject(ROLLBACK));
          answerNow({ id, result: null });
        }),
    );
    // A BEGIN that failed never ran the callback: its caller is still waiting for an answer.
    opened.ended.catch((error: unknown) => {
      if (opened.tx) return;
      open = null;
      answerNow({ id, error: errorShape(error) });
      void pump();
    });
  };

  const end = async (commit: boolean) => {
    const ending = open;
    if (!ending?.tx) throw new Error('no open transaction');
    ending.finish(commit);
    try {
      await ending.ended;
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    } finally {
      open = null;
      // Statements and transactions come on two ports, whose events the loop may deliver in either
      // order: what the server's thread sent before this end is taken now, so it counts as owed.
      for (let got = receiveMessageOnPort(port); got; got = receiveMessageOnPort(port)) take(got.message as ToThread);
      owed = waiting.length;
    }
    return null;
  };

  const inTransaction = (message: InTransaction) => {
    switch (message.op) {
      case 'begin':
        return begin(message.id);
      case 'query':
        if (!open?.tx) return void answerNow({ id: message.id, error: errorShape(new Error('no open transaction')) });
        return void settle(message.id, run(message, open.tx), answerNow);
      case 'end':
        // The statements that waited run once the server's thread has its answer.
        return void settle(message.id, end(message.commit), answerNow).then(pump);
    }
  };
  transactions.on('message', (message: InTransaction) => {
    urgent.push(message);
    void pump();
  });

  const listening = new Map<string, () => Promise<void>>();
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

  /** Takes one message of `port`; a statement waits for `pump`, which the caller runs. */
  function take(message: ToThread): void {
    switch (message.op) {
      case 'query':
        return void waiting.push(() => settle(message.id, run(message), reply));
      case 'listen':
        return void settle(message.id, listen(message.channel), reply);
      case 'unlisten':
        return void settle(message.id, unlisten(message.channel), reply);
      case 'close':
        return void settle(
          message.id,
          db.close().then(() => null),
          reply,
        ).then(() => {
          port.close();
          answers.close();
          transactions.close();
        });
    }
  }
  port.on('message', (message: ToThread) => {
    take(message);
    void pump();
  });
  send({ ready: true });
}

const port = parentPort!;
const { dataDir, settings, answers, transactions, signal } = workerData as ThreadData;
try {
  const db = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: settings });
  await db.waitReady;
  host(db, port, { answers, transactions, signal });
} catch (error) {
  port.postMessage({ failed: (error as Error).message } satisfies FromThread);
  port.close();
}
