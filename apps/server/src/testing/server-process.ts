import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { findFreePort } from "./free-port.js";
import { testClientId } from "./test-app.js";

/**
 * The real server as its own process (`tsx src/server.ts`, exactly what `npm start` runs), for the tests that
 * need what `app.inject` cannot give: a process that can be killed mid-write, or two processes on one database.
 * Each server runs detached in its own process group, so a SIGKILL to the group stops tsx and the node process
 * it starts together, the way a crash or an OOM kill would.
 */

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
const serverDir = path.join(repoRoot, "apps", "server");
const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
/** A web folder that does not exist: `/` answers 503, and nothing depends on a web build being present. */
const noWebApp = path.join(tmpdir(), "vigil-reliability-tests-serve-no-web-app");

/** A request the server never answered: refused, reset or cut off mid-answer (the process died or was killed). */
export class ServerUnreachableError extends Error {
  /** False when the connection was refused: the request never reached a server, so it cannot have written. */
  readonly mayHaveReached: boolean;
  constructor(message: string, cause: Error) {
    super(message, { cause });
    this.mayHaveReached = (cause as NodeJS.ErrnoException).code !== "ECONNREFUSED";
  }
}

export type HttpAnswer = {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as in the inject-based tests
  json: () => any;
};

export type RequestOptions = {
  body?: unknown;
  /** An ID token, sent as `Authorization: Bearer …`. */
  token?: string;
  ifMatch?: string | number;
  headers?: Record<string, string>;
  timeoutMs?: number;
};

export type ServerProcess = {
  label: string;
  port: number;
  baseUrl: string;
  /** The process group (tsx's pid). */
  pid: number;
  request: (method: string, url: string, options?: RequestOptions) => Promise<HttpAnswer>;
  /** `POST /cognito` with the Cognito JSON protocol, as Amplify sends it. */
  cognito: (operation: string, body: unknown, headers?: Record<string, string>) => Promise<HttpAnswer>;
  /** USER_PASSWORD_AUTH; throws with the answer when the sign-in does not end with tokens. */
  signIn: (
    username: string,
    password: string,
    headers?: Record<string, string>,
  ) => Promise<{ idToken: string; accessToken: string; refreshToken: string }>;
  /** SIGKILL to the whole group, then waits until every process of it is gone. */
  kill: () => Promise<void>;
  /** SIGTERM to the app (its graceful stop), SIGKILL after `timeoutMs`; the exit code, or null when killed. */
  stop: (timeoutMs?: number) => Promise<number | null>;
  /** The last lines the server printed, for failure messages. */
  logTail: (lines?: number) => string;
};

const started = new Set<ServerProcess>();

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Starts the server and waits until `GET /api/health` answers 200 (the database is open and migrated). `env`
 * adds to a minimal environment: PORT, HOST, PUBLIC_URL (overridable: instances behind one address share it,
 * since the token issuer derives from it), SEED=none, LOG_LEVEL=warn and no web app (no dependency on a web build
 * other work may be rewriting). Pass DATA_DIR or DATABASE_URL.
 */
export async function startServer(options: {
  label: string;
  env: Record<string, string>;
  /** A fixed port, so a restarted server keeps its address (and PUBLIC_URL, the issuer of tokens it signed). */
  port?: number;
  readyTimeoutMs?: number;
}): Promise<ServerProcess> {
  const port = options.port ?? (await findFreePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  // Only what tsx and node need from this process: the test runner's own variables (NODE_OPTIONS, DATABASE_URL,
  // VITEST_*) must not leak into the server.
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "TZ", "LANG", "LC_ALL"].flatMap((name) =>
      process.env[name] === undefined ? [] : [[name, process.env[name] as string]],
    ),
  );
  const child = spawn(tsx, ["src/server.ts"], {
    cwd: serverDir,
    env: {
      ...inherited,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseUrl,
      SEED: "none",
      LOG_LEVEL: "warn",
      RELEASE_ID: "reliability-test",
      WEB_DIST_DIR: noWebApp,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const pid = child.pid;
  if (!pid) throw new Error(`${options.label} could not be started.`);
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (log.length > 400) log.splice(0, log.length - 400);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exitedPromise = new Promise<void>((resolve) => {
    child.once("exit", (code, signal) => {
      exit = { code, signal };
      resolve();
    });
  });
  // One connection pool per process: after a kill, no request may travel on a socket of the dead server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const logTail = (lines = 40) =>
    [
      `--- last lines of ${options.label} (pid ${pid}${exit ? `, exited ${exit.code ?? exit.signal}` : ""}) ---`,
      ...log.slice(-lines),
    ].join("\n");

  const request = (method: string, url: string, requestOptions: RequestOptions = {}) =>
    httpRequest(agent, baseUrl, method, url, requestOptions);
  const cognito = (operation: string, body: unknown, headers: Record<string, string> = {}) =>
    request("POST", "/cognito", {
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": `AWSCognitoIdentityProviderService.${operation}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });

  const finish = () => {
    agent.destroy();
    started.delete(server);
  };
  const server: ServerProcess = {
    label: options.label,
    port,
    baseUrl,
    pid,
    request,
    cognito,
    signIn: async (username, password, headers = {}) => {
      const answer = await cognito(
        "InitiateAuth",
        {
          AuthFlow: "USER_PASSWORD_AUTH",
          ClientId: testClientId,
          AuthParameters: { USERNAME: username, PASSWORD: password },
        },
        headers,
      );
      const result = answer.status === 200 ? answer.json().AuthenticationResult : undefined;
      if (!result)
        throw new Error(`sign-in of ${username} on ${options.label} failed: ${answer.status} ${answer.body}`);
      return { idToken: result.IdToken, accessToken: result.AccessToken, refreshToken: result.RefreshToken };
    },
    kill: async () => {
      signalGroup(pid, "SIGKILL");
      await waitForGroupGone(pid, child, exitedPromise);
      finish();
    },
    stop: async (timeoutMs = 30_000) => {
      if (!exit) {
        // The signal goes to the app's own node process, not to the group: tsx, given a signal that reached the
        // whole group (Ctrl-C in a terminal, systemd's KillMode=control-group), often misses the app's "got it",
        // relays the signal again, exits 143 however the app ended and, when the app takes more than ~30 ms to
        // close (PGlite), SIGKILLs it mid-shutdown. This stop tests the server's shutdown, not that race.
        const app = groupMembers(pid).find((member) => parentOf(member) === pid);
        try {
          process.kill(app ?? pid, "SIGTERM");
        } catch {
          // It ended on its own meanwhile; its exit is awaited below all the same.
        }
        const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), timeoutMs);
        await exitedPromise;
        clearTimeout(timer);
      }
      await waitForGroupGone(pid, child, exitedPromise);
      finish();
      return exit?.code ?? null;
    },
    logTail,
  };
  started.add(server);

  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    if (exit) {
      await server.kill();
      throw new Error(`${options.label} exited before answering.\n${logTail()}`);
    }
    const health = await request("GET", "/api/health", { timeoutMs: 5_000 }).catch(() => undefined);
    if (health?.status === 200) return server;
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`${options.label} did not answer GET /api/health within the time allowed.\n${logTail()}`);
    }
    await sleep(200);
  }
}

/** Every server this file started that is still running, killed: for afterAll, so a failed test leaves none. */
export async function killAllServers(): Promise<void> {
  await Promise.all([...started].map((server) => server.kill()));
}

// The last resort when the test process ends without its afterAll. The servers run in groups of their own, so
// neither a signal to the runner's group (Ctrl-C) nor the end of this process reaches them by itself: kill them,
// then let the signal do what it would have done.
const killStarted = () => {
  for (const server of started) signalGroup(server.pid, "SIGKILL");
};
process.once("exit", killStarted);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    killStarted();
    process.kill(process.pid, signal);
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/**
 * Waits until no process of the group is left, zombies included. The app's node process is tsx's child: killed
 * with it, it is orphaned and reaped by init, which may take a second or two, and until then its pid still
 * answers `kill(pid, 0)`, so the PGlite folder lock would rightly call the folder in use. A crashed process is
 * over once it is reaped (a supervisor restarting it has reaped it first), so the restart waits for that.
 */
async function waitForGroupGone(pid: number, child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    await Promise.race([exited, sleep(30_000)]);
  }
  const deadline = Date.now() + 30_000;
  while (groupMembers(pid).length > 0) {
    if (Date.now() > deadline) throw new Error(`process group ${pid} is still there: ${groupMembers(pid)}`);
    await sleep(50);
  }
}

/** Processes whose group is `pgid`, zombies included (Linux /proc; elsewhere, only the leader is known). */
function groupMembers(pgid: number): number[] {
  if (!existsSync("/proc/self/stat")) {
    try {
      process.kill(pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const members: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ')'.
      const [, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid) members.push(Number(entry));
    } catch {
      // The process ended while being read.
    }
  }
  return members;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

function httpRequest(
  agent: http.Agent,
  baseUrl: string,
  method: string,
  url: string,
  options: RequestOptions,
): Promise<HttpAnswer> {
  const payload =
    options.body === undefined
      ? undefined
      : typeof options.body === "string"
        ? options.body
        : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(payload !== undefined && typeof options.body !== "string" ? { "content-type": "application/json" } : {}),
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(options.ifMatch === undefined ? {} : { "if-match": String(options.ifMatch) }),
    ...options.headers,
  };
  if (payload !== undefined) headers["content-length"] = String(Buffer.byteLength(payload));
  return new Promise((resolve, reject) => {
    const unreachable = (error: Error) =>
      reject(new ServerUnreachableError(`${method} ${url} got no answer: ${error.message}`, error));
    const req = http.request(new URL(url, baseUrl), { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      // A body cut off by the server's death is no answer: without it, there is nothing to check the write by.
      response.on("aborted", () => unreachable(new Error("the answer was cut off")));
      response.on("error", unreachable);
      response.on("end", () => {
        if (!response.complete) return unreachable(new Error("the answer was cut off"));
        const body = Buffer.concat(chunks).toString("utf8");
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          json: () => JSON.parse(body),
        });
      });
    });
    let timedOut = false;
    req.setTimeout(options.timeoutMs ?? 60_000, () => {
      timedOut = true;
      req.destroy();
    });
    // A live server that does not answer in time is a failure of its own, not a crash to be tolerated.
    req.on("error", (error) =>
      timedOut ? reject(new Error(`${method} ${url} got no answer in time`)) : unreachable(error),
    );
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
