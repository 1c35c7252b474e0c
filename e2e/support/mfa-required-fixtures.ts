import { test as base } from "./fixtures.js";
import { type OwnServer, startOwnServer } from "./own-server.js";
import { type PreparedUser, prepareUsers } from "./prepared-users.js";

export type MfaRequiredServer = OwnServer<{ newcomer: PreparedUser }>;

/**
 * `test` for journeys on a Vigil where MFA is required (`MFA_MODE=ON`): one server per worker, started on first
 * use and stopped with the worker, with a user an administrator just created (temporary password, no MFA yet);
 * the base URL points at it.
 */
export const test = base.extend<Record<never, never>, { mfaRequired: MfaRequiredServer }>({
  mfaRequired: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const server = await startOwnServer("mfa-required", { MFA_MODE: "ON" }, (env, dataDir) =>
        prepareUsers(env, dataDir, {
          newcomer: {
            username: "e2e-mfa-newcomer",
            name: "Noor Newcomer",
            email: "e2e-mfa-newcomer@vigil.example",
            groups: ["reviewer"],
          },
        }),
      );
      try {
        await use(server);
      } finally {
        await server.stop();
      }
    },
    { scope: "worker", timeout: 180_000 },
  ],
  baseURL: async ({ mfaRequired }, use) => {
    await use(mfaRequired.baseURL);
  },
});

export { expect } from "./fixtures.js";
