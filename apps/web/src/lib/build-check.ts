import { type BuildInfo, buildInfoSchema } from "@vigil/contract";
import { buildCheckIntervalMs, buildInfoUrl } from "../config/constants";
import { createStore, useStore } from "./store";

/** The build this bundle came from; `development` under `vite dev`, where there is nothing to compare with. */
export const bundledBuildId: string = __BUILD_ID__;

const updatePending = createStore(false);

/** `/build.json` is a static file (no envelope, no token); it must bypass every cache to be useful. */
export async function fetchBuildInfo(fetchImpl: typeof fetch = fetch): Promise<BuildInfo | null> {
  try {
    const response = await fetchImpl(buildInfoUrl, { cache: "no-store", headers: { Accept: "application/json" } });
    if (!response.ok) return null;
    const parsed = buildInfoSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Asks once; marks an update as pending when the deployed build is not this bundle's. */
export async function checkForNewBuild(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const info = await fetchBuildInfo(fetchImpl);
  if (info && info.buildId !== bundledBuildId) updatePending.set(true);
  return updatePending.get();
}

export function isBuildUpdatePending(): boolean {
  return updatePending.get();
}

export function useBuildUpdatePending(): boolean {
  return useStore(updatePending);
}

/** Forget a pending update (tests; in the browser the reload starts a fresh module state). */
export function clearBuildUpdate(): void {
  updatePending.set(false);
}

/** Polls every 5 minutes and whenever the window regains focus (a user back from lunch gets the new build). */
export function startBuildChecks(options: { intervalMs?: number; fetchImpl?: typeof fetch } = {}): () => void {
  if (bundledBuildId === "development") return () => {};
  const check = () => void checkForNewBuild(options.fetchImpl);
  const timer = window.setInterval(check, options.intervalMs ?? buildCheckIntervalMs);
  window.addEventListener("focus", check);
  return () => {
    window.clearInterval(timer);
    window.removeEventListener("focus", check);
  };
}
