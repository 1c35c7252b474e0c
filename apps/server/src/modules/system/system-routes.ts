import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Database } from "../../db/client.js";
import { pingDatabase } from "../../db/client.js";
import { registerRoute } from "../../http/register-route.js";
import { hostedUiScopes } from "../../identity/federation/hosted-ui-policy.js";

export function registerSystemRoutes(app: FastifyInstance, database: Database, config: Config): void {
  registerRoute(app, "getHealth", routes.getHealth, async () => ({
    status: "ok" as const,
    database: { engine: database.engine, latencyMs: Math.round((await pingDatabase(database.db)) * 100) / 100 },
  }));

  registerRoute(app, "getPublicConfig", routes.getPublicConfig, async () => ({
    identity: {
      userPoolId: config.userPoolId,
      userPoolClientId: config.userPoolClientId,
      // A path, not PUBLIC_URL's origin: the page calls the origin it was loaded from (any address of this
      // server), which its CSP's connect-src 'self' allows. Tokens still name PUBLIC_URL as their issuer.
      userPoolEndpoint: config.userPoolEndpoint ?? "/cognito",
      loginWith: "username" as const,
    },
    passwordPolicy: config.passwordPolicy,
    mfa: config.mfaMode,
    totpIssuer: config.totpIssuer,
    federation: config.federation
      ? {
          enabled: true,
          providerName: config.federation.providerName,
          domain: config.federation.domain,
          scopes: [...hostedUiScopes],
          redirectSignIn: config.federation.redirectUris,
          redirectSignOut: config.federation.logoutUris,
        }
      : null,
  }));
}
