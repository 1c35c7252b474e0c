import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db } from "./client.js";

/**
 * Statements built once whose rows come back as arrays (both drivers' array mode). Drizzle's own mapping checks
 * every column's kind on every row, the largest cost of a hot read's many rows after the answer itself; where a
 * read's columns are known, each is read in place by `map`. Unnamed (`prepare("")`): drizzle builds the text once
 * and then only fills in the values, while PostgreSQL still plans each execution with its values.
 */

const dialect = new PgDialect();

/** A statement built once whose rows come back as arrays, each made a `T` by `map`. */
export function prepareArrayRows<T>(
  db: Db,
  query: SQL,
  map: (row: unknown[]) => T,
): { execute: (values: Record<string, unknown>) => Promise<T[]> } {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, "", true, (rows) => rows.map(map));
  return { execute: async (values) => (await prepared.execute(values)) as T[] };
}

/** A raw statement built once: its rows for the values of its placeholders. */
export function prepareRaw<T>(db: Db, query: SQL): (values: Record<string, unknown>) => Promise<T[]> {
  const prepared = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, "", false);
  return async (values) => ((await prepared.execute(values)) as { rows: T[] }).rows;
}

/** Where each column sits in a row read as an array (drizzle selects a flat selection's keys in their order). */
export function columnsOf<K extends string>(selection: Record<K, unknown>): Record<K, number> {
  return Object.fromEntries(Object.keys(selection).map((key, index) => [key, index])) as Record<K, number>;
}

/** A timestamp with time zone as both drivers hand it over under drizzle (text), read as drizzle would read it. */
export function instant(value: unknown): Date {
  return typeof value === "string" ? new Date(value) : (value as Date);
}

export function instantOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : instant(value);
}
