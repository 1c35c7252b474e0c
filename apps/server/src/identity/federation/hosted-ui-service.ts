import { recordAudit } from "../../audit/record-audit.js";
import type { Config } from "../../config.js";
import type { FederationConfig } from "../../config-federation.js";
import type { Db } from "../../db/client.js";
import { digestToken, safeEqual } from "../passwords.js";
import { createOpaqueToken, type TokenService } from "../token-service.js";
import type { UserRow } from "../users-repository.js";
import { auditFederatedSignIn, type HostedUiContext } from "./federated-sign-in-audit.js";
import {
  consumeOAuthGrant,
  deleteStaleOAuthGrants,
  findFederatedUser,
  findOAuthGrant,
  findUsersByEmail,
  insertFederatedIdentity,
  insertOAuthGrant,
  updateFederatedIdentityEmail,
} from "./federation-repository.js";
import { hostedUiScopes } from "./hosted-ui-policy.js";
import { OAuthTokenEndpoints } from "./oauth-token-endpoints.js";
import { UpstreamError, type UpstreamIdentity, type UpstreamProvider } from "./upstream-provider.js";

export type { HostedUiContext } from "./federated-sign-in-audit.js";

/** A user has 10 minutes at the upstream provider; the app has 5 minutes to exchange its code (single use). */
const upstreamStateLifetimeMs = 10 * 60_000;
const codeLifetimeMs = 5 * 60_000;

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

type AppRequest = { clientId: string; redirectUri: string; scope: string; state: string | undefined };

/**
 * Federated sign-in through the hosted UI (AUTH.md): Amplify's `signInWithRedirect` comes to `/oauth2/authorize`,
 * the user signs in at the upstream OpenID Connect provider, comes back to `/oauth2/idpresponse`, is linked to an
 * existing Vigil user by verified email (no sign-up), and the app exchanges a single-use code (PKCE S256) at
 * `/oauth2/token` for tokens of a new sign-in, like a password sign-in's. Here the browser's part (authorize, the
 * provider's callback, logout); `tokenEndpoints` answers the app's own calls (token, userInfo).
 */
export class HostedUiService {
  readonly tokenEndpoints: OAuthTokenEndpoints;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly federation: FederationConfig,
    tokens: TokenService,
    private readonly upstream: UpstreamProvider,
  ) {
    this.tokenEndpoints = new OAuthTokenEndpoints(db, config, federation, tokens);
  }

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
      await auditFederatedSignIn(this.db, this.federation, "failure", undefined, context, {
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
      await auditFederatedSignIn(this.db, this.federation, "failure", undefined, context, {
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
      await auditFederatedSignIn(this.db, this.federation, "failure", details.user, context, {
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
      identity = await this.upstream.completeAuthorization(callbackUrl, { state: upstreamState as string, ...data });
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
