import {
  Mutex,
  messages,
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
  TransactionAbortedError,
} from "@electric-sql/pglite";
import { runTransaction } from "./pglite-transaction.js";

/**
 * PGlite in the server's thread, its statements kept parsed. PGlite's own `query` sends each statement to its
 * executor as six protocol calls (parse, describe the statement, bind, describe the portal, execute, sync), parsing
 * the text afresh every time. Here a statement's text is parsed once under a name of its own, and each later call is
 * one protocol message (bind, describe, execute, sync), with the same values, serialisers, parsers, errors and
 * result shape as PGlite's `query`. A named statement is also PostgreSQL's to plan once: after five executions it
 * keeps a generic plan when that costs no more than the custom ones (plan_cache_mode's default).
 *
 * The connection is PGlite's one session: a query waits for the one before it, and a transaction holds the
 * connection from BEGIN to its end (a query outside it waits), as PGlite's `transaction` does.
 */
export class PgliteConnection {
  readonly #pglite: PGlite;
  readonly #lock = new Mutex();
  readonly #statements: StatementCache;

  constructor(pglite: PGlite, options: { keptStatements?: number } = {}) {
    this.#pglite = pglite;
    this.#statements = new StatementCache(options.keptStatements ?? 256);
  }

  get ready(): boolean {
    return this.#pglite.ready;
  }

  get closed(): boolean {
    return this.#pglite.closed;
  }

  get waitReady(): Promise<void> {
    return this.#pglite.waitReady;
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#lock.runExclusive(() => this.#query<T>(query, params ?? [], options, false));
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.#lock.runExclusive(() => this.#pglite.exec(query, options));
  }

  /**
   * Runs `callback` in a transaction holding the connection: committed when it resolves, rolled back when it throws
   * (the error rethrown) or by `tx.rollback()`. A COMMIT that PostgreSQL turns into a rollback (the transaction had
   * failed) throws PGlite's `TransactionAbortedError`, as PGlite's own `transaction` does.
   */
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.#lock.runExclusive(async () => {
      await this.#simple("BEGIN");
      return runTransaction(
        {
          query: (query, params, options) => this.#query(query, params ?? [], options, true),
          exec: (query, options) => this.#pglite.exec(query, options),
          commit: async () => {
            const [ended] = await this.#simple("COMMIT");
            if (ended?.command === "ROLLBACK") throw new TransactionAbortedError();
          },
          rollback: async () => {
            await this.#simple("ROLLBACK");
          },
          listen: () => {
            throw new Error("LISTEN inside a transaction is not used by Vigil");
          },
        },
        callback,
      );
    });
  }

  /** PGlite's listen, taken in turn with the statements (a LISTEN must not land inside another's transaction). */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const unlisten = await this.#lock.runExclusive(() => this.#pglite.listen(channel, callback));
    return () => this.#lock.runExclusive(() => unlisten());
  }

  dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob> {
    return this.#lock.runExclusive(() => this.#pglite.dumpDataDir(compression));
  }

  close(): Promise<void> {
    return this.#lock.runExclusive(() => this.#pglite.close());
  }

  async #query<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean) {
    if (options?.blob || options?.paramTypes || options?.onNotice) {
      // What Vigil never passes goes through PGlite's own path, which knows it.
      return this.#pglite.query<T>(text, params, options);
    }
    // PGlite's statement lock: a transaction's statements may be sent together (Promise.all), and PGlite keeps one
    // exchange's answer in a single slot until it is read.
    return this.#pglite.runExclusive(() => this.#statement<T>(text, params, options, inTransaction));
  }

  async #statement<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
    again = false,
  ): Promise<Results<T>> {
    const statement = this.#statements.get(text) ?? (await this.#prepare(text, params, options));
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const serialize =
        options?.serializers?.[statement.parameterTypes[index] ?? 0] ??
        this.#pglite.serializers[statement.parameterTypes[index] ?? 0];
      return serialize ? serialize(param) : String(param);
    });
    const answer = await this.#exchange(
      [
        protocol.serialize.bind({ statement: statement.name, values }),
        protocol.serialize.describe({ type: "P" }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ],
      !inTransaction,
    );
    const failure = answer.find(isError);
    if (failure) {
      if (isStale(failure)) {
        this.#statements.forget(text);
        // Outside a transaction the failed statement changed nothing: parsed afresh, it runs once more.
        if (!inTransaction && !again) return this.#statement<T>(text, params, options, inTransaction, true);
      }
      throw decorate(failure, text, params, options);
    }
    return parse.parseResults(answer, this.#pglite.parsers, options)[0] as Results<T>;
  }

  /** Parses `text` under a new name and learns its parameters' types (for PGlite's serialisers). */
  async #prepare(text: string, params: unknown[], options: QueryOptions | undefined): Promise<Statement> {
    const name = this.#statements.nextName();
    const answer = await this.#exchange(
      [
        ...this.#statements.takeClosings().map((old) => protocol.serialize.close({ type: "S", name: old })),
        protocol.serialize.parse({ name, text }),
        protocol.serialize.describe({ type: "S", name }),
        protocol.serialize.sync(),
      ],
      false,
    );
    const failure = answer.find(isError);
    if (failure) throw decorate(failure, text, params, options);
    const description = answer.find(
      (message): message is messages.ParameterDescriptionMessage => message.name === "parameterDescription",
    );
    return this.#statements.keep(text, { name, parameterTypes: description?.dataTypeIDs ?? [] });
  }

  async #simple(text: string): Promise<Results[]> {
    const answer = await this.#pglite.runExclusive(() => this.#exchange([protocol.serialize.query(text)], false));
    const failure = answer.find(isError);
    if (failure) throw decorate(failure, text, [], undefined);
    return parse.parseResults(answer, this.#pglite.parsers);
  }

  #exchange(parts: Uint8Array[], syncToFs: boolean): Promise<messages.BackendMessage[]> {
    return this.#pglite.execProtocolStream(concatenate(parts), { syncToFs, throwOnError: false });
  }
}

type Statement = { name: string; parameterTypes: number[] };

/** The statements kept parsed, by text; the least recently used is closed when there are too many. */
class StatementCache {
  readonly #byText = new Map<string, Statement>();
  readonly #limit: number;
  #closings: string[] = [];
  #next = 1;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(text: string): Statement | undefined {
    const statement = this.#byText.get(text);
    if (statement) {
      this.#byText.delete(text);
      this.#byText.set(text, statement);
    }
    return statement;
  }

  nextName(): string {
    return `vigil_${this.#next++}`;
  }

  keep(text: string, statement: Statement): Statement {
    this.#byText.set(text, statement);
    if (this.#byText.size > this.#limit) {
      const [oldest] = this.#byText.keys();
      if (oldest !== undefined) this.forget(oldest);
    }
    return statement;
  }

  forget(text: string): void {
    const statement = this.#byText.get(text);
    if (!statement) return;
    this.#byText.delete(text);
    this.#closings.push(statement.name);
  }

  takeClosings(): string[] {
    const closings = this.#closings;
    this.#closings = [];
    return closings;
  }
}

/**
 * A kept statement PostgreSQL can no longer run as parsed: its result's columns changed with its tables (a
 * migration), or it is gone (DEALLOCATE).
 */
function isStale(error: messages.DatabaseError): boolean {
  return (error.code === "0A000" && error.message.includes("cached plan")) || error.code === "26000";
}

function isError(message: messages.BackendMessage): message is messages.DatabaseError {
  return message instanceof messages.DatabaseError;
}

/** PGlite's own error, with the statement it came from, as PGlite's `query` reports it. */
function decorate(
  error: messages.DatabaseError,
  query: string,
  params: unknown[],
  options: QueryOptions | undefined,
): Error {
  return Object.assign(error, { query, params, queryOptions: options });
}

function concatenate(parts: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}
