import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openDatabase, queryRows } from "./client.js";
import { FolderLockedError } from "./folder-lock.js";

const run = promisify(execFile);
const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(path.join(tmpdir(), "vigil-lock-"));
  folders.push(folder);
  return folder;
};
/**
 * A folder already holding a migrated cluster, copied from the run's template (testing/pglite-template.ts) as
 * crash-recovery.test.ts does: what these tests prove is the lock around opening a folder, and PGlite's initdb for a
 * new one took seconds each (past the test timeout on a loaded machine). Without a template (PostgreSQL runs), a new
 * folder: openDatabase initialises it.
 */
const clusterFolder = async () => {
  const folder = newFolder();
  const templateFile = inject("pgliteTemplate");
  if (templateFile && existsSync(templateFile)) {
    const template = await PGlite.create({
      dataDir: path.join(folder, "pglite"),
      loadDataDir: new Blob([readFileSync(templateFile)]),
    });
    await template.close();
  }
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("the embedded database folder", () => {
  it("refuses a second opening of the same folder and leaves the first intact", async () => {
    const dataDir = await clusterFolder();
    const first = await openDatabase({ kind: "pglite", dataDir });
    await first.db.execute(sql`create table kept (value text)`);
    await first.db.execute(sql`insert into kept values ('still here')`);
    await expect(openDatabase({ kind: "pglite", dataDir })).rejects.toBeInstanceOf(FolderLockedError);
    const rows = await queryRows<{ value: string }>(first.db, sql`select value from kept`);
    expect(rows).toEqual([{ value: "still here" }]);
    await first.close();
    const reopened = await openDatabase({ kind: "pglite", dataDir });
    expect(await queryRows<{ value: string }>(reopened.db, sql`select value from kept`)).toEqual([
      { value: "still here" },
    ]);
    await reopened.close();
  });

  it("tells another process clearly that the folder is in use", async () => {
    const dataDir = await clusterFolder();
    const held = await openDatabase({ kind: "pglite", dataDir });
    const command = path.resolve(import.meta.dirname, "../identity/users-command.ts");
    const failure = await run("npx", ["tsx", command, "list"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    await held.close();
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(`The data folder ${dataDir} is in use by another Vigil process`);
    expect(existsSync(path.join(dataDir, "pglite"))).toBe(true);
  });

  it("takes over the lock of a process that died", async () => {
    const dataDir = await clusterFolder();
    // A pid that cannot be alive: the lock of a server killed with SIGKILL.
    writeFileSync(path.join(dataDir, "vigil.lock"), `2147483646@${(await import("node:os")).hostname()}`);
    const database = await openDatabase({ kind: "pglite", dataDir });
    await database.close();
  });

  it.runIf(process.platform === "linux")("takes over the lock of a killed process not yet reaped", async () => {
    const dataDir = await clusterFolder();
    // `sleep 1` exits after its parent has become `sleep 30`, which never reaps it: a zombie, as a server killed
    // with SIGKILL is until its parent waits for it. (With `sleep 0` the shell could reap it before its `exec` on a
    // loaded machine, and the process was gone instead of a zombie.)
    const parent = spawn("sh", ["-c", "sleep 1 & echo $!; exec sleep 30"], { stdio: ["ignore", "pipe", "ignore"] });
    try {
      const [line] = (await once(parent.stdout, "data")) as [Buffer];
      const zombie = Number(line.toString().trim());
      await expect
        .poll(() => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]?.[0], { timeout: 5_000 })
        .toBe("Z");
      writeFileSync(path.join(dataDir, "vigil.lock"), `${zombie}@${hostname()}`);
      const database = await openDatabase({ kind: "pglite", dataDir });
      await database.close();
    } finally {
      parent.kill("SIGKILL");
    }
  });
});
