/**
 * Recognises a failed dynamic import: after a deploy the old hashed chunks are gone, and the fix is a reload.
 * Vite reports its own failures through `vite:preloadError`; browsers word native import failures differently.
 */
const reportedByVite = new WeakSet<object>();

const messagePatterns = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's CSS preload
];

/** Registers the Vite listener once; the error itself still rejects the import and reaches the route boundary. */
export function listenForChunkLoadErrors(target: Window = window): () => void {
  const onPreloadError = (event: WindowEventMap["vite:preloadError"]) => {
    if (typeof event.payload === "object" && event.payload !== null) reportedByVite.add(event.payload);
  };
  target.addEventListener("vite:preloadError", onPreloadError);
  return () => target.removeEventListener("vite:preloadError", onPreloadError);
}

export function isChunkLoadError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if (reportedByVite.has(error)) return true;
  const message = error instanceof Error ? error.message : String((error as { message?: unknown }).message ?? "");
  return messagePatterns.some((pattern) => pattern.test(message));
}
