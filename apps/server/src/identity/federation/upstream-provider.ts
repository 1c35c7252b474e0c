import * as client from "openid-client";
import { type FederationConfig, isLoopbackUrl } from "../../config-federation.js";

/** The path the upstream provider sends users back to (Cognito's own name for it). */
export const upstreamCallbackPath = "/oauth2/idpresponse";

/** What Vigil asks of the upstream provider: who the user is and their (verified) address. */
const upstreamScope = "openid email profile";

export type UpstreamRequest = { url: string; state: string; nonce: string; codeVerifier: string };

export type UpstreamIdentity = {
  issuer: string;
  subject: string;
  email: string | undefined;
  emailVerified: boolean;
};

/** A refusal by, or a failed exchange with, the upstream provider; `reason` goes to the audit log. */
export class UpstreamError extends Error {
  constructor(
    readonly reason: string,
    readonly upstreamError?: string,
  ) {
    super(reason);
    this.name = "UpstreamError";
  }
}

/**
 * The upstream OpenID Connect provider, through `openid-client`: discovery (lazy, retried after a failure, so
 * Vigil starts even when the provider is unreachable), the authorization request with its own state, nonce and
 * PKCE, and the code exchange with every check openid-client makes (issuer, audience, nonce, state, `iss`).
 */
export class UpstreamProvider {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly federation: FederationConfig) {}

  get callbackUrl(): string {
    return `${this.federation.hostedUiOrigin}${upstreamCallbackPath}`;
  }

  async startAuthorization(): Promise<UpstreamRequest> {
    const configuration = await this.discover();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl,
      response_type: "code",
      scope: upstreamScope,
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
    return { url: url.href, state, nonce, codeVerifier };
  }

  /** Exchanges the code the provider sent back; `callbackUrl` is the full URL the user arrived at. */
  async completeAuthorization(
    callbackUrl: URL,
    expected: { state: string; nonce: string; codeVerifier: string },
  ): Promise<UpstreamIdentity> {
    const configuration = await this.discover();
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        pkceCodeVerifier: expected.codeVerifier,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof client.AuthorizationResponseError) {
        throw new UpstreamError(
          `the provider answered ${error.error}${error.error_description ? `: ${error.error_description}` : ""}`,
          error.error,
        );
      }
      throw new UpstreamError(`the code exchange failed: ${(error as Error).message}`);
    }
    const claims = tokens.claims();
    if (!claims?.sub) throw new UpstreamError("the provider sent no ID token subject");
    let email = typeof claims.email === "string" ? claims.email : undefined;
    let verified = claims.email_verified;
    // Providers that keep the ID token small (oidc-provider, some enterprise IdPs) give the address at userinfo.
    if (email === undefined || verified === undefined) {
      try {
        const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub);
        email = typeof userInfo.email === "string" ? userInfo.email : email;
        verified = userInfo.email_verified ?? verified;
      } catch (error) {
        throw new UpstreamError(`the provider's userinfo failed: ${(error as Error).message}`);
      }
    }
    return {
      issuer: configuration.serverMetadata().issuer,
      subject: claims.sub,
      email,
      // Some providers send the claim as a string.
      emailVerified: verified === true || verified === "true",
    };
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const { issuer, clientId, clientSecret } = this.federation;
      const attempt = (async () => {
        const options: client.DiscoveryRequestOptions = isLoopbackUrl(issuer)
          ? // A provider on this machine (tests, development) may speak plain HTTP; nothing else may.
            { execute: [client.allowInsecureRequests], timeout: 10 }
          : { timeout: 10 };
        const discovered = await client.discovery(new URL(issuer), clientId, undefined, undefined, options);
        const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
        // RFC 8414: without the list, client_secret_basic is what the provider supports.
        const authentication = !clientSecret
          ? client.None()
          : !methods || methods.includes("client_secret_basic")
            ? client.ClientSecretBasic(clientSecret)
            : client.ClientSecretPost(clientSecret);
        const configuration = new client.Configuration(
          discovered.serverMetadata(),
          clientId,
          clientSecret ? { client_secret: clientSecret } : undefined,
          authentication,
        );
        if (isLoopbackUrl(issuer)) client.allowInsecureRequests(configuration);
        return configuration;
      })();
      this.configuration = attempt;
      attempt.catch(() => {
        if (this.configuration === attempt) this.configuration = undefined;
      });
    }
    return this.configuration;
  }
}
