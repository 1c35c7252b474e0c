import { bugRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { readIfMatch, sendEtag } from "../../http/versioning.js";
import { changeBugStatus, fileBugReport, getBugReport, listBugReports } from "./bug-reports-service.js";
import { createTestCatalogueStore } from "./test-catalogue-repository.js";
import { listUnitTests } from "./unit-tests-service.js";

/**
 * Bug reports and the catalogue of the product's own tests (PRODUCT.md §6). The integration self-checks of the
 * same contract group are registered by their own module.
 */
export function registerBugRoutes(app: FastifyInstance, db: Db, config: Config): void {
  const routes = bugRoutes;
  const catalogue = createTestCatalogueStore(config.testCatalogueFile, app.log);

  registerRoute(app, "createBugReport", routes.createBugReport, async ({ body, principal, request, reply }) => {
    const report = await fileBugReport(db, body, actorOf(principal, request));
    sendEtag(reply, report.version);
    return report;
  });
  registerRoute(app, "listBugReports", routes.listBugReports, ({ query }) => listBugReports(db, query));
  registerRoute(app, "getBugReport", routes.getBugReport, async ({ params, reply }) => {
    const report = await getBugReport(db, params.id);
    sendEtag(reply, report.version);
    return report;
  });
  registerRoute(app, "changeBugStatus", routes.changeBugStatus, async ({ params, body, principal, request, reply }) => {
    const expected = readIfMatch(request.headers["if-match"]);
    const report = await changeBugStatus(db, params.id, expected, body, actorOf(principal, request));
    sendEtag(reply, report.version);
    return report;
  });
  registerRoute(app, "listUnitTests", routes.listUnitTests, ({ query }) => listUnitTests(catalogue, query));
}
