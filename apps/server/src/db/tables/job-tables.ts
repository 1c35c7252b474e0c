import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.js";

export type JobState = "waiting" | "running" | "done" | "failed";

/**
 * Work done later (jobs/, docs/design/JOBS.md): a job is inserted in the same transaction as the write that causes
 * it, claimed by one instance at a time (`FOR UPDATE SKIP LOCKED`) under a lease (`locked_until`), retried with
 * back-off up to its kind's limit, then kept `failed` with its last error. `unique_key` makes an enqueue idempotent
 * (a recurring schedule's period is inserted once across instances); it stays taken until the row is pruned.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    state: text("state").notNull().default("waiting").$type<JobState>(),
    uniqueKey: text("unique_key"),
    /** Attempts started so far (a claim counts one, also when its instance dies before it ends). */
    attempts: integer("attempts").notNull().default(0),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text("locked_by"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("jobs_unique_key_idx").on(table.uniqueKey),
    // The claim: due waiting jobs, and running ones whose lease ran out (their instance stopped).
    index("jobs_claim_idx")
      .on(table.runAt)
      .where(sql`${table.state} = 'waiting'`),
    index("jobs_lease_idx").on(table.lockedUntil).where(sql`${table.state} = 'running'`),
    index("jobs_kind_state_idx").on(table.kind, table.state, table.createdAt),
  ],
);
