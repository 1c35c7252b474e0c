import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { describeRestore, restoreDatabase } from "./backup.js";
import { backupSourceOf, isExpectedFailure } from "./backup-format.js";

const usage = `Usage: npm run db:restore -- <file> [--force]

Restores a backup made by db:backup into the database the server is configured with (see docs/operations.md,
"Backups and restore"). Stop every Vigil server using that database first.
  DATABASE_URL set  pg_restore --clean --if-exists --no-owner of a .dump into that (existing) database
  otherwise         a .tar.gz into DATA_DIR/pglite
A database that already holds data is replaced only with --force (PGlite keeps the replaced folder aside as
DATA_DIR/pglite.before-restore-<timestamp>). A backup older than this release is migrated forward, as the
server does at start; one made by a newer release is refused. Prints the restored tables and their rows.`;

async function main(argv: string[]): Promise<number> {
  let parsed: { values: { force?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { force: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    return 0;
  }
  if (positionals.length !== 1) {
    console.error(`Name one backup file to restore.\n\n${usage}`);
    return 2;
  }
  const config = loadConfig();
  // npm runs the script in the workspace folder; a relative file means the folder the command was typed in.
  const file = path.resolve(config.workingDir, positionals[0] as string);
  const result = await restoreDatabase(backupSourceOf(config), file, { force: values.force ?? false });
  console.log(describeRestore(result));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(isExpectedFailure(error) ? `Restore failed: ${error.message}` : error);
    process.exit(1);
  },
);
