import { vi } from "vitest";

/**
 * jsdom has no layout engine; answer media queries as a desktop (`wide`: every `min-width` query matches, so the
 * permanent drawer shows) or a phone would.
 */
export function emulateScreen(wide: boolean): void {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: wide && /min-width/.test(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}
