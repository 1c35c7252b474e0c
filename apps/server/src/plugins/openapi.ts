import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** The OpenAPI document is generated from the contract's schemas as routes register; served with a docs page. */
export async function registerOpenApi(app: FastifyInstance, release: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Vigil API",
        version: release,
        description:
          "Back-office API for continuous EEG monitoring. Every response is `{ enoch, data }` or `{ enoch, error }`. " +
          "Send the ID token from the identity service (`POST /cognito`) as `Authorization: Bearer <jwt>`.",
      },
      components: { securitySchemes: { idToken: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    },
    transform: jsonSchemaTransform,
    hideUntagged: true,
  });
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    // Swagger UI's own page: same-origin only (the default CSP it offers adds upgrade-insecure-requests,
    // which would break plain-HTTP local use).
    staticCSP:
      "default-src 'self'; base-uri 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    transformSpecificationClone: true,
    uiConfig: { url: "/api/openapi.json", deepLinking: true },
  });
  app.get(
    "/api/openapi.json",
    { config: { routeName: "openapi", access: "public" }, schema: { hide: true } },
    async () => app.swagger(),
  );
}
