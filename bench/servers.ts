import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../apps/server/src/db/client.js";
import { benchUser, fullDatabaseUrl, repoRoot } from "./config.js";
import { apiBase, type Fixtures } from "./endpoints.js";
import { type BenchProcess, log, serverStartCommand, startProcess } from "./processes.js";

/** The servers under measurement: built and started as production runs them, signed in to, and cleaned up after. */

const serverDir = path.join(repoRoot, "apps", "server");

/** Builds apps/server/dist/server.js from the sources in the tree (`npm run build -w @vigil/server`, ~1 s). */
export function buildServer(): void {
  execFileSync(process.execPath, ["build.mjs"], { cwd: serverDir, stdio: "inherit" });
}

async function startVigil(
  label: string,
  name: string,
  database: { url?: string; dataDir?: string },
  nodeFlags: readonly string[] = [],
) {
  // The servers stay up for the whole interleaved run: the ID token must outlast it (the default is an hour). Metrics
  // on, as operators run it: the paced runs read the server's own request-time histogram (server-latency.ts).
  const metricsToken = randomBytes(32).toString("hex");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SEED: "none",
    LOG_LEVEL: "warn",
    RELEASE_ID: "bench",
    ID_TOKEN_MINUTES: "600",
    METRICS_TOKEN: metricsToken,
  };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  if (database.url) env.DATABASE_URL = database.url;
  if (database.dataDir) env.DATA_DIR = database.dataDir;
  const start = serverStartCommand(serverDir);
  const server = await startProcess({
    label,
    name,
    cwd: serverDir,
    ...withNodeFlags(start, nodeFlags),
    env,
    ready: async (baseURL) => (await fetch(`${baseURL}/api/config`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
  return { ...server, metricsToken };
}

/**
 * The start command with V8/Node flags for node (start.sh places them before the server's script): a tool's (e.g.
 * `--trace-gc` for gc-stalls.ts), then any to try from SERVER_NODE_FLAGS
 * (`SERVER_NODE_FLAGS="--no-allocation-site-pretenuring" npm run bench`).
 */
function withNodeFlags(start: { command: string; args: string[] }, flags: readonly string[]) {
  const tried = (process.env.SERVER_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  return { command: start.command, args: [...start.args, ...flags, ...tried] };
}

/** The bare baseline, started, given to `body`, and stopped whatever `body` does. */
export async function withBaseline<T>(body: (server: BenchProcess) => Promise<T>): Promise<T> {
  log("starting the bare baseline");
  const server = await startBaseline();
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

export async function startBaseline() {
  return startProcess({
    label: "baseline",
    name: "bench-baseline",
    cwd: repoRoot,
    command: path.join(repoRoot, "node_modules", ".bin", "tsx"),
    args: ["bench/baseline-server.ts"],
    env: { ...process.env, DATABASE_URL: fullDatabaseUrl, LOG_LEVEL: "warn" },
    ready: async (baseURL) => (await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok,
  });
}

/** USER_PASSWORD_AUTH through the Cognito-compatible API, as the web app's Authenticator does: the ID token. */
export async function signIn(baseURL: string): Promise<string> {
  const config = (await (await fetch(`${baseURL}/api/config`)).json()) as {
    data: { identity: { userPoolClientId: string } };
  };
  const response = await fetch(`${baseURL}/cognito`, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
    },
    body: JSON.stringify({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: config.data.identity.userPoolClientId,
      AuthParameters: { USERNAME: benchUser.username, PASSWORD: benchUser.password },
    }),
  });
  const answer = (await response.json()) as { AuthenticationResult?: { IdToken?: string } };
  const token = answer.AuthenticationResult?.IdToken;
  if (!token)
    throw new Error(`Signing ${benchUser.username} in failed (${response.status}): ${JSON.stringify(answer)}`);
  return token;
}

/** Ids to spread the reads over, read through the API itself (PGlite's folder is held by the server). */
async function fixturesOf(baseURL: string, headers: Record<string, string>): Promise<Fixtures> {
  const get = async <T>(url: string): Promise<T> => {
    const response = await fetch(`${baseURL}${url}`, { headers });
    if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { data: T }).data;
  };
  const clients = await get<{ items: { id: string; openCaseCount: number }[] }>(
    `${apiBase}/clients?limit=200&status=active`,
  );
  const monitoring = await get<{ items: { id: string }[] }>(`${apiBase}/cases/monitoring?limit=200`);
  const now = new Date();
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return {
    clients: clients.items.map((client) => client.id),
    largestClients: [...clients.items]
      .sort((left, right) => right.openCaseCount - left.openCaseCount)
      .slice(0, 5)
      .map((client) => client.id),
    monitoringCases: monitoring.items.map((item) => item.id),
    month: previous.toISOString().slice(0, 7),
    today: now.toISOString().slice(0, 10),
  };
}

/** Statements running on a PostgreSQL database (the caller's own excepted). */
export function activeStatementsOn(url: string, database: string): () => Promise<number> {
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "select count(*)::int as active from pg_stat_activity where datname = $1 and state = 'active' and pid <> pg_backend_pid()",
        [database],
      );
      return (rows[0] as { active: number }).active;
    } finally {
      await client.end();
    }
  };
}

/** The bench's own patient-data reads leave audit rows; they are removed so every run starts from the same data. */
async function removeBenchAuditRows(target: { url?: string; dataDir?: string }): Promise<void> {
  const statement = `delete from audit_events where actor_username = '${benchUser.username}'`;
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    await client.query(statement);
    await client.end();
  } else if (target.dataDir) {
    const database = await openDatabase({ kind: "pglite", dataDir: target.dataDir });
    await (database.db as unknown as { $client: { exec: (sql: string) => Promise<unknown> } }).$client.exec(statement);
    await database.close();
  }
}

export async function withVigil<T>(
  label: string,
  name: string,
  target: { url?: string; dataDir?: string },
  body: (server: BenchProcess, token: string, fixtures: Fixtures) => Promise<T>,
  nodeFlags: readonly string[] = [],
): Promise<T> {
  log(`starting the server on ${label}`);
  const server = await startVigil(label, name, target, nodeFlags);
  try {
    const token = await signIn(server.baseURL);
    const fixtures = await fixturesOf(server.baseURL, { authorization: `Bearer ${token}` });
    return await body(server, token, fixtures);
  } finally {
    await server.stop();
    await removeBenchAuditRows(target);
  }
}
