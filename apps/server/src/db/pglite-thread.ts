import { Worker } from "node:worker_threads";
import {
  messages,
  type QueryOptions,
  type Results,
  type Transaction,
  TransactionAbortedError,
} from "@electric-sql/pglite";
import { runTransaction } from "./pglite-transaction.js";

/**
 * PGlite on a thread of its own. In the server's thread, PGlite's single-threaded WebAssembly executor ran every
 * statement on the event loop that also parses requests, serialises answers and feeds the live streams: a 5 ms
 * query was 5 ms in which nothing else moved. Here the database runs in a `worker_threads` worker
 * (pglite-worker.mjs) and this object stands in for it: the part of PGlite's interface Drizzle, the migrator, the
 * template dump and the live events use (query, exec, transaction, listen, dumpDataDir, close), each call a message.
 *
 * Queries queue on the connection, as before: the worker hands each message to PGlite at once, and PGlite's own
 * mutexes run them one at a time in the order sent, a transaction holding the connection until it ends (a query
 * outside it waits, exactly as in-thread). Errors cross as data and are rebuilt as PGlite's own classes with every
 * field (code, constraint, detail, …), so the services' mapping of unique violations and the rest is unchanged.
 * Result rows are copied by structured cloning (strings, numbers, dates, objects of JSON columns).
 */
export type PgliteThreadOptions = {
  /** The cluster's folder; undefined: in memory. */
  dataDir?: string;
  /** A dump to start from (PGlite's `loadDataDir`), in memory only. */
  template?: Blob;
  startParams: string[];
  /** PGlite's initial WebAssembly memory in bytes (its own default: 128 MB, grown as needed). */
  initialMemory?: number;
};

type WireError = { message: string; name: string; kind: string; stack?: string; fields: Record<string, unknown> };
type Reply = { id: number; result?: unknown; error?: WireError };
type Notification = { notify: string; payload: string };
type Started = { ready: boolean; error?: WireError };
type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

const workerFile = new URL("./pglite-worker.mjs", import.meta.url);

export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  readonly #callbacks = new Map<string, Set<(payload: string) => void>>();
  #nextId = 1;
  #closing: Promise<void> | undefined;
  #failure: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on("message", (message: Reply | Notification) => {
      if ("notify" in message) {
        for (const callback of this.#callbacks.get(message.notify) ?? []) callback(message.payload);
        return;
      }
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#settled(message.id);
      if (message.error) pending.reject(rebuildError(message.error));
      else pending.resolve(message.result);
    });
    worker.on("error", (error) => this.#fail(error));
    worker.on("exit", (code) => this.#fail(new Error(`the PGlite thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and opens the database in it; rejects with PGlite's error when it cannot. */
  static async start(options: PgliteThreadOptions): Promise<PgliteThread> {
    const worker = new Worker(workerFile, { workerData: options });
    const listening: [string, (value: Started & number & Error) => void][] = [];
    const started = await new Promise<Started>((resolve, reject) => {
      listening.push(
        ["message", resolve],
        ["error", reject],
        ["exit", (code) => reject(new Error(`the PGlite thread stopped while opening (exit code ${code})`))],
      );
      for (const [event, listener] of listening) worker.once(event, listener);
    });
    // Only ours: the worker's own listeners (those that keep its port going) must stay.
    for (const [event, listener] of listening) worker.off(event, listener);
    if (!started.ready) {
      await worker.terminate();
      throw rebuildError(started.error ?? { message: "PGlite did not open", name: "Error", kind: "Error", fields: {} });
    }
    // Idle, the thread does not keep the process alive (as PGlite in-thread did not); a call in flight does.
    worker.unref();
    return new PgliteThread(worker);
  }

  get closed(): boolean {
    return this.#closing !== undefined || this.#failure !== undefined;
  }

  get ready(): boolean {
    return !this.closed;
  }

  get waitReady(): Promise<void> {
    return Promise.resolve();
  }

  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#call({ op: "query", sql: query, params, options: wireOptions(options) }) as Promise<Results<T>>;
  }

  exec(query: string, options?: QueryOptions): Promise<Results[]> {
    return this.#call({ op: "exec", sql: query, options: wireOptions(options) }) as Promise<Results[]>;
  }

  /**
   * Runs `callback` in a transaction that holds the thread's connection until it ends: committed when the callback
   * resolves, rolled back when it throws (and the error rethrown), or earlier by `tx.rollback()`.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = this.#nextId;
    await this.#call({ op: "begin" });
    return runTransaction(
      {
        query: async <R>(query: string, params: unknown[] | undefined, options: QueryOptions | undefined) =>
          (await this.#call({ op: "query", tx: id, sql: query, params, options: wireOptions(options) })) as Results<R>,
        exec: async (query, options) =>
          (await this.#call({ op: "exec", tx: id, sql: query, options: wireOptions(options) })) as Results[],
        commit: async () => {
          await this.#call({ op: "end", tx: id, commit: true });
        },
        rollback: async () => {
          await this.#call({ op: "end", tx: id, commit: false });
        },
        listen: (channel, listener) => this.listen(channel, listener),
      },
      callback,
    );
  }

  /** Calls `callback` with each payload NOTIFYed on `channel`; resolves once the LISTEN is in place. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.#callbacks.get(channel);
    if (!callbacks) {
      callbacks = new Set();
      this.#callbacks.set(channel, callbacks);
    }
    callbacks.add(callback);
    await this.#call({ op: "listen", channel });
    return async () => {
      callbacks.delete(callback);
      if (callbacks.size > 0 || this.#callbacks.get(channel) !== callbacks) return;
      this.#callbacks.delete(channel);
      if (!this.closed) await this.#call({ op: "unlisten", channel });
    };
  }

  async dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob> {
    return (await this.#call({ op: "dump", compression })) as Blob;
  }

  /** Closes the database (PGlite's checkpoint and shutdown), then the thread. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (this.#failure) return;
      await this.#send({ op: "close" });
      // PGlite has written its checkpoint and shut down: nothing is left in the thread to wait for.
      await this.#worker.terminate();
    })();
    return this.#closing;
  }

  #call(message: Record<string, unknown>): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#closing) return Promise.reject(new Error("PGlite is closed"));
    return this.#send(message);
  }

  #send(message: Record<string, unknown>): Promise<unknown> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ...message });
    });
  }

  #settled(id: number): void {
    this.#pending.delete(id);
    if (this.#pending.size === 0) this.#worker.unref();
  }

  /** The thread stopped: every call in flight and every later one fails with the reason. */
  #fail(error: Error): void {
    const closedCleanly = this.#closing !== undefined && this.#pending.size === 0;
    if (!closedCleanly) this.#failure ??= error;
    for (const [id, pending] of this.#pending) {
      this.#settled(id);
      pending.reject(error);
    }
  }
}

/**
 * Query options as data. Drizzle passes parsers that keep dates and intervals as text (identity functions), which
 * cannot be cloned; they cross as their type ids and the worker rebuilds them. Any other parser is refused.
 */
function wireOptions(options: QueryOptions | undefined): Record<string, unknown> | undefined {
  if (!options) return undefined;
  const { parsers, serializers, onNotice, ...rest } = options;
  if (serializers || onNotice) throw new Error("serializers and onNotice cannot cross to the PGlite thread");
  if (!parsers) return rest;
  const identityParsers = Object.entries(parsers).map(([type, parser]) => {
    if (parser("2026-01-01", Number(type)) !== "2026-01-01") {
      throw new Error(`only identity parsers cross to the PGlite thread (type ${type})`);
    }
    return Number(type);
  });
  return { identityParsers, ...rest };
}

/** The worker's error as the class PGlite throws in-thread, with the same fields. */
function rebuildError(wire: WireError): Error {
  let error: Error;
  if (wire.kind === "DatabaseError") {
    error = new messages.DatabaseError(wire.message, Number(wire.fields.length ?? 0), "error");
  } else if (wire.kind === "TransactionAbortedError") {
    error = new TransactionAbortedError();
  } else {
    error = new Error(wire.message);
  }
  Object.assign(error, wire.fields);
  error.name = wire.name;
  error.message = wire.message;
  if (wire.stack) error.stack = wire.stack;
  return error;
}
