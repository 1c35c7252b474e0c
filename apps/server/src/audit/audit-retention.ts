import { randomUUID } from "node:crypto";
import { mkdir, open, rename } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { asc, inArray, lt, sql } from "drizzle-orm";
import { type Db, queryRows } from "../db/client.js";
import { auditEvents } from "../db/schema.js";

/*
 * The audit log's retention (docs/operations.md, "Audit log retention"): events older than AUDIT_RETENTION_DAYS
 * (default six years, HIPAA §164.316(b)(2)) are written to AUDIT_ARCHIVE_DIR as gzip'd NDJSON, the file flushed to
 * disk, and only then deleted, in the same transaction that read them. A transaction-scoped advisory lock elects one
 * instance per batch: another that tries at the same moment skips, and nothing is archived twice. It runs once a day
 * as the job room's `audit-retention` kind (modules/audit/audit-retention-job.ts), or by `npm run audit:archive`.
 */

/** The advisory lock of the pruning (a number of its own, beside the migrations' and the key rotations'). */
const pruneLock = sql`hashtext('vigil:audit-retention')`;

export type AuditRetention = { retentionDays: number; archiveDir: string };
export type PruneResult = { archived: number; files: string[]; cutoff: Date; skipped: boolean };

/** Events per archive file and transaction: enough to keep up, few enough to hold in memory. */
const batchSize = 5_000;

async function writeArchive(dir: string, rows: (typeof auditEvents.$inferSelect)[]): Promise<string> {
  await mkdir(dir, { recursive: true });
  const stamp = (date: Date) => date.toISOString().replace(/[:.]/g, "-");
  const first = rows[0]?.at ?? new Date();
  const last = rows[rows.length - 1]?.at ?? first;
  const name = `audit-${stamp(first)}-to-${stamp(last)}-${randomUUID().slice(0, 8)}.ndjson.gz`;
  const file = path.join(dir, name);
  const partial = `${file}.partial`;
  const body = gzipSync(
    rows
      .map((row) => JSON.stringify(row))
      .join("\n")
      .concat("\n"),
  );
  const handle = await open(partial, "wx");
  try {
    await handle.writeFile(body);
    // On disk before the rows go: a crash after the delete must not lose what the file was to keep.
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(partial, file);
  return file;
}

/**
 * Archives and deletes the audit events older than the retention, oldest first, a batch per transaction. Skipped
 * (nothing done) while another instance holds the lock.
 */
export async function pruneAuditEvents(db: Db, retention: AuditRetention, now = new Date()): Promise<PruneResult> {
  const cutoff = new Date(now.getTime() - retention.retentionDays * 86_400_000);
  const result: PruneResult = { archived: 0, files: [], cutoff, skipped: false };
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      const [lock] = await queryRows<{ locked: boolean }>(
        tx,
        sql`select pg_try_advisory_xact_lock(${pruneLock}) as locked`,
      );
      if (!lock?.locked) return undefined;
      const rows = await tx
        .select()
        .from(auditEvents)
        .where(lt(auditEvents.at, cutoff))
        .orderBy(asc(auditEvents.at), asc(auditEvents.id))
        .limit(batchSize);
      if (rows.length === 0) return { count: 0, file: undefined };
      const file = await writeArchive(retention.archiveDir, rows);
      await tx.delete(auditEvents).where(
        inArray(
          auditEvents.id,
          rows.map((row) => row.id),
        ),
      );
      return { count: rows.length, file };
    });
    if (!batch)
      return { archived: result.archived, files: result.files, cutoff: result.cutoff, skipped: result.archived === 0 };
    if (batch.file) result.files.push(batch.file);
    result.archived += batch.count;
    if (batch.count < batchSize) return result;
  }
}
