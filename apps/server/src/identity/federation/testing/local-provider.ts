import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider, { type KoaContextWithOIDC } from "oidc-provider";

export type LocalAccount = { email: string; emailVerified: boolean; name: string };

export type LocalProviderOptions = {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  /** By login name: what the provider's own sign-in form accepts (any password, it is a development form). */
  accounts: Record<string, LocalAccount>;
  host?: string;
  port?: number;
};

export type LocalProvider = { issuer: string; close: () => Promise<void> };

/**
 * A real OpenID Connect provider (`oidc-provider`) on this machine, standing in for Google in tests: its own
 * sign-in form (development interactions; consent is implied for the one client), ID tokens signed with a fresh
 * RS256 key, and the email address with its verification flag at userinfo — as a provider that keeps ID tokens
 * small does. Used by the API tests directly and by the e2e journeys through local-provider-command.ts.
 */
export async function startLocalProvider(options: LocalProviderOptions): Promise<LocalProvider> {
  const server = createServer();
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const issuer = `http://${host}:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), alg: "RS256", use: "sig", kid: "local-provider-1" };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ["code"],
        grant_types: ["authorization_code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    async findAccount(_context, id) {
      const account = options.accounts[id];
      if (!account) return undefined;
      return {
        accountId: id,
        claims: async () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
        }),
      };
    },
    // The one client is first-party: consent is implied, so the journey is the sign-in form only.
    async loadExistingGrant(context: KoaContextWithOIDC) {
      const { oidc } = context;
      const client = oidc.client as NonNullable<typeof oidc.client>;
      const session = oidc.session as NonNullable<typeof oidc.session>;
      const grantId = oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      if (grantId) return oidc.provider.Grant.find(grantId);
      const grant = new oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId as string });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    jwks: { keys: [signingKey] },
    features: { devInteractions: { enabled: true } },
    // Lifetimes in seconds; short, it is a test provider (and set, so it does not print notices about defaults).
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  });
  provider.on("server_error", (_context, error) => console.error("local OIDC provider error", error));
  server.on("request", provider.callback());

  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
