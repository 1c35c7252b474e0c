import { findPage } from "@vigil/contract";
import { reloadGuardWindowMs } from "../config/constants";

const keyPrefix = "vigil:reload:";

/**
 * Claims the right to reload `path` now: at most once per path per 10 s (spec §4). The claim lives in
 * sessionStorage, which survives the reload itself, so a chunk that keeps failing ends on the error page instead
 * of reloading forever.
 */
export function claimReload(path: string, now: number = Date.now(), storage: Storage = window.sessionStorage): boolean {
  const key = `${keyPrefix}${storageKeyOf(path)}`;
  try {
    const last = Number(storage.getItem(key));
    if (Number.isFinite(last) && last > 0 && now - last < reloadGuardWindowMs) return false;
    storage.setItem(key, String(now));
    return true;
  } catch {
    // Storage can be unavailable (privacy modes); without a guard a reload loop is possible, so do not reload.
    return false;
  }
}

/**
 * What the claim is stored under: the path itself, except on a page whose address carries a one-time link's token
 * (`/acknowledge/:token`, `/report/:token`), which is stored under its pattern so the token never reaches storage.
 */
function storageKeyOf(path: string): string {
  const found = findPage(path);
  return found && "token" in found.params ? found.page.path : path;
}

/** The route path inside the hash (`#/bugs?x=1` → `/bugs`), which is what "per path" means in a hash-routed app. */
export function currentRoutePath(): string {
  const hash = window.location.hash.replace(/^#/, "");
  const path = hash.split(/[?#]/, 1)[0] ?? "";
  return path.startsWith("/") ? path : "/";
}

let reloading = false;

/** The one place the page reloads; tests swap `reload` because jsdom cannot navigate. */
export const pageReloader = { reload: () => window.location.reload() };

/** Reloads the page unless the guard refuses; returns whether a reload is under way. */
export function reloadOnce(path: string = currentRoutePath()): boolean {
  if (reloading) return true;
  if (!claimReload(path)) return false;
  reloading = true;
  pageReloader.reload();
  return true;
}

/** Forget an in-flight reload (tests only: in the browser the page is gone by then). */
export function resetReloadState(): void {
  reloading = false;
}
