import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// apps/server/start.sh, run by `npm start`, with real node: `-e` makes node print what it was started with and
// leaves dist/server.js as a mere argument, so no server starts.
const script = fileURLToPath(new URL("../start.sh", import.meta.url));
const probe = `console.log(JSON.stringify({
  mmap: process.env.MALLOC_MMAP_THRESHOLD_ ?? null,
  trim: process.env.MALLOC_TRIM_THRESHOLD_ ?? null,
  heapLimitMb: Math.round(require("node:v8").getHeapStatistics().heap_size_limit / 1048576),
  execArgv: process.execArgv.filter((option) => option.startsWith("--")),
  argv: process.argv.slice(1),
  cwd: process.cwd(),
}))`;

const postgresUrl = "postgres://vigil@127.0.0.1:5432/vigil";

function startedWith(env: Record<string, string>, options: string[] = []) {
  const inherited = { ...process.env };
  for (const name of ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "DATABASE_URL", "NODE_OPTIONS"]) {
    delete inherited[name];
  }
  const output = execFileSync("/bin/sh", [script, ...options, "-e", probe], {
    env: { ...inherited, ...env },
    encoding: "utf8",
  });
  return JSON.parse(output) as {
    mmap: string | null;
    trim: string | null;
    heapLimitMb: number;
    execArgv: string[];
    argv: string[];
    cwd: string;
  };
}

describe("the start script", () => {
  it("sets glibc's fixed mmap and trim thresholds on the embedded database, with node's flags and the bundle", () => {
    const started = startedWith({});
    expect(started).toMatchObject({ mmap: "131072", trim: "131072", argv: ["dist/server.js"] });
    expect(started.cwd).toBe(path.dirname(script));
    expect(startedWith({ DATABASE_URL: "" })).toMatchObject({ mmap: "131072", trim: "131072" });
  });

  it("leaves glibc's defaults on PostgreSQL, and keeps values the environment sets", () => {
    expect(startedWith({ DATABASE_URL: postgresUrl })).toMatchObject({ mmap: null, trim: null });
    expect(startedWith({ MALLOC_MMAP_THRESHOLD_: "1048576" })).toMatchObject({ mmap: "1048576", trim: "131072" });
  });

  it("gives V8's heap less room on the embedded database than on PostgreSQL", () => {
    const embedded = startedWith({});
    expect(embedded.execArgv).toEqual([
      "--max-old-space-size=2000",
      "--max-semi-space-size=8",
      "--max-semi-space-size=4",
      "--heap-growing-percent=50",
    ]);
    const postgres = startedWith({ DATABASE_URL: postgresUrl });
    expect(postgres.execArgv).toEqual(["--max-old-space-size=2000", "--max-semi-space-size=8"]);
    // V8 took the last young-generation size: the limit is the old space plus three semi-spaces.
    expect(postgres.heapLimitMb).toBe(2000 + 3 * 8);
    expect(embedded.heapLimitMb).toBe(2000 + 3 * 4);
  });

  it("places the options it is given after its own, so they win", () => {
    const started = startedWith({ DATABASE_URL: postgresUrl }, ["--max-semi-space-size=16"]);
    expect(started.execArgv.at(-1)).toBe("--max-semi-space-size=16");
    expect(started.heapLimitMb).toBe(2000 + 3 * 16);
    expect(started.argv).toEqual(["dist/server.js"]);
  });
});
