import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { backupDatabase, describeBackup } from "./backup.js";
import { backupSourceOf, defaultBackupFile, isExpectedFailure } from "./backup-format.js";

const usage = `Usage: npm run db:backup [-- --out <file>]

Backs up the database the server is configured with (see docs/operations.md, "Backups and restore"):
  DATABASE_URL set  pg_dump --format=custom of that database (pg_dump must be on PATH), by default to
                    ./vigil-postgres-<UTC timestamp>.dump
  otherwise         the embedded database in DATA_DIR/pglite as a tar.gz, by default to
                    DATA_DIR/backups/vigil-pglite-<UTC timestamp>.tar.gz; the server must be stopped (the
                    data folder's lock refuses otherwise)
An existing file is never overwritten.`;

async function main(argv: string[]): Promise<number> {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { out: { type: "string", short: "o" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const config = loadConfig();
  const source = backupSourceOf(config);
  // npm runs the script in the workspace folder; a relative --out means the folder the command was typed in,
  // as config.ts resolves DATA_DIR.
  const { workingDir } = config;
  const file = values.out
    ? path.resolve(workingDir, values.out)
    : defaultBackupFile(source, { dataDir: config.dataDir, workingDir });
  console.log(describeBackup(await backupDatabase(source, file)));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(isExpectedFailure(error) ? `Backup failed: ${error.message}` : error);
    process.exit(1);
  },
);
