import { type FederationEnvironment, startFederationEnvironment } from "./federation-environment.js";
import { test as base } from "./fixtures.js";

/**
 * `test` for the federated journeys: one Vigil with federated sign-in per worker (started on first use, stopped
 * with the worker), the base URL pointing at it, and HTTPS errors ignored for its throwaway certificate.
 */
export const test = base.extend<Record<never, never>, { federation: FederationEnvironment }>({
  federation: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const environment = await startFederationEnvironment();
      try {
        await use(environment);
      } finally {
        await environment.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ federation }, use) => {
    await use(federation.baseURL);
  },
  ignoreHTTPSErrors: true,
});

export { expect } from "./fixtures.js";
