/** Base of every API path (PRODUCT.md §8); the server serves the app and the API on one origin. */
export const apiBaseUrl = "/api";

/** Written by the web build next to index.html (see build-info-plugin.ts). */
export const buildInfoUrl = "/build.json";

/** How often the app asks whether a newer build was deployed (the spec leaves the interval open). */
export const buildCheckIntervalMs = 5 * 60 * 1000;

/** Spec §4/§9: after a chunk-load failure, reload at most once per path in this window. */
export const reloadGuardWindowMs = 10_000;

/** Older alerts drop off so a flaky connection cannot grow the error list without bound. */
export const maxApiErrors = 5;

export const appName = "Vigil";

/** Spec §8: what the app shows when it cannot read the identity configuration. */
export const configurationErrorMessage = "Configuration error (see console) – please contact the administrator";
