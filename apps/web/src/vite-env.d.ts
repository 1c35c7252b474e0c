/// <reference types="vite/client" />

/** The id of this bundle's build, compiled in by vite.config.ts; `/build.json` carries the same value. */
declare const __BUILD_ID__: string;

interface WindowEventMap {
  // Vite dispatches this when a lazily loaded chunk (or its CSS) fails to load; `payload` is the error.
  "vite:preloadError": Event & { payload?: unknown };
}
