import { parseArgs } from "node:util";
import { accessGroupSchema } from "@vigil/contract";
import { z } from "zod";
import { ConfigError, loadConfig } from "../config.js";
import { openConfiguredDatabase } from "../db/client.js";
import { FolderLockedError } from "../db/folder-lock.js";
import { AppError } from "../errors/app-error.js";
import { createUser, listAllUsers } from "./user-directory.js";

const usage = `Usage:
  npm run users -- create --username <name> --email <address> --name "<full name>" [--groups admin,coordinator] [--phone +15555550100]
  npm run users -- list

create  makes a user with a generated temporary password (printed once). At first sign-in they must choose
        their own (FORCE_CHANGE_PASSWORD); the temporary password expires after 7 days.
list    prints every user with status and groups.

Uses the same configuration as the server (DATABASE_URL, or DATA_DIR for the embedded database, which must
not be open in a running server at the same time).`;

const createArgumentsSchema = z.object({
  username: z
    .string()
    .trim()
    .min(1, "--username is required")
    .max(128)
    .regex(/^\S+$/, "--username may not contain spaces"),
  email: z.email("--email must be an email address"),
  name: z.string().trim().min(1, "--name is required").max(200),
  groups: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((group) => group.trim())
        .filter(Boolean),
    )
    .pipe(z.array(accessGroupSchema)),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{6,14}$/, "--phone must be in E.164 form, e.g. +15555550100")
    .optional(),
});

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      groups: { type: "string" },
      phone: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || !command || !["create", "list"].includes(command)) {
    console.log(usage);
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    if (command === "list") {
      const { items, total } = await listAllUsers(database.db, { limit: 200, offset: 0 });
      for (const user of items) {
        console.log(
          [
            user.username.padEnd(20),
            user.status.padEnd(22),
            (user.isEnabled ? "enabled" : "disabled").padEnd(9),
            user.groups.join(",") || "(no groups)",
            user.email,
          ].join(" "),
        );
      }
      console.log(`${total} user(s)`);
      return 0;
    }
    const parsed = createArgumentsSchema.safeParse(values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) console.error(issue.message);
      console.error(`\n${usage}`);
      return 2;
    }
    const { user, temporaryPassword } = await createUser(
      database.db,
      {
        username: parsed.data.username,
        email: parsed.data.email,
        name: parsed.data.name,
        groups: parsed.data.groups,
        phoneNumber: parsed.data.phone,
      },
      { username: "command-line" },
    );
    console.log(`Created ${user.username} (${user.groups.join(", ") || "no groups"}).`);
    console.log(`Temporary password: ${temporaryPassword}`);
    console.log("It is shown only now. The user must choose a new password at first sign-in, within 7 days.");
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError || error instanceof FolderLockedError || error instanceof AppError) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  },
);
