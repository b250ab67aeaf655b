// Statements the embedded database parses and plans once (decision 025 amended, FINDINGS F29).
//
// PGlite's `query` sends every statement unnamed: PostgreSQL parses and plans it each time, and
// that is most of a statement's cost there (the chat poll: 0.47 ms by `query`, 0.09 ms sent by
// name with its plan kept). The server sends the same few dozen statements' text over and over
// (drizzle builds the same text for the same query), so a text sent a second time is prepared
// under a name of its own and sent by name from then on, as the JDBC driver does past its
// `prepareThreshold`. This uses PGlite's public protocol API: `execProtocolStream` with messages
// from its `protocol.serialize`, the answer read by its own `parse.parseResults`.
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

type Message = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** A statement prepared under `name`: the types of its parameters and the description of its rows. */
interface Prepared {
  name: string;
  paramTypes: number[];
  /** Absent for a statement that returns no rows (an INSERT without RETURNING). */
  rows: Message | undefined;
}

/** Statements kept prepared at most: past it, the one used longest ago is closed. */
export const MAX_PREPARED = 256;
/** Texts counted at most, to find the ones sent twice: past it, the one seen longest ago is forgotten. */
const MAX_SEEN = 1024;
/** PostgreSQL's "cached plan must not change result type": the schema changed under a prepared statement. */
const PLAN_CHANGED = '0A000';

const { serialize } = protocol;

/**
 * A parameter as PGlite's `query` sends it: by the serializer of its type, else its text. The
 * database's own serializers, which know its array types as well as the built-in ones.
 */
function serialized(db: PGlite, value: unknown, type: number | undefined): string | null {
  if (value === null || value === undefined) return null;
  const serializer = type === undefined ? undefined : db.serializers[type];
  return serializer ? serializer(value) : String(value);
}

export class PreparedStatements {
  readonly #db: PGlite;
  /** Text → its prepared statement, the most recently used last. */
  readonly #prepared = new Map<string, Prepared>();
  /** Texts seen once, the most recently seen last. */
  readonly #seen = new Set<string>();
  /** Names of statements evicted, closed before the next statement outside a transaction. */
  readonly #toClose: string[] = [];
  #next = 0;

  constructor(db: PGlite) {
    this.#db = db;
  }

  /**
   * Runs `sql` as PGlite's `query` would, with the same answer and the same errors. `inTransaction`:
   * a transaction is open (its statements do not sync PGlite's files; `query` does the same).
   * The caller runs one statement at a time.
   */
  run(sql: string, params: unknown[], options: QueryOptions, inTransaction: boolean, unprepared: () => Promise<Results>): Promise<Results> {
    if (!this.#prepared.has(sql) && !this.#seen.delete(sql)) {
      this.#seen.add(sql);
      if (this.#seen.size > MAX_SEEN) this.#seen.delete(this.#seen.values().next().value!);
      return unprepared();
    }
    // PGlite's own lock, as `query` takes it: a LISTEN between two of these calls would take their answers.
    return this.#db.runExclusive(async () => {
      if (!inTransaction && this.#toClose.length > 0) await this.#closeEvicted();
      let statement = this.#prepared.get(sql);
      if (statement) {
        this.#prepared.delete(sql);
        this.#prepared.set(sql, statement);
      } else {
        statement = await this.#prepare(sql);
      }
      const values = params.map((value, i) => serialized(this.#db, value, statement.paramTypes[i]));
      let messages: Message[];
      try {
        // Bind, execute and sync in one call: an error skips to the sync, as it does on a socket.
        const message = Buffer.concat([serialize.bind({ statement: statement.name, values }), serialize.execute({}), serialize.sync()]);
        messages = await this.#db.execProtocolStream(message, { syncToFs: !inTransaction });
      } catch (error) {
        if ((error as { code?: string }).code === PLAN_CHANGED) this.#evict(sql);
        throw error;
      }
      const rows = statement.rows ? [statement.rows, ...messages] : messages;
      // PGlite's `query` merges the caller's parsers into a copy of the instance's 318, which took
      // 0.1 ms a statement (FINDINGS F31). A caller's table whose prototype is the instance's
      // (pglite-worker.ts) already answers for both, and is used as it is.
      const { parsers, ...rest } = options;
      if (parsers && Object.getPrototypeOf(parsers) === this.#db.parsers) return parse.parseResults(rows, parsers as PGlite['parsers'], rest)[0]!;
      return parse.parseResults(rows, this.#db.parsers, options)[0]!;
    });
  }

  /** Parses `sql` under a new name and reads what it takes and gives. A failure prepares nothing and is the statement's. */
  async #prepare(sql: string): Promise<Prepared> {
    const name = `k${(this.#next++).toString(36)}`;
    const messages = await this.#db.execProtocolStream(Buffer.concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]), {});
    const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs: number[] } | undefined;
    const statement: Prepared = { name, paramTypes: params?.dataTypeIDs ?? [], rows: messages.find((m) => m.name === 'rowDescription') };
    this.#prepared.set(sql, statement);
    if (this.#prepared.size > MAX_PREPARED) this.#evict(this.#prepared.keys().next().value!);
    return statement;
  }

  #evict(sql: string): void {
    const statement = this.#prepared.get(sql);
    if (!statement) return;
    this.#prepared.delete(sql);
    this.#toClose.push(statement.name);
  }

  /** Closes the evicted statements; outside a transaction, so no transaction's failure can stop it. */
  async #closeEvicted(): Promise<void> {
    const names = this.#toClose.splice(0);
    await this.#db.execProtocolStream(Buffer.concat([...names.map((name) => serialize.close({ type: 'S', name })), serialize.sync()]), { throwOnError: false });
  }

  /** How many statements are prepared, for tests. */
  get size(): number {
    return this.#prepared.size;
  }
}
