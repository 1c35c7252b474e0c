import type { BugContext } from "@vigil/contract";
import { bundledBuildId } from "../../lib/build-check";
import { getEnochState } from "../../lib/enoch-tracker";

/** The schema's limits, so a very long address or browser string never makes the report itself invalid. */
const maxPageUrl = 2048;
const maxUserAgent = 1000;

function wholeNonNegative(value: number | undefined): number {
  return Number.isFinite(value) && (value as number) > 0 ? Math.round(value as number) : 0;
}

/**
 * What a bug report carries without the user typing it: where they are (the full address, hash route included),
 * their browser, screen and window, and which release they run — the last `enoch` the API answered with and the
 * build id compiled into this bundle. Read at the moment it is called.
 */
export function captureBugContext(): BugContext {
  const ratio = window.devicePixelRatio;
  return {
    pageUrl: window.location.href.slice(0, maxPageUrl),
    userAgent: navigator.userAgent.slice(0, maxUserAgent),
    screen: {
      width: wholeNonNegative(window.screen?.width),
      height: wholeNonNegative(window.screen?.height),
      ...(Number.isFinite(ratio) && ratio > 0 && ratio <= 16 ? { devicePixelRatio: ratio } : {}),
    },
    viewport: { width: wholeNonNegative(window.innerWidth), height: wholeNonNegative(window.innerHeight) },
    appVersion: { enoch: getEnochState().latest, buildId: bundledBuildId || null },
  };
}
