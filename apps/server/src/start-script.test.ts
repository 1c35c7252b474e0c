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
  argv: process.argv.slice(1),
  cwd: process.cwd(),
}))`;

function startedWith(env: Record<string, string>) {
  const inherited = { ...process.env };
  for (const name of ["MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "DATABASE_URL"]) delete inherited[name];
  const output = execFileSync("/bin/sh", [script, "-e", probe], { env: { ...inherited, ...env }, encoding: "utf8" });
  return JSON.parse(output) as {
    mmap: string | null;
    trim: string | null;
    heapLimitMb: number;
    argv: string[];
    cwd: string;
  };
}

describe("the start script", () => {
  it("sets glibc's fixed mmap and trim thresholds on the embedded database, with node's flags and the bundle", () => {
    const started = startedWith({});
    expect(started).toMatchObject({ mmap: "131072", trim: "131072", argv: ["dist/server.js"] });
    expect(started.cwd).toBe(path.dirname(script));
    // --max-old-space-size=2000 plus the young generation.
    expect(started.heapLimitMb).toBeGreaterThanOrEqual(2000);
    expect(started.heapLimitMb).toBeLessThan(2100);
    expect(startedWith({ DATABASE_URL: "" })).toMatchObject({ mmap: "131072", trim: "131072" });
  });

  it("leaves glibc's defaults on PostgreSQL, and keeps values the environment sets", () => {
    expect(startedWith({ DATABASE_URL: "postgres://vigil@127.0.0.1:5432/vigil" })).toMatchObject({
      mmap: null,
      trim: null,
    });
    expect(startedWith({ MALLOC_MMAP_THRESHOLD_: "1048576" })).toMatchObject({ mmap: "1048576", trim: "131072" });
  });
});
