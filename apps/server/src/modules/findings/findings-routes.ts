import { criticalFindingRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { linkCallerOf } from "../../links/link-calls.js";
import { acknowledgeFindingLink, lookUpFindingLink } from "./finding-links-service.js";
import type { FindingsContext } from "./findings-context.js";
import {
  cancelCriticalFinding,
  listCriticalFindings,
  raiseCriticalFinding,
  recordPhoneAcknowledgement,
} from "./findings-service.js";

/** Critical findings (PRODUCT.md §11): staff's four calls on a case, and the acknowledgement link's two public ones. */
export function registerFindingRoutes(app: FastifyInstance, ctx: FindingsContext): void {
  const routes = criticalFindingRoutes;
  registerRoute(app, "listCriticalFindings", routes.listCriticalFindings, ({ params }) =>
    listCriticalFindings(ctx.db, params.id),
  );
  registerRoute(app, "raiseCriticalFinding", routes.raiseCriticalFinding, ({ params, body, principal, request }) =>
    raiseCriticalFinding(ctx, params.id, body, actorOf(principal, request)),
  );
  registerRoute(
    app,
    "recordFindingAcknowledgement",
    routes.recordFindingAcknowledgement,
    ({ params, body, principal, request }) =>
      recordPhoneAcknowledgement(ctx, params.id, params.findingId, body, actorOf(principal, request)),
  );
  registerRoute(app, "cancelCriticalFinding", routes.cancelCriticalFinding, ({ params, body, principal, request }) =>
    cancelCriticalFinding(ctx, params.id, params.findingId, body, actorOf(principal, request)),
  );
  registerRoute(app, "lookUpFindingLink", routes.lookUpFindingLink, ({ body, request }) =>
    lookUpFindingLink(ctx, body.token, linkCallerOf(request)),
  );
  registerRoute(app, "acknowledgeFindingLink", routes.acknowledgeFindingLink, ({ body, request }) =>
    acknowledgeFindingLink(ctx, body, linkCallerOf(request)),
  );
}
