import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { TokenService } from "../token-service.js";
import { HostedUiPageError, HostedUiService } from "./hosted-ui-service.js";
import { OAuthEndpointError } from "./oauth-token-endpoints.js";
import { UpstreamProvider, upstreamCallbackPath } from "./upstream-provider.js";

/** Routes of the hosted UI, public by nature; app.ts lists them in `infrastructureRoutes`. */
export const hostedUiRoutes = [
  "GET /oauth2/authorize",
  `GET ${upstreamCallbackPath}`,
  "POST /oauth2/token",
  "GET /oauth2/userInfo",
  "POST /oauth2/userInfo",
  "GET /logout",
] as const;

/** Ties the upstream answer to the browser that started the sign-in (login CSRF); scoped to the callback. */
const browserCookie = "vigil_hosted_ui";

const notConfigured = "Federated sign-in is not enabled on this server (OIDC_ISSUER is not set).";

/**
 * The hosted UI's HTTP face (Cognito's `/oauth2/*` and `/logout`), on every listener: Amplify reaches it at
 * `https://<HOSTED_UI_DOMAIN>`. Without federation configured every endpoint answers a clear error.
 */
export function registerHostedUiRoutes(app: FastifyInstance, db: Db, config: Config, tokens: TokenService): void {
  const federation = config.federation;
  const service = federation
    ? new HostedUiService(db, config, federation, tokens, new UpstreamProvider(federation))
    : undefined;
  // Amplify's token call and userInfo come from the app's pages: those origins may call with CORS.
  const allowedOrigins = new Set(
    federation ? [config.publicUrl, ...federation.redirectUris].map((url) => new URL(url).origin) : [],
  );

  app.register(async (scope) => {
    // OAuth token requests are form-encoded; only these routes accept that body.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof OAuthEndpointError) return sendOAuthError(reply, error);
      if (error instanceof HostedUiPageError) return sendPage(reply, error.status, error.message, config.publicUrl);
      const status = (error as { statusCode?: number }).statusCode;
      if (status && status >= 400 && status < 500) {
        return request.url.startsWith("/oauth2/token") || request.url.startsWith("/oauth2/userInfo")
          ? sendOAuthError(reply, new OAuthEndpointError(status, "invalid_request", (error as Error).message))
          : sendPage(reply, status, (error as Error).message, config.publicUrl);
      }
      request.log.error({ err: error }, "hosted UI request failed");
      return request.url.startsWith("/oauth2/token") || request.url.startsWith("/oauth2/userInfo")
        ? sendOAuthError(reply, new OAuthEndpointError(500, "server_error", "An internal error occurred."))
        : sendPage(reply, 500, "Sign-in failed because of an error in Vigil. Try again later.", config.publicUrl);
    });

    const requireService = (json: boolean): HostedUiService => {
      if (service) return service;
      throw json
        ? new OAuthEndpointError(404, "invalid_request", notConfigured)
        : new HostedUiPageError(404, notConfigured);
    };

    const cors = (request: FastifyRequest, reply: FastifyReply, methods: string) => {
      const origin = request.headers.origin;
      reply.header("vary", "Origin");
      if (!origin || !allowedOrigins.has(origin)) return false;
      reply.header("access-control-allow-origin", origin);
      reply.header("access-control-allow-methods", methods);
      reply.header("access-control-allow-headers", "authorization, content-type, x-amz-user-agent");
      reply.header("access-control-max-age", "600");
      return true;
    };
    const preflight = (methods: string) => async (request: FastifyRequest, reply: FastifyReply) => {
      reply.status(cors(request, reply, methods) ? 204 : 403).send();
    };

    scope.get("/oauth2/authorize", { config: publicRoute("hosted-ui-authorize") }, async (request, reply) => {
      const outcome = await requireService(false).authorize(
        singleValues(request.query),
        readCookie(request, browserCookie),
        { ip: request.ip },
      );
      if (outcome.browserId) {
        reply.header(
          "set-cookie",
          `${browserCookie}=${outcome.browserId}; Path=${upstreamCallbackPath}; Max-Age=86400; HttpOnly; SameSite=Lax` +
            (request.protocol === "https" ? "; Secure" : ""),
        );
      }
      return reply.header("cache-control", "no-store").redirect(outcome.location, 302);
    });

    scope.get(upstreamCallbackPath, { config: publicRoute("hosted-ui-idp-response") }, async (request, reply) => {
      const active = requireService(false);
      const callbackUrl = new URL(request.url, (federation as NonNullable<typeof federation>).hostedUiOrigin);
      const outcome = await active.completeUpstream(callbackUrl, readCookie(request, browserCookie), {
        ip: request.ip,
      });
      return reply.header("cache-control", "no-store").redirect(outcome.location, 302);
    });

    scope.options("/oauth2/token", { config: publicRoute("hosted-ui-token-preflight") }, preflight("POST"));
    scope.post("/oauth2/token", { config: publicRoute("hosted-ui-token") }, async (request, reply) => {
      cors(request, reply, "POST");
      reply.header("cache-control", "no-store").header("pragma", "no-cache");
      const body = (request.body ?? {}) as Record<string, string | undefined>;
      return requireService(true).tokenEndpoints.token(body, readBasicClientId(request.headers.authorization), {
        ip: request.ip,
      });
    });

    scope.options("/oauth2/userInfo", { config: publicRoute("hosted-ui-userinfo-preflight") }, preflight("GET, POST"));
    const userInfo = async (request: FastifyRequest, reply: FastifyReply) => {
      cors(request, reply, "GET, POST");
      reply.header("cache-control", "no-store");
      return requireService(true).tokenEndpoints.userInfo(request.headers.authorization);
    };
    scope.get("/oauth2/userInfo", { config: publicRoute("hosted-ui-userinfo") }, userInfo);
    scope.post("/oauth2/userInfo", { config: publicRoute("hosted-ui-userinfo") }, userInfo);

    scope.get("/logout", { config: publicRoute("hosted-ui-logout") }, async (request, reply) => {
      const location = requireService(false).logout(singleValues(request.query));
      return reply.header("cache-control", "no-store").redirect(location, 302);
    });
  });
}

function publicRoute(routeName: string) {
  return { routeName, access: "public" as const };
}

function sendOAuthError(reply: FastifyReply, error: OAuthEndpointError) {
  if (error.bearerChallenge) {
    reply.header(
      "www-authenticate",
      error.error === "invalid_request"
        ? "Bearer"
        : `Bearer error="${error.error}", error_description="${error.message}"`,
    );
  }
  return reply
    .status(error.status)
    .header("cache-control", "no-store")
    .send({ error: error.error, error_description: error.message });
}

function sendPage(reply: FastifyReply, status: number, message: string, publicUrl: string) {
  const html = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in problem – Vigil</title>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 4rem auto; padding: 0 1rem">
<h1>Sign-in problem</h1>
<p>${escapeHtml(message)}</p>
<p><a href="${escapeHtml(`${publicUrl}/`)}">Back to Vigil</a></p>
</body>
</html>
`;
  return reply.status(status).header("cache-control", "no-store").type("text/html; charset=utf-8").send(html);
}

function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (character) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] as string,
  );
}

/** Query parameters given once; a repeated one counts as absent (OAuth forbids repeating them). */
function singleValues(query: unknown): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries((query ?? {}) as Record<string, unknown>).map(([name, value]) => [
      name,
      typeof value === "string" ? value : undefined,
    ]),
  );
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/** `Authorization: Basic base64(client_id:secret)`: only the client id matters (the web client has no secret). */
function readBasicClientId(authorization: string | undefined): string | undefined {
  const encoded = /^Basic\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  return decodeURIComponent(decoded.split(":")[0] ?? "") || undefined;
}
