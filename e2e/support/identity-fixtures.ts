import type { PreparedUserCredential } from "./environment.js";
import { test as base, seededUser } from "./fixtures.js";
import { AdminApi } from "./identity-api.js";
import type { PreparedUserKey } from "./prepared-users.js";

/**
 * `test` for the sign-in challenge journeys on the shared server: `admin`, the seeded administrator's API (create
 * users, reset passwords, read the outbox where codes land), and `preparedUser`, the users global setup made in a
 * state no product path creates (support/prepared-users.ts).
 */
export const test = base.extend<{
  admin: AdminApi;
  preparedUser: (key: PreparedUserKey) => PreparedUserCredential;
}>({
  admin: async ({ state }, use) => {
    await use(await AdminApi.signIn(state.baseURL, state.userPoolClientId, seededUser(state, "admin")));
  },
  preparedUser: async ({ state }, use) => {
    await use((key) => {
      const user = state.preparedUsers?.[key];
      if (!user) throw new Error(`Global setup prepared no ${key} user.`);
      return user;
    });
  },
});

export { expect } from "./fixtures.js";
