import { timestamp } from "drizzle-orm/pg-core";

/** Timestamps are `timestamptz`, set by the database when a row is written. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
