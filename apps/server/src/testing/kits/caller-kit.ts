import type { AccessGroup } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { getUserByUsername } from "../../identity/user-directory.js";
import type { TestApp } from "../test-app.js";

/** How every server test kit calls the API as a given user: one signed-in user, one function per request. */
export const base = "/api/continuous-monitoring";

/** Calls the API as one user (a path without /api is under `base`); knows who it is, for assertions on authors. */
export type Caller = ((
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
  url: string,
  options?: { body?: unknown; ifMatch?: string | number },
) => Promise<LightMyRequestResponse>) & { username: string; sub: string };

/** Creates the user `username` with `groups`, signs it in, and returns the caller that sends its token. */
export async function callerFor(harness: TestApp, username: string, groups: AccessGroup[]): Promise<Caller> {
  const token = await harness.tokenFor(username, groups);
  const user = await getUserByUsername(harness.database.db, username);
  const caller = (
    method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE",
    url: string,
    options: { body?: unknown; ifMatch?: string | number } = {},
  ) =>
    harness.app.inject({
      method,
      url: url.startsWith("/api") ? url : `${base}${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.ifMatch === undefined ? {} : { "if-match": String(options.ifMatch) }),
      },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
  return Object.assign(caller, { username, sub: user.sub });
}
