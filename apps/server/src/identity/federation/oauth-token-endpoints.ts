import { createHash } from "node:crypto";
import { recordAudit } from "../../audit/record-audit.js";
import type { Config } from "../../config.js";
import type { FederationConfig } from "../../config-federation.js";
import type { Db } from "../../db/client.js";
import { digestToken, safeEqual } from "../passwords.js";
import { findAuthSessionByRefreshHash, findLiveSessionUser, revokeAuthSession } from "../sessions-repository.js";
import { startSession } from "../start-session.js";
import type { TokenService } from "../token-service.js";
import { findUserBySub } from "../users-repository.js";
import { auditFederatedSignIn, type HostedUiContext } from "./federated-sign-in-audit.js";
import {
  consumeOAuthGrant,
  findCodeGrantBySession,
  findOAuthGrant,
  type OAuthGrantRow,
  updateOAuthGrantData,
} from "./federation-repository.js";

/** An OAuth error of the token or userinfo endpoint: `{ error, error_description }` with this status. */
export class OAuthEndpointError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
    /** Bearer-token errors of userInfo answer with a `WWW-Authenticate: Bearer` challenge (RFC 6750 §3). */
    readonly bearerChallenge = false,
  ) {
    super(description);
    this.name = "OAuthEndpointError";
  }
}

export type TokenEndpointResponse = {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  token_type: "Bearer";
  expires_in: number;
};

/**
 * The hosted UI's endpoints the app calls itself, not the browser: `/oauth2/token` (the single-use code, with PKCE
 * S256, for tokens of a new sign-in; a refresh token for new ID and access tokens) and `/oauth2/userInfo`.
 */
export class OAuthTokenEndpoints {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly federation: FederationConfig,
    private readonly tokens: TokenService,
  ) {}

  /** `POST /oauth2/token`: `authorization_code` (with PKCE) and `refresh_token` grants. */
  async token(
    body: Record<string, string | undefined>,
    basicClientId: string | undefined,
    context: HostedUiContext,
  ): Promise<TokenEndpointResponse> {
    const clientId = body.client_id ?? basicClientId;
    if (!clientId || clientId !== this.config.userPoolClientId) {
      throw new OAuthEndpointError(401, "invalid_client", "The client is unknown.");
    }
    if (body.grant_type === "authorization_code") return this.exchangeCode(body, clientId, context);
    if (body.grant_type === "refresh_token") return this.refresh(body, clientId);
    throw new OAuthEndpointError(
      400,
      "unsupported_grant_type",
      "Only the authorization_code and refresh_token grants are supported.",
    );
  }

  /** `GET|POST /oauth2/userInfo` with a hosted-UI access token (it must carry the openid scope, as Cognito's). */
  async userInfo(authorization: string | undefined): Promise<Record<string, string>> {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    if (!token) throw new OAuthEndpointError(401, "invalid_request", "An access token is required.", true);
    let claims: Awaited<ReturnType<TokenService["verifyAccessToken"]>>;
    try {
      claims = await this.tokens.verifyAccessToken(token);
    } catch {
      throw new OAuthEndpointError(401, "invalid_token", "The access token is invalid or expired.", true);
    }
    if (!(await findLiveSessionUser(this.db, claims.origin_jti, claims.sub))) {
      throw new OAuthEndpointError(401, "invalid_token", "The access token has been revoked.", true);
    }
    const scopes = String(claims.scope ?? "").split(" ");
    if (!scopes.includes("openid")) {
      throw new OAuthEndpointError(403, "insufficient_scope", "The access token lacks the openid scope.", true);
    }
    const user = await findUserBySub(this.db, claims.sub);
    if (!user) throw new OAuthEndpointError(401, "invalid_token", "The access token is invalid or expired.", true);
    const answer: Record<string, string> = { sub: user.sub, username: user.username };
    if (scopes.includes("email")) {
      answer.email = user.email;
      answer.email_verified = String(user.emailVerified);
    }
    if (scopes.includes("phone") && user.phoneNumber) {
      answer.phone_number = user.phoneNumber;
      answer.phone_number_verified = String(user.phoneNumberVerified);
    }
    if (scopes.includes("profile")) answer.name = user.name;
    return answer;
  }

  private async exchangeCode(
    body: Record<string, string | undefined>,
    clientId: string,
    context: HostedUiContext,
  ): Promise<TokenEndpointResponse> {
    const code = body.code;
    if (!code) throw new OAuthEndpointError(400, "invalid_request", "The code parameter is required.");
    const grant = await findOAuthGrant(this.db, "code", digestToken(code));
    const invalid = async (reason: string, description: string, found?: OAuthGrantRow): Promise<never> => {
      await auditFederatedSignIn(
        this.db,
        this.federation,
        "failure",
        found?.userSub ? await findUserBySub(this.db, found.userSub) : undefined,
        context,
        {
          reason,
          step: "token exchange",
        },
      );
      throw new OAuthEndpointError(400, "invalid_grant", description);
    };
    if (!grant) return invalid("unknown authorization code", "The authorization code is invalid.");
    const now = new Date();
    if (!(await consumeOAuthGrant(this.db, grant.id, now))) {
      // A replayed code may be a stolen one: end the sign-in it produced (RFC 6749 §4.1.2).
      const originJti = (grant.data as { originJti?: string } | null)?.originJti;
      if (grant.consumedAt && originJti) await revokeAuthSession(this.db, originJti, now);
      return invalid(
        grant.consumedAt ? "authorization code reused" : "authorization code expired",
        grant.consumedAt ? "The authorization code was already used." : "The authorization code has expired.",
        grant,
      );
    }
    if (grant.clientId !== clientId) return invalid("client mismatch", "The authorization code is invalid.", grant);
    if (body.redirect_uri !== grant.redirectUri) {
      return invalid("redirect_uri mismatch", "The redirect_uri does not match the authorization request.", grant);
    }
    if (!verifyPkce(body.code_verifier, grant.codeChallenge)) {
      return invalid("PKCE verification failed", "The code_verifier does not match the code_challenge.", grant);
    }
    const user = grant.userSub ? await findUserBySub(this.db, grant.userSub) : undefined;
    if (!user?.enabled) return invalid("user disabled or removed", "The authorization code is invalid.", grant);

    return this.db.transaction(async (tx) => {
      const started = await startSession(tx, this.tokens, {
        user,
        clientId,
        scope: grant.scope,
        refreshTokenHours: this.config.tokens.refreshTokenHours,
        now,
      });
      // biome-ignore lint/plugin/leading-spread-then-keys: originJti wins over the grant's data (any keys)
      await updateOAuthGrantData(tx, grant.id, {
        ...(grant.data as Record<string, unknown>),
        originJti: started.originJti,
      });
      await recordAudit(tx, {
        action: "auth.federated-sign-in",
        outcome: "success",
        actor: user,
        target: { type: "auth-session", id: started.originJti },
        ip: context.ip,
        details: { provider: this.federation.providerName, scope: grant.scope },
      });
      return {
        access_token: started.accessToken,
        id_token: started.idToken,
        refresh_token: started.refreshToken,
        token_type: "Bearer" as const,
        expires_in: started.expiresIn,
      };
    });
  }

  private async refresh(body: Record<string, string | undefined>, clientId: string): Promise<TokenEndpointResponse> {
    const refreshToken = body.refresh_token;
    if (!refreshToken) throw new OAuthEndpointError(400, "invalid_request", "The refresh_token parameter is required.");
    const session = await findAuthSessionByRefreshHash(this.db, digestToken(refreshToken));
    const invalid = () => new OAuthEndpointError(400, "invalid_grant", "The refresh token is invalid.");
    if (!session || session.revokedAt || session.expiresAt <= new Date() || session.clientId !== clientId) {
      throw invalid();
    }
    const user = await findUserBySub(this.db, session.userSub);
    if (!user?.enabled) throw invalid();
    // A hosted-UI sign-in keeps its scopes; a password sign-in's tokens have the admin scope only.
    const scope = (await findCodeGrantBySession(this.db, session.originJti))?.scope;
    const issued = await this.tokens.issue(
      user,
      { originJti: session.originJti, authTime: session.authTime },
      clientId,
      scope ? { scope } : {},
    );
    return {
      access_token: issued.accessToken,
      id_token: issued.idToken,
      token_type: "Bearer",
      expires_in: issued.expiresIn,
    };
  }
}

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) equals the challenge; the verifier is 43–128 unreserved chars. */
function verifyPkce(verifier: string | undefined, challenge: string | null): boolean {
  if (!verifier || !challenge || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return safeEqual(createHash("sha256").update(verifier).digest("base64url"), challenge);
}
