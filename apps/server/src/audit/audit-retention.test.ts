import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { auditEvents } from "../db/schema.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { pruneAuditEvents } from "./audit-retention.js";

const day = 86_400_000;
let harness: TestApp;
let folder: string;

beforeAll(async () => {
  harness = await createTestApp();
  folder = mkdtempSync(path.join(tmpdir(), "vigil-audit-archive-"));
});
afterAll(async () => {
  await harness.close();
  rmSync(folder, { recursive: true, force: true });
});

async function eventsAged(days: number[], action: string): Promise<string[]> {
  const rows = await harness.database.db
    .insert(auditEvents)
    .values(
      days.map((age, index) => ({
        action,
        outcome: "success" as const,
        at: new Date(Date.now() - age * day - index * 1000),
        ip: "203.0.113.9",
        details: { index },
      })),
    )
    .returning({ id: auditEvents.id });
  return rows.map((row) => row.id);
}

function archivedIds(files: string[]): string[] {
  return files.flatMap((file) =>
    gunzipSync(readFileSync(file))
      .toString("utf8")
      .trimEnd()
      .split("\n")
      .map((line) => (JSON.parse(line) as { id: string }).id),
  );
}

async function remaining(ids: string[]): Promise<string[]> {
  const rows = await harness.database.db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(inArray(auditEvents.id, ids));
  return rows.map((row) => row.id).sort();
}

describe("the audit log's retention", () => {
  it("keeps six years by default, as HIPAA asks of documentation", () => {
    const config = loadConfig({ DATA_DIR: "/srv/vigil" });
    expect(config.audit).toEqual({ retentionDays: 2190, archiveDir: path.join("/srv/vigil", "audit-archive") });
    expect(loadConfig({ AUDIT_RETENTION_DAYS: "3650", AUDIT_ARCHIVE_DIR: "/archive" }).audit).toEqual({
      retentionDays: 3650,
      archiveDir: "/archive",
    });
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: "0" })).toThrow(/AUDIT_RETENTION_DAYS/);
  });

  it("archives the events past the retention to gzip'd NDJSON, then deletes them, and keeps the rest", async () => {
    const old = await eventsAged([2191, 2200, 3000], "retention.old");
    const recent = await eventsAged([1, 2189], "retention.recent");
    const dir = path.join(folder, "archive");

    const result = await pruneAuditEvents(harness.database.db, { retentionDays: 2190, archiveDir: dir });

    expect(result.skipped).toBe(false);
    expect(result.archived).toBeGreaterThanOrEqual(old.length);
    expect(readdirSync(dir).every((name) => /^audit-.*\.ndjson\.gz$/.test(name))).toBe(true);
    const archived = archivedIds(result.files);
    expect(archived).toEqual(expect.arrayContaining(old));
    expect(archived).not.toEqual(expect.arrayContaining([recent[0]]));
    // Every field kept, as it was.
    const first = JSON.parse(
      gunzipSync(readFileSync(result.files[0] as string))
        .toString("utf8")
        .split("\n")[0] ?? "",
    );
    expect(first).toMatchObject({ action: expect.any(String), outcome: "success", ip: expect.any(String) });
    expect(await remaining([...old, ...recent])).toEqual([...recent].sort());
  });

  it("deletes nothing when the archive cannot be written", async () => {
    const old = await eventsAged([2500], "retention.unwritable");
    const blocked = path.join(folder, "not-a-folder");
    writeFileSync(blocked, "a file where the archive folder should be");
    await expect(
      pruneAuditEvents(harness.database.db, { retentionDays: 2190, archiveDir: path.join(blocked, "archive") }),
    ).rejects.toThrow();
    expect(await remaining(old)).toEqual(old);
  });

  it("archives each event once when two instances prune at the same moment", async () => {
    const old = await eventsAged([2300, 2301, 2302, 2303], "retention.race");
    const dir = path.join(folder, "race");
    const retention = { retentionDays: 2190, archiveDir: dir };
    const results = await Promise.all([
      pruneAuditEvents(harness.database.db, retention),
      pruneAuditEvents(harness.database.db, retention),
    ]);
    const archived = archivedIds(results.flatMap((result) => result.files));
    expect(archived.filter((id) => old.includes(id)).sort()).toEqual([...old].sort());
    expect(new Set(archived).size).toBe(archived.length);
    expect(await remaining(old)).toEqual([]);
  });
});
