import {
  type AccessGroup,
  accessGroupSchema,
  type Permission,
  permissionsOf,
  type SessionEndedDetails,
} from "@vigil/contract";
import type { FastifyRequest } from "fastify";
import type { Db } from "../db/client.js";
import { AppError } from "../errors/app-error.js";
import type { Principal } from "../http/principal.js";
import type { LiveSession, SessionCache } from "../identity/session-cache.js";
import { isEndedByAdministrator } from "../identity/session-end.js";
import { findLiveSessionUser, findSessionAccount } from "../identity/sessions-repository.js";
import type { TokenService } from "../identity/token-service.js";

/**
 * Reads the ID token from `Authorization` (`Bearer <jwt>` or the bare token, as the spec's client sends it),
 * verifies it, and checks that its sign-in is not revoked and its user still enabled. Groups come from the
 * user's current row, so removing a group takes effect on the next request rather than at token expiry. That check
 * is answered from the instance's memory of live sessions when it may be trusted (identity/session-cache.ts: kept
 * current by LISTEN/NOTIFY, read from the database whenever the listener is away), so most calls make no round trip.
 * Returns undefined when no token was sent; throws 401 for any bad token.
 */
export function createAuthenticator(db: Db, tokens: TokenService, sessions: Pick<SessionCache, "liveSession">) {
  return async function authenticate(request: FastifyRequest): Promise<Principal | undefined> {
    const header = request.headers.authorization?.trim();
    if (!header) return undefined;
    const token = header.toLowerCase().startsWith("bearer ") ? header.slice(7).trim() : header;
    if (!token) throw new AppError("unauthorized", "The token is not valid.");
    const claims = await tokens.verifyIdToken(token);
    const live = await sessions.liveSession(claims.origin_jti, claims.sub, () =>
      findLiveSessionUser(db, claims.origin_jti, claims.sub),
    );
    if (!live) {
      // The token is genuine, so its holder may learn why it stopped working (the app tells them on the sign-in
      // page); a sign-out or sign-in ended by the user themselves needs no explanation.
      const account = await findSessionAccount(db, claims.origin_jti, claims.sub);
      if (account && isEndedByAdministrator(account)) {
        const details: SessionEndedDetails = { reason: "account-changed" };
        throw new AppError("unauthorized", "Your session ended: an administrator changed your account.", details);
      }
      if (account?.revokedWith === "every-sign-in") {
        const details: SessionEndedDetails = { reason: "signed-out-everywhere" };
        throw new AppError(
          "unauthorized",
          "Your session ended: your account was signed out everywhere, or its password was changed, on another device.",
          details,
        );
      }
      throw new AppError("unauthorized", "The session has been revoked or the user is disabled.");
    }
    const { groups, permissions } = accessOf(live);
    return { sub: claims.sub, username: live.username, groups, permissions, originJti: claims.origin_jti };
  };
}

type Access = { groups: readonly AccessGroup[]; permissions: ReadonlySet<Permission> };

/**
 * A session's known groups and their permissions, worked out once per session object: the session cache answers
 * the same frozen object for as long as the sign-in is unchanged (a change replaces it), so a signed-in user's
 * requests parse their groups once, not on every call. Both are shared between requests, hence read-only.
 */
const accessOfSession = new WeakMap<LiveSession, Access>();

function accessOf(live: LiveSession): Access {
  const known = accessOfSession.get(live);
  if (known) return known;
  const groups = Object.freeze(
    live.groups.filter((group): group is AccessGroup => accessGroupSchema.safeParse(group).success),
  );
  const access = { groups, permissions: permissionsOf(groups) };
  accessOfSession.set(live, access);
  return access;
}
