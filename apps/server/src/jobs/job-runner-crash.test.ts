import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { type Database, queryRows } from "../db/client.js";
import { jobs } from "../db/schema.js";
import { crashProbeJob } from "../testing/job-runner-child.js";
import { openTestDatabase } from "../testing/test-app.js";
import { enqueueJob } from "./job-queue.js";
import { startJobRunner } from "./job-runner.js";

/**
 * A runner's process killed mid-job (`kill -9`: no chance to give the job back) and stopped by SIGTERM. Other
 * processes need a database they can share: PostgreSQL (DATABASE_URL); PGlite admits one process per folder.
 */
const postgresUrl = loadConfig().databaseUrl;
const child = fileURLToPath(new URL("../testing/job-runner-child.ts", import.meta.url));
const serverDir = fileURLToPath(new URL("../../", import.meta.url));
const silent = {
  child: () => silent,
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
} as unknown as Parameters<typeof startJobRunner>[2];

describe.skipIf(!postgresUrl)("a job runner's process ending mid-job", () => {
  let database: Database;
  let drop: () => Promise<void>;
  let url: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    ({ database, drop } = await openTestDatabase());
    const [current] = await queryRows<{ name: string }>(database.db, sql`select current_database() as name`);
    const parsed = new URL(postgresUrl as string);
    parsed.pathname = `/${current?.name}`;
    url = parsed.toString();
  });
  afterAll(async () => {
    for (const running of children) running.kill("SIGKILL");
    await drop?.();
  });

  function startChild(trace: string, graceMs = 7000) {
    const runnerProcess = spawn(process.execPath, ["--import", "tsx", child, url, trace, String(graceMs)], {
      cwd: serverDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(runnerProcess);
    const exited = new Promise<number | null>((resolve) => runnerProcess.once("exit", (code) => resolve(code)));
    const ready = new Promise<void>((resolve, reject) => {
      runnerProcess.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      runnerProcess.once("exit", () => reject(new Error("the runner process exited before it was ready")));
    });
    return { process: runnerProcess, ready, exited };
  }

  const lines = (trace: string) => readFileSync(trace, "utf8").split("\n").filter(Boolean);
  const newTrace = () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "vigil-jobs-")), "trace");
    writeFileSync(file, "");
    return file;
  };
  const jobRow = async (id: string | undefined) =>
    (
      await database.db
        .select()
        .from(jobs)
        .where(eq(jobs.id, id as string))
    )[0];

  it("re-runs a job whose process was killed mid-try once its lease runs out, and completes it once", async () => {
    const trace = newTrace();
    const kind = crashProbeJob(trace);
    const instance = startChild(trace);
    await instance.ready;
    const id = await enqueueJob(database.db, kind, { ms: 60_000 });
    await expect.poll(() => lines(trace), { timeout: 15_000 }).toEqual([`start ${id} 1`]);
    instance.process.kill("SIGKILL");
    await instance.exited;
    expect(await jobRow(id)).toMatchObject({ state: "running", attempts: 1 });

    // Another instance: the job is the dead one's until its lease (timeout x1.5 + 1 s = 4 s) runs out.
    const quick = {
      ...kind,
      handle: (_payload: { ms: number }, context: Parameters<typeof kind.handle>[1]) =>
        kind.handle({ ms: 10 }, context),
    };
    const runner = startJobRunner(database, [quick], silent, { pollMs: 100 });
    try {
      await expect.poll(async () => (await jobRow(id))?.state, { timeout: 15_000 }).toBe("done");
    } finally {
      await runner.stop();
    }
    expect(lines(trace)).toEqual([`start ${id} 1`, `start ${id} 2`, `end ${id} 2`]);
    expect(await jobRow(id)).toMatchObject({ attempts: 2, lockedBy: null });
  });

  it("runs each of many jobs exactly once with two runner processes on one database", async () => {
    const trace = newTrace();
    const kind = crashProbeJob(trace);
    const ids = await database.db.transaction(async (tx) => {
      const added: string[] = [];
      for (let index = 0; index < 30; index += 1) added.push((await enqueueJob(tx, kind, { ms: 20 })) as string);
      return added;
    });
    const instances = [startChild(trace), startChild(trace)];
    await Promise.all(instances.map((instance) => instance.ready));
    try {
      await expect
        .poll(
          async () => {
            const rows = await queryRows<{ done: number }>(
              database.db,
              sql`select count(*)::int as done from jobs where kind = 'test-crash' and state = 'done'
                and id = any(${`{${ids.join(",")}}`}::uuid[])`,
            );
            return rows[0]?.done;
          },
          { timeout: 20_000 },
        )
        .toBe(30);
    } finally {
      for (const instance of instances) instance.process.kill("SIGTERM");
      await Promise.all(instances.map((instance) => instance.exited));
    }
    const ends = lines(trace).filter((line) => line.startsWith("end"));
    expect(ends.map((line) => line.split(" ")[1]).sort()).toEqual([...ids].sort());
    expect(lines(trace).filter((line) => line.startsWith("start"))).toHaveLength(30);
  });

  it("on SIGTERM finishes a try within the grace, and gives back one that cannot, for another instance", async () => {
    const trace = newTrace();
    const kind = crashProbeJob(trace);
    const instance = startChild(trace, 1500);
    await instance.ready;
    const short = await enqueueJob(database.db, kind, { ms: 500 });
    const long = await enqueueJob(database.db, kind, { ms: 30_000 });
    await expect.poll(() => lines(trace).length, { timeout: 15_000 }).toBe(2);
    instance.process.kill("SIGTERM");
    expect(await instance.exited).toBe(0);
    expect(await jobRow(short)).toMatchObject({ state: "done", attempts: 1 });
    // Given back at once: waiting, its attempt not counted, no lease to wait out.
    expect(await jobRow(long)).toMatchObject({ state: "waiting", attempts: 0, lockedBy: null });
    expect(lines(trace).filter((line) => line.startsWith("end"))).toEqual([`end ${short} 1`]);
  });
});
