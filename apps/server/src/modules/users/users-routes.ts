import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { registerRoute } from "../../http/register-route.js";
import { getUserByUsername, isSameUsername } from "../../identity/user-directory.js";

export function registerUserRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "getUser", routes.getUser, async ({ params, principal }) => {
    const own = isSameUsername(params.username, principal.username);
    // Someone else's record is for administrators only; say "not found" rather than confirm the name exists.
    if (!own && !principal.permissions.has("users:manage"))
      throw new AppError("not_found", `No user named ${params.username}.`);
    return getUserByUsername(db, params.username);
  });
}
