import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { fhirPushJwksPath, publishedJwks } from "./fhir-push-keys.js";
import { getFhirPushSettings, updateFhirPushSettings } from "./fhir-push-settings-service.js";

/** Outside both route tables, public by nature (a hospital fetches Vigil's keys): app.ts lists it. */
export const fhirPushInfrastructureRoutes = [`GET ${fhirPushJwksPath}`] as const;

/** A client's FHIR push settings, and Vigil's public keys for the hospitals' token endpoints. */
export function registerFhirPushRoutes(app: FastifyInstance, db: Db, settings: { publicUrl: string }): void {
  registerRoute(app, "getFhirPushSettings", routes.getFhirPushSettings, ({ params }) =>
    getFhirPushSettings(db, settings.publicUrl, params.id),
  );
  registerRoute(app, "updateFhirPushSettings", routes.updateFhirPushSettings, ({ params, body, principal, request }) =>
    updateFhirPushSettings(db, settings.publicUrl, params.id, body, actorOf(principal, request)),
  );
  app.get(fhirPushJwksPath, async (_request, reply) => {
    // Public keys only; a hospital's key cache may keep them an hour (a rotation keeps the old key published).
    reply.header("cache-control", "public, max-age=3600").type("application/jwk-set+json");
    return publishedJwks(db);
  });
}
