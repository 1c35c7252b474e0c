import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { watchBoardQuerySchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../../config.js";
import { backupDatabase, restoreDatabase } from "../../db/backup.js";
import { openDatabase, queryRows } from "../../db/client.js";
import { seedDemoData } from "../../seed/seed-demo-data.js";
import { getWatchBoard } from "./board-service.js";
import { runningClocksOf } from "./clock-rules.js";
import { findCaseClockRow } from "./watch-repository.js";
import { clockFactsOf, rebuildCaseClocksIfNeeded } from "./watch-service.js";

/*
 * A backup from before the kept clocks holds open cases and no `case_clocks` rows. Restored, the server's start
 * (`rebuildCaseClocksIfNeeded`, server.ts) rebuilds them, so the board shows every open case's next clock at once.
 * The embedded engine's backup (a data folder archive): the start's rebuild is the same on both engines, so the
 * PostgreSQL pass (DATABASE_URL set) leaves this file to the PGlite one rather than repeat its minute of work.
 */

const settings = { dueSoonShare: 0.25 };
let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), "vigil-board-restore-"));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe.skipIf(loadConfig().databaseUrl)("the board after a restore", () => {
  it("shows the open cases' clocks once the start has rebuilt them, and the next start rebuilds nothing", async () => {
    const dataDir = path.join(workDir, "source");
    mkdirSync(dataDir);
    // A data folder from the run's migrated template (pglite-template.ts), which spares PGlite's initdb.
    const template = await PGlite.create({
      dataDir: path.join(dataDir, "pglite"),
      loadDataDir: new Blob([readFileSync(inject("pgliteTemplate"))]),
    });
    await template.close();
    const source = await openDatabase({ kind: "pglite", dataDir });
    await seedDemoData(source.db);
    // What a backup made before the board holds: the cases, no kept clocks.
    await source.db.execute(sql`delete from case_clocks`);
    await source.close();
    const file = path.join(workDir, "before-the-board.tar.gz");
    await backupDatabase({ engine: "pglite", dataDir }, file);

    const restoredDir = path.join(workDir, "restored");
    await restoreDatabase({ engine: "pglite", dataDir: restoredDir }, file);
    const restored = await openDatabase({ kind: "pglite", dataDir: restoredDir });
    try {
      const open = await queryRows<{ id: string }>(
        restored.db,
        sql`select id from cases where archived_at is null and stage <> 'closed'`,
      );
      const expected: { caseId: string; kind: string; dueAt: string }[] = [];
      for (const { id } of open) {
        const row = await findCaseClockRow(restored.db, id);
        const next = row ? runningClocksOf(clockFactsOf(row))[0] : undefined;
        if (next) expected.push({ caseId: id, kind: next.kind, dueAt: next.dueAt.toISOString() });
      }
      expect(expected.length).toBeGreaterThan(0);
      const query = watchBoardQuerySchema.parse({ limit: 200 });
      expect((await getWatchBoard(restored.db, query, { username: "nobody" }, settings)).items).toEqual([]);

      expect(await rebuildCaseClocksIfNeeded(restored.db)).toBe(open.length);
      const board = await getWatchBoard(restored.db, query, { username: "nobody" }, settings);
      expect(board.total).toBe(expected.length);
      expect(
        board.items.map((item) => ({ caseId: item.caseId, kind: item.clock.kind, dueAt: item.clock.dueAt })),
      ).toEqual(expect.arrayContaining(expected.map((clock) => expect.objectContaining(clock))));
      expect(await rebuildCaseClocksIfNeeded(restored.db)).toBe(0);
    } finally {
      await restored.close();
    }
  }, 180_000);
});
