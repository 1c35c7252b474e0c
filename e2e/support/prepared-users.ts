import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { repoRoot } from "./environment.js";

const run = promisify(execFile);

/**
 * Users some journeys need in a state no product path creates, made before the server starts (the embedded
 * database admits one process at a time): created with the `users` command like any administrator-made user
 * (FORCE_CHANGE_PASSWORD, temporary password printed once), then one column changed in the database, as the
 * server's own identity tests do with `setUser`.
 */
export type PreparedUserSpec = {
  username: string;
  name: string;
  email: string;
  phone?: string;
  groups: string[];
  /** What is changed in the database after the command made the user. */
  adjust?: {
    /** A blank name: the first sign-in asks for it (NEW_PASSWORD_REQUIRED's `requiredAttributes`). */
    blankName?: true;
    /** SMS MFA on (no administrator path turns it on for a user who never signed in; see the e2e report). */
    smsMfa?: true;
  };
};

export type PreparedUser = Omit<PreparedUserSpec, "adjust"> & { password: string };

/** The prepared users of the shared server (global setup), by the key specs use. */
export const preparedUserSpecs = {
  /** Sequence 1 with a required attribute missing. */
  nameless: {
    username: "e2e-nameless",
    name: "Nameless (blanked)",
    email: "e2e-nameless@vigil.example",
    groups: ["coordinator"],
    adjust: { blankName: true },
  },
  /** Sequence 2: SMS MFA on before the first sign-in. */
  smsNewcomer: {
    username: "e2e-sms-newcomer",
    name: "Sasha Texter",
    email: "e2e-sms-newcomer@vigil.example",
    phone: "+15555550142",
    groups: ["coordinator"],
    adjust: { smsMfa: true },
  },
} as const satisfies Record<string, PreparedUserSpec>;

export type PreparedUserKey = keyof typeof preparedUserSpecs;

/** Creates each user with the `users` command, then applies the adjustments; the server must not be running. */
export async function prepareUsers<K extends string>(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  specs: Record<K, PreparedUserSpec>,
): Promise<Record<K, PreparedUser>> {
  const prepared = {} as Record<K, PreparedUser>;
  for (const [key, spec] of Object.entries(specs) as [K, PreparedUserSpec][]) {
    const { adjust: _adjust, ...user } = spec;
    prepared[key] = { ...user, password: await createUserWithCommand(env, spec) };
  }
  const adjusted = Object.values<PreparedUserSpec>(specs).filter((spec) => spec.adjust);
  if (adjusted.length > 0) await adjustUsers(dataDir, adjusted);
  return prepared;
}

/**
 * The `users` command (`npm run users -- create …`), run with tsx directly as the server is, which spares npm's
 * start-up: the temporary password it prints once.
 */
export async function createUserWithCommand(env: NodeJS.ProcessEnv, user: PreparedUserSpec): Promise<string> {
  const args = ["src/identity/users-command.ts", "create", "--username", user.username];
  args.push("--email", user.email, "--name", user.name);
  if (user.groups.length > 0) args.push("--groups", user.groups.join(","));
  if (user.phone) args.push("--phone", user.phone);
  let output: string;
  try {
    const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
    output = (await run(tsx, args, { cwd: path.join(repoRoot, "apps", "server"), env })).stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`users ${args.slice(1).join(" ")}\` failed: ${failure.message}\n${failure.stdout}\n${failure.stderr}`,
    );
  }
  const password = /Temporary password: (\S+)/.exec(output)?.[1];
  if (!password) throw new Error(`The users command printed no temporary password:\n${output}`);
  return password;
}

/** The adjustments, in the embedded database the server will open (`DATA_DIR/pglite`). */
async function adjustUsers(dataDir: string, specs: PreparedUserSpec[]): Promise<void> {
  const database = await PGlite.create({ dataDir: path.join(dataDir, "pglite") });
  try {
    for (const spec of specs) {
      const changes: string[] = [];
      if (spec.adjust?.blankName) changes.push("name = ''");
      if (spec.adjust?.smsMfa) changes.push("sms_mfa_enabled = true");
      const result = await database.query(`update users set ${changes.join(", ")} where username_key = $1`, [
        spec.username.toLowerCase(),
      ]);
      if (result.affectedRows !== 1) throw new Error(`Could not adjust ${spec.username} in ${dataDir}.`);
    }
  } finally {
    await database.close();
  }
}
