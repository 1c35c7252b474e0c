import type { Db } from "./client.js";

const preparedStatements = new WeakMap<Db, Map<string, unknown>>();

/**
 * A hot read's statement, built once per database (a transaction gets its own) and key; drizzle then only fills in
 * the values. Callers prepare unnamed (`prepare("")`), so PostgreSQL still plans each execution with its values.
 */
export function preparedOnce<T>(db: Db, key: string, build: () => T): T {
  let statements = preparedStatements.get(db);
  if (!statements) {
    statements = new Map();
    preparedStatements.set(db, statements);
  }
  let statement = statements.get(key) as T | undefined;
  if (statement === undefined) {
    statement = build();
    statements.set(key, statement);
  }
  return statement;
}
