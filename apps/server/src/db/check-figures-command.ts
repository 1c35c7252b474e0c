import { loadConfig } from "../config.js";
import { compareBillableFigures } from "./billable-figures.js";
import { openConfiguredDatabase } from "./client.js";
import { compareConcurrentPeaks } from "./concurrent-peaks.js";

// `npm run db:check-figures`: recomputes the figures kept on write — the billable seconds, each time log's
// concurrent-patient peak — from the time logs and prints every row that differs (exit 1 if any). Read-only: a
// difference is for an operator to look into (and, once understood, to mend by restoring or recomputing), never
// silently rewritten.
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const figures = await compareBillableFigures(database.db);
  const peaks = await compareConcurrentPeaks(database.db);
  if (figures.length === 0 && peaks.length === 0) {
    console.log(`The kept billable figures and concurrent-patient peaks equal the time logs' (${database.engine}).`);
  } else {
    process.exitCode = 1;
  }
  if (figures.length > 0) {
    console.log(`${figures.length} kept billable figure(s) differ from the time logs (${database.engine}):`);
    console.log("table  key  kept  expected (client seconds logs continued | case client first last alone)");
    for (const difference of figures) {
      console.log(
        `${difference.table}  ${difference.key}  ${difference.kept ?? "(none)"}  ${difference.expected ?? "(none)"}`,
      );
    }
  }
  if (peaks.length > 0) {
    console.log(
      `${peaks.length} kept concurrent-patient peak(s) differ from a count of the logs (${database.engine}):`,
    );
    console.log("time log  kept  expected");
    for (const difference of peaks) {
      console.log(`${difference.recordId}  ${difference.kept ?? "(none)"}  ${difference.expected ?? "(none)"}`);
    }
  }
} finally {
  await database.close();
}
