import { describe, expect, it } from "vitest";
import { isChunkLoadError, listenForChunkLoadErrors } from "./chunk-errors";

describe("chunk-load errors", () => {
  it("recognises the browsers' dynamic-import failures", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/home-1.js"))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("boom")).toBe(false);
  });

  it("recognises any error Vite reported through vite:preloadError", () => {
    const stop = listenForChunkLoadErrors();
    const error = new Error("something Vite-specific");
    const event = Object.assign(new Event("vite:preloadError", { cancelable: true }), { payload: error });
    window.dispatchEvent(event);
    stop();
    expect(isChunkLoadError(error)).toBe(true);
    // The event is not cancelled: the import still rejects and reaches the route's error boundary.
    expect(event.defaultPrevented).toBe(false);
  });
});
