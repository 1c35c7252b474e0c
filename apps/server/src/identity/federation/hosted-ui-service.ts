import { createHash, timingSafeEqual } from "node:crypto";
import { recordAudit } from "../../audit/record-audit.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { digestToken } from "../passwords.js";
import { findAuthSessionByRefreshHash, findLiveSessionUser, revokeAuthSession } from "../sessions-repository.js";
import { startSession } from "../start-session.js";
import { createOpaqueToken, type TokenService } from "../token-service.js";
import { findUserBySub, type UserRow } from "../users-repository.js";
import { type FederationConfig, hostedUiScopes } from "./federation-config.js";
import {
  consumeOAuthGrant,
  deleteStaleOAuthGrants,
  findCodeGrantBySession,
  findFederatedUser,
  findOAuthGrant,
  findUsersByEmail,
  insertFederatedIdentity,
  insertOAuthGrant,
  type OAuthGrantRow,
  updateFederatedIdentityEmail,
  updateOAuthGrantData,
} from "./federation-repository.js";
import { UpstreamError, type UpstreamIdentity, type UpstreamProvider } from "./upstream-provider.js";

/** A user has 10 minutes at the upstream provider; the app has 5 minutes to exchange its code (single use). */
const upstreamStateLifetimeMs = 10 * 60_000;
const codeLifetimeMs = 5 * 60_000;

export type HostedUiContext = { ip: string | undefined };

/**
 * The hosted UI cannot trust where to send the user (unknown client, redirect_uri not allowed, a callback it
 * cannot match): it shows a page instead of redirecting. RFC 6749 §4.1.2.1.
 */
export class HostedUiPageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HostedUiPageError";
  }
}

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

type AppRequest = { clientId: string; redirectUri: string; scope: string; state: string | undefined };

/**
 * Federated sign-in through the hosted UI (AUTH.md): Amplify's `signInWithRedirect` comes to `/oauth2/authorize`,
 * the user signs in at the upstream OpenID Connect provider, comes back to `/oauth2/idpresponse`, is linked to an
 * existing Vigil user by verified email (no sign-up), and the app exchanges a single-use code (PKCE S256) at
 * `/oauth2/token` for tokens of a new sign-in, like a password sign-in's.
 */
export class HostedUiService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly federation: FederationConfig,
    private readonly tokens: TokenService,
    private readonly upstream: UpstreamProvider,
  ) {}

  /**
   * `GET /oauth2/authorize`: checks the app's request and sends the user to the upstream provider. `browserId`
   * is the caller's existing browser cookie, if any; the answer names the one to set.
   */
  async authorize(
    query: Record<string, string | undefined>,
    browserId: string | undefined,
    context: HostedUiContext,
  ): Promise<{ location: string; browserId?: string }> {
    const request = this.checkClientAndRedirect(query.client_id, query.redirect_uri);
    const state = query.state !== undefined && /^[\x21-\x7e]{1,2048}$/.test(query.state) ? query.state : undefined;
    const refuse = (error: string, description: string) => ({
      location: redirectWith(request.redirectUri, { error, error_description: description, state }),
    });
    if (query.state !== undefined && state === undefined) {
      return refuse("invalid_request", "The state parameter is malformed.");
    }
    if (query.response_type !== "code") {
      return refuse("unsupported_response_type", "Only response_type=code is supported.");
    }
    if (query.code_challenge_method !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge ?? "")) {
      return refuse("invalid_request", "PKCE is required: code_challenge with code_challenge_method=S256.");
    }
    const scopes = (query.scope ?? "").split(" ").filter(Boolean);
    const unknownScope = scopes.find((scope) => !(hostedUiScopes as readonly string[]).includes(scope));
    if (unknownScope) return refuse("invalid_scope", `The scope ${unknownScope} is not allowed for this client.`);
    if (!scopes.includes("openid")) return refuse("invalid_scope", "The openid scope is required.");
    // One upstream provider: asked for by its name, or as COGNITO (Amplify's default when none is named).
    const provider = query.identity_provider ?? query.idp_identifier;
    if (provider && provider !== "COGNITO" && provider.toLowerCase() !== this.federation.providerName.toLowerCase()) {
      return refuse("invalid_request", `The identity provider ${provider} is not configured.`);
    }

    let upstream: Awaited<ReturnType<UpstreamProvider["startAuthorization"]>>;
    try {
      upstream = await this.upstream.startAuthorization();
    } catch (error) {
      await this.audit("failure", undefined, context, {
        reason: `the provider could not be reached: ${(error as Error).message}`,
      });
      return refuse("temporarily_unavailable", `${this.federation.providerName} cannot be reached. Try again later.`);
    }
    const browser = browserId && /^[A-Za-z0-9_-]{43}$/.test(browserId) ? browserId : createOpaqueToken();
    const now = new Date();
    await deleteStaleOAuthGrants(this.db, new Date(now.getTime() - 86_400_000));
    await insertOAuthGrant(this.db, {
      kind: "upstream-state",
      secretHash: digestToken(upstream.state),
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      scope: orderScopes(scopes),
      state: state ?? null,
      codeChallenge: query.code_challenge ?? null,
      codeChallengeMethod: "S256",
      data: { nonce: upstream.nonce, codeVerifier: upstream.codeVerifier, browser: digestToken(browser) },
      expiresAt: new Date(now.getTime() + upstreamStateLifetimeMs),
    });
    return { location: upstream.url, ...(browser === browserId ? {} : { browserId: browser }) };
  }

  /** `GET /oauth2/idpresponse`: the upstream provider's answer becomes a code for the app, or a refusal. */
  async completeUpstream(
    callbackUrl: URL,
    browserId: string | undefined,
    context: HostedUiContext,
  ): Promise<{ location: string }> {
    const upstreamState = callbackUrl.searchParams.get("state");
    const grant = upstreamState
      ? await findOAuthGrant(this.db, "upstream-state", digestToken(upstreamState))
      : undefined;
    const now = new Date();
    if (!grant || !(await consumeOAuthGrant(this.db, grant.id, now))) {
      await this.audit("failure", undefined, context, {
        reason: grant ? "upstream state already used or expired" : "unknown upstream state",
      });
      throw new HostedUiPageError(
        400,
        "This sign-in has expired or was already completed. Go back to Vigil and sign in again.",
      );
    }
    const data = grant.data as { nonce: string; codeVerifier: string; browser: string };
    const app: AppRequest = {
      clientId: grant.clientId,
      redirectUri: grant.redirectUri,
      scope: grant.scope,
      state: grant.state ?? undefined,
    };
    const provider = this.federation.providerName;
    const refuse = async (
      error: string,
      description: string,
      reason: string,
      details: { user?: UserRow | undefined; identity?: UpstreamIdentity | undefined },
    ) => {
      await this.audit("failure", details.user, context, {
        reason,
        ...(details.identity ? identityDetails(details.identity) : {}),
      });
      return { location: redirectWith(app.redirectUri, { error, error_description: description, state: app.state }) };
    };

    if (!browserId || !safeEqual(digestToken(browserId), data.browser)) {
      return refuse(
        "access_denied",
        "This sign-in was started in another browser. Sign in again from this one.",
        "browser cookie missing or different from the one that started the sign-in",
        {},
      );
    }
    const upstreamError = callbackUrl.searchParams.get("error");
    if (upstreamError) {
      const description = callbackUrl.searchParams.get("error_description");
      return refuse(
        "access_denied",
        `Sign-in with ${provider} was cancelled or refused.`,
        `the provider answered ${upstreamError}${description ? `: ${description}` : ""}`,
        {},
      );
    }

    let identity: UpstreamIdentity;
    try {
      identity = await this.upstream.completeAuthorization(callbackUrl, { ...data, state: upstreamState as string });
    } catch (error) {
      const reason = error instanceof UpstreamError ? error.reason : `unexpected: ${(error as Error).message}`;
      return refuse("server_error", `Vigil could not verify the answer from ${provider}. Try again.`, reason, {});
    }

    const linked = await findFederatedUser(this.db, identity.issuer, identity.subject);
    let user: UserRow;
    if (linked) {
      user = linked.user;
      if (identity.email !== undefined && identity.email !== linked.email) {
        await updateFederatedIdentityEmail(this.db, identity.issuer, identity.subject, identity.email);
      }
    } else {
      const noAccount = `No Vigil account uses this ${provider} address. Ask an administrator.`;
      if (!identity.email) {
        return refuse("access_denied", noAccount, "the provider gave no email address", { identity });
      }
      if (!identity.emailVerified) {
        return refuse(
          "access_denied",
          `${provider} has not verified this address, so it cannot be used to sign in to Vigil.`,
          "email not verified by the provider",
          { identity },
        );
      }
      const candidates = await findUsersByEmail(this.db, identity.email);
      if (candidates.length === 0) {
        return refuse("access_denied", noAccount, "no user with this email", { identity });
      }
      if (candidates.length > 1) {
        return refuse(
          "access_denied",
          `Several Vigil accounts use this ${provider} address. Ask an administrator.`,
          "several users share this email",
          { identity },
        );
      }
      user = candidates[0] as UserRow;
      if (!user.emailVerified) {
        return refuse("access_denied", noAccount, "the user's own address is not verified", { user, identity });
      }
    }
    if (!user.enabled) {
      return refuse("access_denied", "This Vigil account is disabled. Ask an administrator.", "user disabled", {
        user,
        identity,
      });
    }

    const code = createOpaqueToken();
    await this.db.transaction(async (tx) => {
      if (!linked) {
        await insertFederatedIdentity(tx, {
          issuer: identity.issuer,
          subject: identity.subject,
          userSub: user.sub,
          email: identity.email ?? null,
        });
        await recordAudit(tx, {
          action: "auth.federated-link",
          outcome: "success",
          actor: user,
          target: { type: "user", id: user.username },
          ip: context.ip,
          details: identityDetails(identity),
        });
      }
      await insertOAuthGrant(tx, {
        kind: "code",
        secretHash: digestToken(code),
        userSub: user.sub,
        clientId: app.clientId,
        redirectUri: app.redirectUri,
        scope: app.scope,
        state: app.state ?? null,
        codeChallenge: grant.codeChallenge,
        codeChallengeMethod: grant.codeChallengeMethod,
        data: { authTime: now.toISOString(), issuer: identity.issuer },
        expiresAt: new Date(now.getTime() + codeLifetimeMs),
      });
    });
    return { location: redirectWith(app.redirectUri, { code, state: app.state }) };
  }

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

  /** `GET /logout`: back to an allowed sign-out address (tokens are revoked by the app with RevokeToken). */
  logout(query: Record<string, string | undefined>): string {
    if (query.client_id !== this.config.userPoolClientId) {
      throw new HostedUiPageError(400, "Sign-out could not continue: the client is unknown.");
    }
    const logoutUri = query.logout_uri;
    if (!logoutUri || !this.federation.logoutUris.includes(logoutUri)) {
      throw new HostedUiPageError(400, "Sign-out could not continue: logout_uri is not an allowed sign-out address.");
    }
    return logoutUri;
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
      await this.audit("failure", found?.userSub ? await findUserBySub(this.db, found.userSub) : undefined, context, {
        reason,
        step: "token exchange",
      });
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

  private checkClientAndRedirect(clientId: string | undefined, redirectUri: string | undefined): AppRequest {
    if (!clientId || clientId !== this.config.userPoolClientId) {
      throw new HostedUiPageError(400, "Sign-in could not start: the client is unknown.");
    }
    if (!redirectUri || !this.federation.redirectUris.includes(redirectUri)) {
      throw new HostedUiPageError(
        400,
        "Sign-in could not start: redirect_uri is not an allowed address for this client.",
      );
    }
    return { clientId, redirectUri, scope: "", state: undefined };
  }

  private async audit(
    outcome: "success" | "failure",
    user: UserRow | undefined,
    context: HostedUiContext,
    details: Record<string, unknown>,
  ): Promise<void> {
    await recordAudit(this.db, {
      action: "auth.federated-sign-in",
      outcome,
      actor: user ? { sub: user.sub, username: user.username } : undefined,
      ...(user ? { target: { type: "user", id: user.username } } : {}),
      ip: context.ip,
      details: { provider: this.federation.providerName, ...details },
    });
  }
}

function identityDetails(identity: UpstreamIdentity): Record<string, unknown> {
  return {
    issuer: identity.issuer,
    subject: identity.subject,
    email: identity.email ?? null,
    emailVerified: identity.emailVerified,
  };
}

/** The app's redirect URI with these query parameters added (kept in a stable order, absent ones left out). */
function redirectWith(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.set(name, value);
  }
  return url.href;
}

/** Scopes in the order Cognito writes them, each once. */
function orderScopes(scopes: string[]): string {
  return hostedUiScopes.filter((scope) => scopes.includes(scope)).join(" ");
}

/** RFC 7636 S256: BASE64URL(SHA256(code_verifier)) equals the challenge; the verifier is 43–128 unreserved chars. */
function verifyPkce(verifier: string | undefined, challenge: string | null): boolean {
  if (!verifier || !challenge || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return safeEqual(createHash("sha256").update(verifier).digest("base64url"), challenge);
}

function safeEqual(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
