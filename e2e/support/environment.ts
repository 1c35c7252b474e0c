import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Paths and the shared state file: written once by global setup, read by every spec and by the teardown. */
export const e2eRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const repoRoot = path.resolve(e2eRoot, "..");
export const resultsDir = path.join(repoRoot, ".test-results");
export const webDistIndex = path.join(repoRoot, "apps", "web", "dist", "index.html");

/** Debian's Chromium: Playwright's own browser downloads are impossible on these machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The environment variable that carries the state file's path from global setup to the workers (they inherit
 * the runner's environment) and to the teardown.
 */
export const stateVariable = "VIGIL_E2E_STATE";

export type Credential = { username: string; password: string; groups: string[] };

export type E2eState = {
  baseURL: string;
  port: number;
  /** The server's MLLP listener for HL7 v2 messages from hospitals (HL7_MLLP_PORT). */
  hl7Port?: number;
  serverPid: number;
  dataDir: string;
  serverLog: string;
  /** The identity service's client id (GET /api/config), for checks through POST /cognito. */
  userPoolClientId: string;
  /** Seeded users by username (admin, coordinator, …), each in the group of the same name. */
  users: Record<string, Credential>;
  /** Created with the CLI without any group: the app sends them to /unauthorized. */
  userWithoutGroup: Credential;
  /** Created with the CLI in FORCE_CHANGE_PASSWORD state; the password is the temporary one. */
  userWithTemporaryPassword: Credential;
  /**
   * Users made before the server started in a state no product path creates (support/prepared-users.ts), by key;
   * each still has its temporary password.
   */
  preparedUsers?: Record<string, PreparedUserCredential>;
};

export type PreparedUserCredential = Credential & { name: string; email: string; phone?: string };

export function readState(): E2eState {
  const file = process.env[stateVariable];
  if (!file || !existsSync(file)) {
    throw new Error(
      `The e2e state file is missing (${stateVariable}=${file ?? "unset"}); run the suite through playwright test.`,
    );
  }
  return JSON.parse(readFileSync(file, "utf8")) as E2eState;
}
