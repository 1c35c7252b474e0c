import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { fullDatabaseUrl, pgliteDataDir, pgliteMeasured, smallDatabaseUrl } from "./config.js";
import { generateData } from "./generate-data.js";
import { runBench } from "./run.js";

/**
 * `npm run bench`: generates the data when it is missing (or BENCH_REGENERATE=1), then the plan check, the load
 * runs and the report (run.ts). Not part of `npm test` or CI: it takes about a quarter of an hour and the machine.
 */

async function hasCases(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query("select exists (select 1 from cases) as present");
    return Boolean((rows[0] as { present: boolean }).present);
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const regenerate = process.env.BENCH_REGENERATE === "1";
  const full = !regenerate && (await hasCases(fullDatabaseUrl));
  const tenth =
    !regenerate &&
    (await hasCases(smallDatabaseUrl)) &&
    (!pgliteMeasured || existsSync(path.join(pgliteDataDir, "pglite", "PG_VERSION")));
  if (!full || !tenth) await generateData(full ? "tenth" : tenth ? "full" : undefined);
  await runBench();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
