import { type CaseStage, caseRoutes, clientRoutes, recordRoutesTable } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import type { Principal } from "../../http/principal.js";
import { registerRoute } from "../../http/register-route.js";
import { readIfMatch, sendEtag } from "../../http/versioning.js";
import { listEnabledMembers } from "../../identity/user-directory.js";
import type { CaseDependencies } from "./case-dependencies.js";
import { getCaseTimeline, listAssignments, listCaseQueue, listClientCases } from "./case-lists-service.js";
import { requestTransition, takeCaseAction, takeTransitionAction } from "./case-workflow-service.js";
import { archiveCase, caseActorOf, createCase, getCase, getPinnedProtocol, updateCase } from "./cases-service.js";
import { getPatientDetails, getPatientDetailsHistory, updatePatientDetails } from "./patient-details-service.js";

function workflowUser(principal: Principal) {
  return { sub: principal.sub, username: principal.username, permissions: principal.permissions };
}

/** Cases and their workflow (PRODUCT.md §3). Every case answer carries its ETag (the version). */
export function registerCaseRoutes(app: FastifyInstance, db: Db, dependencies: CaseDependencies): void {
  const routes = caseRoutes;

  registerRoute(app, "createCase", routes.createCase, async ({ body, principal, request, reply }) => {
    const actor = await caseActorOf(db, actorOf(principal, request));
    const created = await createCase(db, body, actor, workflowUser(principal), dependencies);
    sendEtag(reply, created.version);
    return created;
  });

  const queues: [keyof typeof routes, CaseStage][] = [
    ["listIntakeCases", "intake"],
    ["listMonitoringCases", "monitoring"],
    ["listPreviewCases", "preview"],
    ["listReviewedCases", "reviewed"],
    ["listClosedCases", "closed"],
  ];
  for (const [name, stage] of queues) {
    const definition = routes[name as "listIntakeCases"];
    registerRoute(app, name, definition, ({ query }) => listCaseQueue(db, stage, query));
  }
  registerRoute(app, "listAssignments", routes.listAssignments, ({ query }) => listAssignments(db, query));
  // A client's case list is a cases query: the clients module sits below cases and does not read them.
  registerRoute(app, "listClientCases", clientRoutes.listClientCases, ({ params, query }) =>
    listClientCases(db, params.id, query),
  );

  registerRoute(app, "getCase", routes.getCase, async ({ params, principal, reply }) => {
    const found = await getCase(db, params.id, workflowUser(principal), dependencies);
    sendEtag(reply, found.version);
    return found;
  });
  registerRoute(app, "updateCase", routes.updateCase, async ({ params, body, principal, request, reply }) => {
    const expected = readIfMatch(request.headers["if-match"]);
    const actor = await caseActorOf(db, actorOf(principal, request));
    const updated = await updateCase(db, params.id, expected, body, actor, workflowUser(principal), dependencies);
    sendEtag(reply, updated.version);
    return updated;
  });
  registerRoute(app, "archiveCase", routes.archiveCase, async ({ params, principal, request, reply }) => {
    const actor = await caseActorOf(db, actorOf(principal, request));
    const archived = await archiveCase(db, params.id, actor, workflowUser(principal), dependencies);
    sendEtag(reply, archived.version);
    return archived;
  });
  registerRoute(app, "takeCaseAction", routes.takeCaseAction, async ({ params, body, principal, request, reply }) => {
    const actor = await caseActorOf(db, actorOf(principal, request));
    const updated = await takeCaseAction(db, params.id, body, actor, workflowUser(principal), dependencies);
    sendEtag(reply, updated.version);
    return updated;
  });
  registerRoute(
    app,
    "requestTransition",
    routes.requestTransition,
    async ({ params, body, principal, request, reply }) => {
      const actor = await caseActorOf(db, actorOf(principal, request));
      const result = await requestTransition(db, params.id, body, actor, workflowUser(principal), dependencies);
      sendEtag(reply, result.case.version);
      return result;
    },
  );
  registerRoute(
    app,
    "takeTransitionAction",
    routes.takeTransitionAction,
    async ({ params, body, principal, request, reply }) => {
      const actor = await caseActorOf(db, actorOf(principal, request));
      const result = await takeTransitionAction(
        db,
        params.id,
        params.transitionId,
        body,
        actor,
        workflowUser(principal),
        dependencies,
      );
      sendEtag(reply, result.case.version);
      return result;
    },
  );
  registerRoute(app, "getCaseTimeline", routes.getCaseTimeline, ({ params }) => getCaseTimeline(db, params.id));
  registerRoute(app, "getClosedCaseProtocol", routes.getClosedCaseProtocol, ({ params }) =>
    getPinnedProtocol(db, params.id),
  );

  // Patient details are a per-case record kept in this module's table; the ETag is the revision.
  registerRoute(app, "getPatientDetails", recordRoutesTable.getPatientDetails, async ({ params, principal, reply }) => {
    const view = await getPatientDetails(db, params.id, principal.permissions);
    sendEtag(reply, view.current.revision);
    return view;
  });
  registerRoute(
    app,
    "updatePatientDetails",
    recordRoutesTable.updatePatientDetails,
    async ({ params, body, principal, request, reply }) => {
      const expected = readIfMatch(request.headers["if-match"]);
      const actor = await caseActorOf(db, actorOf(principal, request));
      const revision = await updatePatientDetails(db, params.id, expected, body, actor, principal.permissions);
      sendEtag(reply, revision.revision);
      return revision;
    },
  );
  registerRoute(app, "getPatientDetailsHistory", recordRoutesTable.getPatientDetailsHistory, ({ params }) =>
    getPatientDetailsHistory(db, params.id),
  );
  registerRoute(app, "listReviewers", routes.listReviewers, async ({ query }) => {
    const { items, total } = await listEnabledMembers(db, "reviewer", query);
    return { items, total, limit: query.limit, offset: query.offset };
  });
}
