import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { createInterfaceProfileRevision, getInterfaceProfile } from "./profile-service.js";
import { sendInterfaceTestMessage, type TestMessageOptions } from "./profile-test-message.js";

/** A client's interface profile (docs/design/HL7.md, "The interface profile"): read, revise, send a test message. */
export function registerProfileRoutes(app: FastifyInstance, db: Db, options: TestMessageOptions = {}): void {
  registerRoute(app, "getInterfaceProfile", routes.getInterfaceProfile, ({ params }) =>
    getInterfaceProfile(db, params.id),
  );
  registerRoute(
    app,
    "createInterfaceProfileRevision",
    routes.createInterfaceProfileRevision,
    ({ params, body, principal, request }) =>
      createInterfaceProfileRevision(db, params.id, body, actorOf(principal, request)),
  );
  registerRoute(app, "sendInterfaceTestMessage", routes.sendInterfaceTestMessage, ({ params, principal, request }) =>
    sendInterfaceTestMessage(db, params.id, actorOf(principal, request), options),
  );
}
