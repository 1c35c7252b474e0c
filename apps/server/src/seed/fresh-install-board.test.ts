import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openDatabase, queryRows } from "../db/client.js";
import { rebuildCaseClocks } from "../modules/watch/watch-service.js";
import { killAllServers, startServer } from "../testing/server-process.js";

/*
 * A first start on an empty data folder with the demo seed (what `npm start` does on a new install): the board must
 * show the demo's open cases' clocks at once, not after the next restart. The server's start rebuilds the kept clocks
 * before it seeds, so the seed has to leave them as that rebuild would (PRODUCT.md §10). The embedded engine only:
 * an empty data folder is the fresh install this is about.
 */

const workDir = mkdtempSync(path.join(tmpdir(), "vigil-fresh-install-"));
afterAll(async () => {
  await killAllServers();
  rmSync(workDir, { recursive: true, force: true });
});

type KeptClock = { case_id: string; kind: string; due_at: string; owner_username: string | null; is_next: boolean };

describe.skipIf(loadConfig().databaseUrl)("a fresh install with the demo seed", () => {
  it("shows the demo's open cases on the board at the first start, the kept clocks as a restart would rebuild them", async () => {
    const dataDir = path.join(workDir, "data");
    const server = await startServer({
      label: "fresh install",
      env: { DATA_DIR: dataDir, SEED: "demo", LOG_LEVEL: "info" },
      readyTimeoutMs: 150_000,
    });
    const credentials = readFileSync(path.join(dataDir, "demo-credentials.txt"), "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"))
      .map((line) => line.split("\t"));
    const [, password] = credentials.find(([username]) => username === "coordinator") as string[];
    const { idToken } = await server.signIn("coordinator", password as string);
    const answer = await server.request("GET", "/api/continuous-monitoring/board?limit=200", { token: idToken });
    expect(answer.status, answer.body).toBe(200);
    const board = answer.json().data as { total: number; items: { caseId: string; clock: { kind: string } }[] };
    expect(server.logTail(400)).not.toContain("rebuilt the kept service clocks");
    // The probe's three: an overdue review turnaround, an intermittent review and a STAT case waiting.
    expect(board.items.map((item) => item.clock.kind)).toEqual(
      expect.arrayContaining(["review-turnaround", "intermittent-review", "stat-acknowledgement"]),
    );
    expect(await server.stop()).toBe(0);

    const database = await openDatabase({ kind: "pglite", dataDir });
    try {
      const read = () =>
        queryRows<KeptClock>(
          database.db,
          sql`select case_id, kind, due_at::text, owner_username, is_next from case_clocks order by case_id, kind`,
        );
      const seeded = await read();
      expect(board.total).toBe(seeded.filter((clock) => clock.is_next).length);
      await rebuildCaseClocks(database.db);
      expect(await read()).toEqual(seeded);
    } finally {
      await database.close();
    }
  }, 240_000);
});
