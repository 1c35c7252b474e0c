import type { QueryOptions, Results, Transaction } from "@electric-sql/pglite";

/** What a PGlite stand-in does for a transaction it has begun; `runTransaction` makes PGlite's `Transaction` of it. */
export type TransactionSteps = {
  query: <R>(query: string, params: unknown[] | undefined, options: QueryOptions | undefined) => Promise<Results<R>>;
  exec: (query: string, options: QueryOptions | undefined) => Promise<Results[]>;
  /** Commits, or throws (PGlite's `TransactionAbortedError` when PostgreSQL turned the COMMIT into a rollback). */
  commit: () => Promise<void>;
  rollback: () => Promise<void>;
  listen: Transaction["listen"];
};

/**
 * Runs `callback` with a transaction over `steps` (already begun): committed when the callback resolves, rolled back
 * when it throws (the callback's error rethrown) or earlier by `tx.rollback()`; once ended, the transaction refuses
 * further use, as PGlite's own does.
 */
export async function runTransaction<T>(
  steps: TransactionSteps,
  callback: (tx: Transaction) => Promise<T>,
): Promise<T> {
  let closed = false;
  const open = () => {
    if (closed) throw new Error("Transaction is closed");
  };
  const tx: Transaction = {
    query: async <R>(query: string, params?: unknown[], options?: QueryOptions) => {
      open();
      return steps.query<R>(query, params, options);
    },
    sql: async <R>(strings: TemplateStringsArray, ...params: unknown[]) => {
      open();
      const text = strings.reduce((built, part, index) => `${built}$${index}${part}`);
      return steps.query<R>(text, params, undefined);
    },
    exec: async (query: string, options?: QueryOptions) => {
      open();
      return steps.exec(query, options);
    },
    rollback: async () => {
      open();
      closed = true;
      await steps.rollback();
    },
    listen: (channel, listener) => steps.listen(channel, listener),
    get closed() {
      return closed;
    },
  };
  try {
    const result = await callback(tx);
    if (!closed) {
      closed = true;
      await steps.commit();
    }
    return result;
  } catch (error) {
    if (!closed) {
      closed = true;
      // The callback's error is the one to report; a connection that failed meanwhile has said so already.
      await steps.rollback().catch(() => undefined);
    }
    throw error;
  }
}
