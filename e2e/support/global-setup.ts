import { execFile, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  type Credential,
  chromiumPath,
  type E2eState,
  repoRoot,
  resultsDir,
  stateVariable,
  webDistIndex,
} from "./environment.js";
import { preparedUserSpecs, prepareUsers } from "./prepared-users.js";
import { stopServer } from "./stop-server.js";

const run = promisify(execFile);

/**
 * Prepares one real Vigil for the whole run: the built web app, a fresh embedded database seeded with the demo
 * users plus two users made with the `users` command, and the server listening on a free port. Everything
 * the specs need goes into a state file whose path travels in VIGIL_E2E_STATE.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium was not found at ${chromiumPath}. Install Debian's build with \`apt-get update && apt-get install -y chromium\` ` +
        "(browsers cannot be downloaded by Playwright here), or set CHROMIUM_PATH.",
    );
  }
  await buildWebAppIfNeeded();

  const dataDir = mkdtempSync(path.join(tmpdir(), "vigil-e2e-"));
  const port = await findFreePort();
  const hl7Port = await findFreePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // The server's own variables only: a DATABASE_URL in the caller's environment must not redirect the e2e run.
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    HL7_MLLP_PORT: String(hl7Port),
    HL7_MLLP_HOST: "127.0.0.1",
    PUBLIC_URL: baseURL,
    SEED: "none",
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
    // Clock alerts reach their owners within seconds of a clock turning overdue, not the default 30 s.
    WATCH_ALERT_SWEEP_SECONDS: "2",
  };
  delete serverEnv.DATABASE_URL;

  // The seed and the users command open the same PGlite folder, so they run one after another and before the server.
  let users: Record<string, Credential>;
  let userWithoutGroup: Credential;
  let userWithTemporaryPassword: Credential;
  let preparedUsers: E2eState["preparedUsers"];
  try {
    await npm(["run", "db:seed", "-w", "@vigil/server"], serverEnv);
    users = readDemoCredentials(path.join(dataDir, "demo-credentials.txt"));
    userWithoutGroup = await createUserWithCommand(serverEnv, {
      username: "e2e-no-group",
      name: "Noah Nogroup",
      groups: [],
    });
    userWithTemporaryPassword = await createUserWithCommand(serverEnv, {
      username: "e2e-newcomer",
      name: "Nico Newcomer",
      groups: ["coordinator"],
    });
    preparedUsers = await prepareUsers(serverEnv, dataDir, preparedUserSpecs);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }

  mkdirSync(resultsDir, { recursive: true });
  const serverLog = path.join(resultsDir, "e2e-server.log");
  const logFd = openSync(serverLog, "w");
  // tsx directly (not `npm start`) so SIGTERM reaches the server itself; detached so the teardown can stop
  // the whole process group.
  const server = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["src/server.ts"], {
    cwd: path.join(repoRoot, "apps", "server"),
    env: serverEnv,
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  server.unref();
  if (!server.pid) throw new Error("The server process could not be started.");

  const stateFile = path.join(dataDir, "e2e-state.json");
  const state: Omit<E2eState, "userPoolClientId"> = {
    baseURL,
    port,
    hl7Port,
    serverPid: server.pid,
    dataDir,
    serverLog,
    users,
    userWithoutGroup,
    userWithTemporaryPassword,
    preparedUsers,
  };
  // Written before waiting, so that the teardown can stop the server even when it never becomes healthy.
  writeFileSync(stateFile, JSON.stringify(state, null, 2));
  process.env[stateVariable] = stateFile;

  let exited: number | null | undefined;
  server.once("exit", (code) => {
    exited = code;
  });
  try {
    await waitForHealth(baseURL, () => exited, serverLog);
    const configResponse = await fetch(`${baseURL}/api/config`);
    const config = (await configResponse.json()) as { data?: { identity?: { userPoolClientId?: string } } };
    const userPoolClientId = config.data?.identity?.userPoolClientId;
    if (!userPoolClientId)
      throw new Error(`GET /api/config gave no identity.userPoolClientId: ${JSON.stringify(config)}`);
    // The group-less user is about groups, not passwords: their first password change happens here, through
    // the same Cognito protocol the Authenticator speaks, so the spec signs in straight to the outcome.
    const permanentPassword = "e2e-no-group-permanent-pw";
    await replaceTemporaryPassword(baseURL, userPoolClientId, userWithoutGroup, permanentPassword);
    const finalState: E2eState = {
      ...state,
      userPoolClientId,
      userWithoutGroup: { ...userWithoutGroup, password: permanentPassword },
    };
    writeFileSync(stateFile, JSON.stringify(finalState, null, 2));
  } catch (error) {
    // A failed global setup may not be followed by the teardown: stop the server and drop the folder here.
    await stopServer(server.pid);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

async function npm(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await run("npm", args, { cwd: repoRoot, env, maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `\`npm ${args.join(" ")}\` failed: ${failure.message}\n${failure.stdout ?? ""}\n${failure.stderr ?? ""}`,
    );
  }
}

/**
 * Rebuilds when asked (E2E_BUILD=1), when there is no build, or when a web or contract source is newer than it;
 * E2E_BUILD=0 uses the existing build as it is (web sources in the middle of an edit elsewhere).
 */
async function buildWebAppIfNeeded(): Promise<void> {
  if (process.env.E2E_BUILD === "0" && existsSync(webDistIndex)) return;
  const reason =
    process.env.E2E_BUILD === "1"
      ? "E2E_BUILD=1"
      : !existsSync(webDistIndex)
        ? "apps/web/dist/index.html is missing"
        : newestSourceTime() > statSync(webDistIndex).mtimeMs
          ? "the web app's sources are newer than its build"
          : undefined;
  if (!reason) return;
  console.log(`Building the web app (${reason})…`);
  await npm(["run", "build", "-w", "@vigil/web"], process.env);
}

function newestSourceTime(): number {
  const roots = [
    path.join(repoRoot, "apps", "web", "src"),
    path.join(repoRoot, "apps", "web", "public"),
    path.join(repoRoot, "apps", "web", "index.html"),
    path.join(repoRoot, "apps", "web", "vite.config.ts"),
    path.join(repoRoot, "packages", "contract", "src"),
  ];
  let newest = 0;
  const visit = (entry: string) => {
    if (!existsSync(entry)) return;
    const stats = statSync(entry);
    if (stats.isDirectory()) {
      for (const child of readdirSync(entry)) visit(path.join(entry, child));
    } else if (!/\.test\.tsx?$/.test(entry)) {
      newest = Math.max(newest, stats.mtimeMs);
    }
  };
  for (const root of roots) visit(root);
  return newest;
}

export function readDemoCredentials(file: string): Record<string, Credential> {
  if (!existsSync(file)) throw new Error(`The seed wrote no ${file}.`);
  const users: Record<string, Credential> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [username, password, groups] = line.split("\t");
    if (!username || !password) throw new Error(`Unreadable line in ${file}: ${line}`);
    users[username] = { username, password, groups: groups ? groups.split(",").filter(Boolean) : [] };
  }
  for (const expected of ["admin", "coordinator"]) {
    if (!users[expected]) throw new Error(`The seed did not create the ${expected} user (${file}).`);
  }
  return users;
}

async function createUserWithCommand(
  env: NodeJS.ProcessEnv,
  user: { username: string; name: string; groups: string[] },
): Promise<Credential> {
  const args = ["run", "users", "-w", "@vigil/server", "--", "create", "--username", user.username];
  args.push("--email", `${user.username}@vigil.example`, "--name", user.name);
  if (user.groups.length > 0) args.push("--groups", user.groups.join(","));
  const output = await npm(args, env);
  const password = /Temporary password: (\S+)/.exec(output)?.[1];
  if (!password) throw new Error(`The users command printed no temporary password:\n${output}`);
  return { username: user.username, password, groups: user.groups };
}

async function callIdentityService(
  baseURL: string,
  operation: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseURL}/cognito`, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${operation} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Password sign-in, then the NEW_PASSWORD_REQUIRED challenge answered with a permanent password. */
async function replaceTemporaryPassword(
  baseURL: string,
  clientId: string,
  user: Credential,
  newPassword: string,
): Promise<void> {
  const started = await callIdentityService(baseURL, "InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: clientId,
    AuthParameters: { USERNAME: user.username, PASSWORD: user.password },
  });
  if (started.ChallengeName !== "NEW_PASSWORD_REQUIRED") {
    throw new Error(`Expected NEW_PASSWORD_REQUIRED for ${user.username}, got ${JSON.stringify(started)}`);
  }
  const finished = await callIdentityService(baseURL, "RespondToAuthChallenge", {
    ChallengeName: "NEW_PASSWORD_REQUIRED",
    ClientId: clientId,
    Session: started.Session,
    ChallengeResponses: { USERNAME: user.username, NEW_PASSWORD: newPassword },
  });
  if (!finished.AuthenticationResult) throw new Error(`No tokens after the new password: ${JSON.stringify(finished)}`);
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(
  baseURL: string,
  exitCode: () => number | null | undefined,
  serverLog: string,
): Promise<void> {
  const deadline = Date.now() + 90_000;
  let lastProblem = "no answer yet";
  while (Date.now() < deadline) {
    if (exitCode() !== undefined) {
      throw new Error(`The server exited (code ${exitCode()}) before it was healthy. Its log:\n${tail(serverLog)}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/health`);
      if (response.ok) return;
      lastProblem = `GET /api/health answered ${response.status}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `The server at ${baseURL} was not healthy within 90 s (${lastProblem}). Its log:\n${tail(serverLog)}`,
  );
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}
