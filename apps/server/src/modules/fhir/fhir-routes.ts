import { type FhirRouteDefinition, fhirBasePath, fhirRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { registerFhirFrame, registerFhirRoute } from "../../fhir/fhir-frame.js";
import { buildCapabilityStatement, type FhirEndpointUrls, smartConfiguration } from "../../fhir/fhir-metadata.js";
import { fhirFrameOptions } from "./fhir-auth-service.js";
import { fhirOrderRegistrar } from "./fhir-order-routes.js";
import { fhirReadRegistrar } from "./fhir-read-routes.js";
import type { FhirSettings } from "./fhir-resource-common.js";
import type { FhirResourceRegistrar } from "./fhir-resource-registrar.js";
import { fetchJwksOverHttp, type JwksFetcher } from "./smart-jwks.js";
import { issueSmartAccessToken, SmartTokenError } from "./smart-token-service.js";

/**
 * The FHIR endpoint (docs/design/FHIR.md): the SMART token endpoint and discovery documents, and the frame at
 * `/fhir/R4` with every row of the contract's `fhirRoutes`. A resource area registers its rows in a registrar
 * listed in `fhirResourceRegistrars`; a row left without a handler stops the app at start, so the
 * CapabilityStatement (built from the rows) never names an interaction that is not there.
 */

export const smartTokenPath = "/fhir/auth/token";

/** Routes outside both route tables, public by nature: app.ts lists them in `infrastructureRoutes`. */
export const smartInfrastructureRoutes = [
  `POST ${smartTokenPath}`,
  "GET /.well-known/smart-configuration",
  `GET ${fhirBasePath}/.well-known/smart-configuration`,
] as const;

export type { FhirResourceRegistrar } from "./fhir-resource-registrar.js";

/** Each resource area's registrar, in the order its rows appear in the table. */
export function fhirResourceRegistrars(settings: FhirSettings): FhirResourceRegistrar[] {
  return [fhirReadRegistrar(settings), fhirOrderRegistrar(settings)];
}

export type FhirEndpointOptions = {
  /** PUBLIC_URL: the base the hospital reaches Vigil at; the token URL an assertion's `aud` must equal is under it. */
  publicUrl: string;
  softwareVersion: string;
  /** The monitoring company, as resources name it (performer, owner). */
  company: FhirSettings["company"];
  fetchJwks?: JwksFetcher;
  /** Registrars beyond `fhirResourceRegistrars` (tests). */
  extraRegistrars?: FhirResourceRegistrar[];
};

export function fhirEndpointUrls(publicUrl: string): FhirEndpointUrls {
  return { base: `${publicUrl}${fhirBasePath}`, token: `${publicUrl}${smartTokenPath}` };
}

export async function registerFhirEndpoint(app: FastifyInstance, db: Db, options: FhirEndpointOptions): Promise<void> {
  const urls = fhirEndpointUrls(options.publicUrl);
  const rows: FhirRouteDefinition[] = Object.values(fhirRoutes);
  const settings = { tokenUrl: urls.token, fetchJwks: options.fetchJwks ?? fetchJwksOverHttp };
  const configuration = () => smartConfiguration(rows, urls);

  await app.register(async (scope) => {
    // OAuth token requests are form-encoded (RFC 6749 §4.4.2); only this route takes that body.
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: 16_384 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    scope.setErrorHandler((error, request, reply) => {
      const oauth =
        error instanceof SmartTokenError
          ? error
          : (error as { statusCode?: number }).statusCode && (error as { statusCode: number }).statusCode < 500
            ? new SmartTokenError(
                400,
                "invalid_request",
                "Send a form-encoded (application/x-www-form-urlencoded) body.",
              )
            : undefined;
      if (!oauth) request.log.error({ err: error }, "token endpoint failed");
      reply.header("cache-control", "no-store").header("pragma", "no-cache");
      if (oauth?.status === 401) reply.header("www-authenticate", 'Bearer realm="fhir"');
      return reply
        .status(oauth?.status ?? 500)
        .send(
          oauth
            ? { error: oauth.error, error_description: oauth.message }
            : { error: "server_error", error_description: "An internal error occurred." },
        );
    });
    scope.post(smartTokenPath, { config: { routeName: "smartToken", access: "public" } }, async (request, reply) => {
      const body = request.body && typeof request.body === "object" ? (request.body as Record<string, string>) : {};
      const answer = await issueSmartAccessToken(db, settings, body, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      return reply.header("cache-control", "no-store").header("pragma", "no-cache").send(answer);
    });
    scope.get(
      "/.well-known/smart-configuration",
      { config: { routeName: "smartConfiguration", access: "public" } },
      async (_request, reply) => reply.header("cache-control", "no-store").send(configuration()),
    );
  });

  const registered = new Set<string>();
  await registerFhirFrame(app, fhirFrameOptions(db), (fhir) => {
    fhir.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) registered.add(`${method} ${route.url}`);
    });
    fhir.get(
      "/.well-known/smart-configuration",
      { config: { routeName: "fhirSmartConfiguration", access: "public" } },
      async (_request, reply) => reply.header("cache-control", "no-store").send(configuration()),
    );
    registerFhirRoute(fhir, "fhirCapabilities", fhirRoutes.fhirCapabilities, async () =>
      buildCapabilityStatement(rows, urls, { name: "Vigil", version: options.softwareVersion }),
    );
    const settings = { publicUrl: options.publicUrl, company: options.company };
    for (const registrar of [...fhirResourceRegistrars(settings), ...(options.extraRegistrars ?? [])]) {
      registrar(fhir, db);
    }
  });
  const missing = Object.entries(fhirRoutes).filter(([, row]) => !registered.has(`${row.method} ${row.path}`));
  if (missing.length > 0) {
    throw new Error(`FHIR routes in the table without a handler: ${missing.map(([name]) => name).join(", ")}`);
  }
}
