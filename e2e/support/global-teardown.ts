import { existsSync, readFileSync, rmSync } from "node:fs";
import type { E2eState } from "./environment.js";
import { stateVariable } from "./environment.js";
import { stopServer } from "./stop-server.js";

/** Stops the server and deletes its data folder; the server log stays in .test-results/e2e-server.log. */
export default async function globalTeardown(): Promise<void> {
  const file = process.env[stateVariable];
  if (!file || !existsSync(file)) return;
  const state = JSON.parse(readFileSync(file, "utf8")) as Pick<E2eState, "serverPid" | "dataDir">;
  await stopServer(state.serverPid);
  rmSync(state.dataDir, { recursive: true, force: true });
}
