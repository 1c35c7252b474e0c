import { routes, userEtag } from "@vigil/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import type { Principal } from "../../http/principal.js";
import { registerRoute } from "../../http/register-route.js";
import {
  resetUserMfa,
  resetUserPassword,
  setAccessGroups,
  setUserContact,
  setUserEnabled,
  setUserProfessional,
  setUserSmsMfa,
} from "../../identity/user-administration.js";
import {
  type Actor,
  type DirectoryServices,
  getUserByUsername,
  inviteUser,
  isSameUsername,
  listAllUsers,
  listEnabledMembers,
} from "../../identity/user-directory.js";

/** The administrator and where they act from, for the audit log. */
function actorOf(principal: Principal, request: FastifyRequest): Actor {
  return {
    sub: principal.sub,
    username: principal.username,
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  };
}

/** `null` tells the service the header is required but missing (428). */
function ifMatchOf(request: FastifyRequest): string | null {
  return request.headers["if-match"]?.trim() || null;
}

export function registerUserRoutes(app: FastifyInstance, db: Db, config: Pick<Config, "publicUrl">): void {
  const signInUrl = `${config.publicUrl}/#/signin`;
  // Per request, so the messages' log lines are the request's (http/request-id.ts).
  const servicesFor = (request: FastifyRequest): DirectoryServices => ({
    db,
    messages: app.messages,
    signInUrl,
    log: request.log,
  });

  registerRoute(app, "listUsers", routes.listUsers, async ({ query }) => {
    const { limit, offset, search, group, enabled, sort, order } = query;
    const page = await listAllUsers(db, { limit, offset }, { search, group, enabled }, { field: sort, order });
    return { limit, offset, ...page };
  });

  registerRoute(app, "getUser", routes.getUser, async ({ params, principal, reply }) => {
    const own = isSameUsername(params.username, principal.username);
    // Someone else's record is for administrators only; say "not found" rather than confirm the name exists.
    if (!own && !principal.permissions.has("users:manage"))
      throw new AppError("not_found", `No user named ${params.username}.`);
    const user = await getUserByUsername(db, params.username);
    reply.header("etag", userEtag(user));
    return user;
  });

  registerRoute(app, "createUser", routes.createUser, async ({ body, principal, request, reply }) => {
    const created = await inviteUser(servicesFor(request), body, actorOf(principal, request));
    reply.header("etag", userEtag(created.user));
    reply.header("location", `/api/users/${encodeURIComponent(created.user.username)}`);
    return created;
  });

  registerRoute(
    app,
    "setUserAccessGroups",
    routes.setUserAccessGroups,
    async ({ params, body, principal, request, reply }) => {
      const user = await setAccessGroups(
        db,
        params.username,
        body.groups,
        ifMatchOf(request),
        actorOf(principal, request),
      );
      reply.header("etag", userEtag(user));
      return user;
    },
  );

  registerRoute(app, "toggleUser", routes.toggleUser, async ({ params, body, principal, request, reply }) => {
    const user = await setUserEnabled(
      db,
      params.username,
      body.isEnabled,
      ifMatchOf(request),
      actorOf(principal, request),
    );
    reply.header("etag", userEtag(user));
    return user;
  });

  registerRoute(app, "setUserSmsMfa", routes.setUserSmsMfa, async ({ params, body, principal, request, reply }) => {
    const user = await setUserSmsMfa(
      db,
      params.username,
      body.enabled,
      ifMatchOf(request),
      actorOf(principal, request),
    );
    reply.header("etag", userEtag(user));
    return user;
  });

  registerRoute(app, "setUserContact", routes.setUserContact, async ({ params, body, principal, request, reply }) => {
    const user = await setUserContact(
      servicesFor(request),
      params.username,
      body,
      ifMatchOf(request),
      actorOf(principal, request),
    );
    reply.header("etag", userEtag(user));
    return user;
  });

  registerRoute(
    app,
    "setUserProfessional",
    routes.setUserProfessional,
    async ({ params, body, principal, request, reply }) => {
      // One's own, or anyone's with users:manage; as in getUser, a name one may not see is "not found".
      if (!isSameUsername(params.username, principal.username) && !principal.permissions.has("users:manage"))
        throw new AppError("not_found", `No user named ${params.username}.`);
      const user = await setUserProfessional(
        db,
        params.username,
        body,
        ifMatchOf(request),
        actorOf(principal, request),
      );
      reply.header("etag", userEtag(user));
      return user;
    },
  );

  registerRoute(app, "resetUserPassword", routes.resetUserPassword, async ({ params, principal, request, reply }) => {
    const result = await resetUserPassword(servicesFor(request), params.username, actorOf(principal, request));
    reply.header("etag", userEtag(result.user));
    return result;
  });

  registerRoute(app, "resetUserMfa", routes.resetUserMfa, async ({ params, principal, request, reply }) => {
    const user = await resetUserMfa(db, params.username, actorOf(principal, request));
    reply.header("etag", userEtag(user));
    return user;
  });

  registerRoute(app, "listTechnologists", routes.listTechnologists, async ({ query }) => ({
    limit: query.limit,
    offset: query.offset,
    ...(await listEnabledMembers(db, "technologist", query)),
  }));

  registerRoute(app, "listOutbox", routes.listOutbox, async ({ query }) => {
    // Where mail really leaves the system, its messages are nobody's to read here.
    if (app.messages.transportFor("email") !== "outbox") {
      throw new AppError("not_found", "Mail is sent through a transport; there is no outbox to read.");
    }
    const rows = await app.messages.listOutbox({ recipient: query.to, limit: query.limit });
    return {
      items: rows.map((row) => ({
        id: row.id,
        channel: row.channel === "sms" ? ("sms" as const) : ("email" as const),
        to: row.recipient,
        subject: row.subject,
        body: row.body,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  });
}
