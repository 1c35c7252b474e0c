import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { type AuditEvent, auditValuesOf } from "./record-audit.js";

/** Writes one audit row; resolves once the row is committed, rejects if it could not be written. */
export type RecordAudit = (event: AuditEvent) => Promise<void>;

type AuditValues = ReturnType<typeof auditValuesOf>;
type Waiting = { row: AuditValues; resolve: () => void; reject: (error: unknown) => void };

/** The most rows one statement carries; a longer queue is written in several. */
export const auditBatchLimit = 200;

/**
 * Audit rows of requests served at the same time, written together: while one statement is on its way, the rows that
 * arrive wait and leave as the next statement, one insert and one commit for all of them. A row that arrives alone
 * goes at once, so an idle server adds no delay; under load a read costs PostgreSQL a share of one commit instead of
 * a commit of its own, which is most of what an audited read costs the database beyond the read itself.
 *
 * Each caller still awaits its own row's commit, so "the row is written before the answer leaves" holds row by row,
 * and a crash loses only rows whose answers had not left either. If a statement fails, its rows are written one by
 * one, so one row the database refuses cannot take its neighbours with it. Only the rows of one process are grouped;
 * nothing is shared between instances (each commits its own).
 */
export function createAuditBatches(db: Db, limit = auditBatchLimit): RecordAudit {
  const waiting: Waiting[] = [];
  let writing = false;

  const writeWaiting = async (): Promise<void> => {
    writing = true;
    try {
      while (waiting.length > 0) {
        await writeBatch(db, waiting.splice(0, limit));
      }
    } finally {
      writing = false;
    }
  };

  return (event) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ row: auditValuesOf(event), resolve, reject });
      if (!writing) void writeWaiting();
    });
}

async function writeBatch(db: Db, batch: Waiting[]): Promise<void> {
  try {
    await insertRows(
      db,
      batch.map((entry) => entry.row),
    );
    for (const entry of batch) entry.resolve();
  } catch (error) {
    if (batch.length === 1) {
      batch[0]?.reject(error);
      return;
    }
    for (const entry of batch) {
      try {
        await insertRows(db, [entry.row]);
        entry.resolve();
      } catch (rowError) {
        entry.reject(rowError);
      }
    }
  }
}

/**
 * One statement for any number of rows, so PostgreSQL parses one text: the rows travel as one JSON array of
 * `auditValuesOf` (a string, which node-postgres and PGlite both send as it is). Rows written together carry the
 * time of their statement (`at` defaults to `now()`), as a row written alone always did; the audit viewer orders
 * rows of one time by id.
 */
async function insertRows(db: Db, rows: AuditValues[]): Promise<void> {
  await db.execute(sql`
    insert into audit_events (action, outcome, actor_sub, actor_username, target_type, target_id, ip, user_agent, details)
    select action, outcome, "actorSub", "actorUsername", "targetType", "targetId", ip, "userAgent", details
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
      action text, outcome text, "actorSub" uuid, "actorUsername" text, "targetType" text, "targetId" text,
      ip text, "userAgent" text, details jsonb)`);
}
