// The embedded database's own thread (pglite-thread.ts starts it; the protocol is described there). Plain
// JavaScript so that node loads it as it is under every runner: the bundle (dist/server.js), tsx and vitest.
import { parentPort, workerData } from "node:worker_threads";
import { messages, PGlite, TransactionAbortedError } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** @type {{ dataDir?: string, startParams: string[], template?: Blob, initialMemory?: number }} */
const options = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

/** Open transactions by the id of their `begin`: PGlite's transaction object, how to end it, and its end. */
const transactions = new Map();
/** One PGlite listener per channel; the calling thread fans each payload out to its own callbacks. */
const listeners = new Map();

/** The identity parsers Drizzle asks for (it keeps dates and intervals as text), rebuilt from their type ids. */
function queryOptions(wire) {
  if (!wire) return undefined;
  const { identityParsers, ...rest } = wire;
  if (!identityParsers) return rest;
  const parsers = {};
  for (const type of identityParsers) parsers[type] = (value) => value;
  return { parsers, ...rest };
}

/**
 * A PostgreSQL error as plain data: every own field (code, constraint, detail, table, …) and the message, name and
 * stack, which structured cloning would drop or flatten. `queryOptions` holds functions and stays behind.
 */
function serialiseError(error) {
  if (!(error instanceof Error)) return { message: String(error), name: "Error", kind: "Error", fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (key === "queryOptions" || typeof value === "function") continue;
    fields[key] = value;
  }
  // The classes' own names are minified in PGlite's bundle, so the kind is told by instanceof.
  const kind =
    error instanceof messages.DatabaseError
      ? "DatabaseError"
      : error instanceof TransactionAbortedError
        ? "TransactionAbortedError"
        : "Error";
  return { message: error.message, name: error.name, kind, stack: error.stack, fields };
}

function reply(id, result) {
  port.postMessage({ id, result });
}

function fail(id, error) {
  try {
    port.postMessage({ id, error: serialiseError(error) });
  } catch {
    // A field that cannot be cloned (a parameter of an odd type): the message and code still matter most.
    const { fields, ...rest } = serialiseError(error);
    port.postMessage({ id, error: { fields: { code: fields.code, constraint: fields.constraint }, ...rest } });
  }
}

/** The connection a message runs on: its transaction's, or the database's (which waits for any open transaction). */
function target(message) {
  if (message.tx === undefined) return database;
  const open = transactions.get(message.tx);
  if (!open) throw new Error("Transaction is closed");
  return open.tx;
}

const handlers = {
  query: (message) => target(message).query(message.sql, message.params, queryOptions(message.options)),
  exec: (message) => target(message).exec(message.sql, queryOptions(message.options)),
  begin: (message) =>
    new Promise((opened, failedToOpen) => {
      const entry = {};
      entry.ended = database.transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            Object.assign(entry, { tx, commit, rollback });
            transactions.set(message.id, entry);
            opened(undefined);
          }),
      );
      // `ended` settles after COMMIT or ROLLBACK, and `end` waits for it; a failed BEGIN rejects it before `opened`.
      entry.ended.catch(failedToOpen);
    }),
  end: async (message) => {
    const open = transactions.get(message.tx);
    transactions.delete(message.tx);
    if (!open) throw new Error("Transaction is closed");
    if (message.commit) open.commit(undefined);
    else open.rollback(new Error("rolled back by the caller"));
    try {
      await open.ended;
    } catch (error) {
      // The caller's own rollback is what it asked for; a failed COMMIT is an error it must hear.
      if (message.commit) throw error;
    }
  },
  listen: async (message) => {
    // The promise is kept, so a second listen on the channel while the first is starting waits for the same one.
    if (!listeners.has(message.channel)) {
      const notify = (payload) => port.postMessage({ notify: message.channel, payload });
      listeners.set(message.channel, database.listen(message.channel, notify));
    }
    await listeners.get(message.channel);
  },
  unlisten: async (message) => {
    const stop = listeners.get(message.channel);
    listeners.delete(message.channel);
    if (stop) await (await stop)();
  },
  dump: (message) => database.dumpDataDir(message.compression),
  close: async () => {
    await database.close();
  },
};

let database;
try {
  database = await PGlite.create({
    startParams: options.startParams,
    extensions: { pg_trgm },
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.template ? { loadDataDir: options.template } : {}),
    ...(options.initialMemory ? { initialMemory: options.initialMemory } : {}),
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: serialiseError(error) });
  port.close();
}

port.on("message", (message) => {
  const handler = handlers[message.op];
  let pending;
  try {
    pending = handler ? handler(message) : Promise.reject(new Error(`unknown operation ${message.op}`));
  } catch (error) {
    pending = Promise.reject(error);
  }
  Promise.resolve(pending).then(
    (result) => reply(message.id, result),
    (error) => fail(message.id, error),
  );
});
