import { loadConfig } from "../config.js";
import { compareBillableFigures } from "./billable-figures.js";
import { openConfiguredDatabase } from "./client.js";

// `npm run db:check-figures`: recomputes the billable figures kept on write from the time logs and prints every row
// that differs (exit 1 if any). Read-only: a difference is for an operator to look into (and, once understood, to
// mend by restoring or recomputing), never silently rewritten.
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  const differences = await compareBillableFigures(database.db);
  if (differences.length === 0) {
    console.log(`The kept billable figures equal the time logs' (${database.engine}).`);
  } else {
    console.log(`${differences.length} kept billable figure(s) differ from the time logs (${database.engine}):`);
    console.log("table  key  kept  expected (client seconds logs continued | case client first last alone)");
    for (const difference of differences) {
      console.log(
        `${difference.table}  ${difference.key}  ${difference.kept ?? "(none)"}  ${difference.expected ?? "(none)"}`,
      );
    }
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
