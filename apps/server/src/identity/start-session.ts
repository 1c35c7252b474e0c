import type { Db } from "../db/client.js";
import { digestToken } from "./passwords.js";
import { insertAuthSession } from "./sessions-repository.js";
import { createOpaqueToken, type IssuedTokens, type TokenService, type TokenSubject } from "./token-service.js";

export type StartedSession = IssuedTokens & { refreshToken: string; originJti: string };

/**
 * One sign-in: an `auth_sessions` row (its id is every token's `origin_jti`, so RevokeToken and disabling the user
 * end it at once) and the tokens minted from it: how a password sign-in (sign-in-steps.ts) and a federated one
 * (federation/hosted-ui-service.ts) both end.
 */
export async function startSession(
  db: Db,
  tokens: TokenService,
  options: {
    user: TokenSubject;
    clientId: string;
    /** The access token's scope; without it, Cognito's admin scope alone (what a password sign-in grants). */
    scope?: string;
    refreshTokenHours: number;
    now: Date;
  },
): Promise<StartedSession> {
  const refreshToken = createOpaqueToken();
  const session = await insertAuthSession(db, {
    userSub: options.user.sub,
    clientId: options.clientId,
    refreshTokenHash: digestToken(refreshToken),
    authTime: options.now,
    expiresAt: new Date(options.now.getTime() + options.refreshTokenHours * 3_600_000),
  });
  const issued = await tokens.issue(
    options.user,
    { originJti: session.originJti, authTime: options.now },
    options.clientId,
    { scope: options.scope, db },
  );
  return { refreshToken, originJti: session.originJti, ...issued };
}
