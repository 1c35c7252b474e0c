import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { replayHl7Message } from "./message-log-replay.js";
import { getHl7Message, listHl7Messages } from "./message-log-service.js";

/** The HL7 v2 message log (docs/design/HL7.md, "The message log"): list, read, replay. */
export function registerMessageLogRoutes(app: FastifyInstance, db: Db): void {
  registerRoute(app, "listHl7Messages", routes.listHl7Messages, ({ query }) => listHl7Messages(db, query));
  registerRoute(app, "getHl7Message", routes.getHl7Message, ({ params, principal, request }) =>
    getHl7Message(db, params.id, actorOf(principal, request)),
  );
  registerRoute(app, "replayHl7Message", routes.replayHl7Message, ({ params, principal, request }) =>
    replayHl7Message(db, params.id, actorOf(principal, request)),
  );
}
