import { spawn } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { repoRoot, resultsDir } from "./environment.js";
import { findFreePort } from "./global-setup.js";
import { stopServer } from "./stop-server.js";

export type OwnServer<T> = {
  baseURL: string;
  /** The identity service's client id (GET /api/config). */
  userPoolClientId: string;
  /** What `prepare` made before the server started (users, with their temporary passwords). */
  prepared: T;
  stop: () => Promise<void>;
};

/**
 * A Vigil of a spec's own, for journeys that need another configuration than the shared server's (as
 * support/federation-environment.ts does for federation): a fresh embedded database in a temporary folder, what
 * `prepare` puts into it while no server holds it (the `users` command), then the server with `settings` on a
 * free port. Its log goes to .test-results/e2e-<name>-server.log.
 */
export async function startOwnServer<T>(
  name: string,
  settings: Record<string, string>,
  prepare: (env: NodeJS.ProcessEnv, dataDir: string) => Promise<T>,
): Promise<OwnServer<T>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `vigil-e2e-${name}-`));
  let pid: number | undefined;
  const stop = async () => {
    if (pid) await stopServer(pid);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const port = await findFreePort();
    const baseURL = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: baseURL,
      SEED: "none",
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
      ...settings,
    };
    delete env.DATABASE_URL;
    const prepared = await prepare(env, dataDir);

    mkdirSync(resultsDir, { recursive: true });
    const log = path.join(resultsDir, `e2e-${name}-server.log`);
    const logFd = openSync(log, "w");
    // tsx directly, detached, so that stopping its process group stops node too (as global setup does).
    const server = spawn(path.join(repoRoot, "node_modules", ".bin", "tsx"), ["src/server.ts"], {
      cwd: path.join(repoRoot, "apps", "server"),
      env,
      stdio: ["ignore", logFd, logFd],
      detached: true,
    });
    closeSync(logFd);
    server.unref();
    pid = server.pid;
    if (!pid) throw new Error(`The ${name} server could not be started.`);
    let exited: number | null | undefined;
    server.once("exit", (code) => {
      exited = code;
    });
    const userPoolClientId = await waitForConfig(baseURL, () => exited, log);
    return { baseURL, userPoolClientId, prepared, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls `GET /api/config` until the server answers it (it is then healthy), or the process exits. */
async function waitForConfig(baseURL: string, exitCode: () => number | null | undefined, log: string) {
  const deadline = Date.now() + 90_000;
  let problem = "no answer yet";
  while (Date.now() < deadline) {
    if (exitCode() !== undefined) {
      throw new Error(`The server exited (code ${exitCode()}) before it answered. Its log:\n${tail(log)}`);
    }
    try {
      const response = await fetch(`${baseURL}/api/config`, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) {
        const config = (await response.json()) as { data?: { identity?: { userPoolClientId?: string } } };
        const clientId = config.data?.identity?.userPoolClientId;
        if (clientId) return clientId;
        problem = `GET /api/config gave no identity.userPoolClientId: ${JSON.stringify(config)}`;
      } else {
        problem = `GET /api/config answered ${response.status}`;
      }
    } catch (error) {
      problem = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseURL} did not answer within 90 s (${problem}). Its log:\n${tail(log)}`);
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}
