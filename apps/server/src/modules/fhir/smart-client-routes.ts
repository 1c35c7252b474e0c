import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { listSmartClients, registerSmartClient, updateSmartClient } from "./smart-client-service.js";

/** A client's hospital systems for SMART Backend Services (docs/design/FHIR.md, "Registration"). */
export function registerSmartClientRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "listSmartClients", routes.listSmartClients, ({ params }) => listSmartClients(db, params.id));
  registerRoute(app, "createSmartClient", routes.createSmartClient, ({ params, body, principal, request }) =>
    registerSmartClient(db, params.id, body, actorOf(principal, request)),
  );
  registerRoute(app, "updateSmartClient", routes.updateSmartClient, ({ params, body, principal, request }) =>
    updateSmartClient(db, params.id, params.systemId, body, actorOf(principal, request)),
  );
}
