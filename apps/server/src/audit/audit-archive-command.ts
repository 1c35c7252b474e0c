import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { openConfiguredDatabase } from "../db/client.js";
import { pruneAuditEvents } from "./audit-retention.js";

const usage = `Usage: npm run audit:archive

Archives and deletes the audit events older than AUDIT_RETENTION_DAYS (default 2190, six years), as every running
server does once a day (see docs/operations.md, "Audit log retention"): each batch is written to AUDIT_ARCHIVE_DIR
(default DATA_DIR/audit-archive) as audit-<first>-to-<last>-<id>.ndjson.gz, flushed to disk, and only then deleted.
With the embedded database the server must be stopped (the data folder's lock refuses otherwise).`;

async function main(argv: string[]): Promise<number> {
  let values: { help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const result = await pruneAuditEvents(database.db, config.audit);
    if (result.skipped) {
      console.log("Another instance is pruning the audit log right now; nothing was done.");
    } else {
      console.log(
        `Archived and deleted ${result.archived} audit event(s) from before ${result.cutoff.toISOString()}` +
          (result.files.length > 0 ? ` into:\n  ${result.files.join("\n  ")}` : "."),
      );
    }
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
