import { route } from "../route-definition.js";
import {
  bugReportPageSchema,
  bugReportQuerySchema,
  bugReportSchema,
  changeBugStatusRequestSchema,
  createBugReportRequestSchema,
  integrationCheckListSchema,
  integrationCheckParamsSchema,
  integrationResultSchema,
  unitTestPageSchema,
  unitTestQuerySchema,
} from "../schemas/bugs.js";
import { idParamsSchema, ifMatchHeadersSchema } from "../schemas/common.js";

const tags = ["bugs"];

/**
 * Bugs and the operator's tools (PRODUCT.md §6). Anyone signed in files a report; developers and
 * administrators triage. Every filing and status change is audited in the same transaction.
 */
export const bugRoutes = {
  createBugReport: route({
    method: "POST",
    path: "/api/bugs/reports",
    summary: "File a bug report; the web app adds the page, browser, screen and app version",
    tags,
    access: "signed-in",
    body: createBugReportRequestSchema,
    response: bugReportSchema,
    successStatus: 201,
  }),
  listBugReports: route({
    method: "GET",
    path: "/api/bugs/reports",
    summary: "Bug reports, server-paged; filter by status, severity, reporter and words",
    tags,
    access: "bugs:triage",
    querystring: bugReportQuerySchema,
    response: bugReportPageSchema,
  }),
  getBugReport: route({
    method: "GET",
    path: "/api/bugs/reports/:id",
    summary: "One bug report with its context and history (its version is also the ETag)",
    tags,
    access: "bugs:triage",
    params: idParamsSchema,
    response: bugReportSchema,
  }),
  changeBugStatus: route({
    method: "PATCH",
    path: "/api/bugs/reports/:id",
    summary: "Move a bug report to a new status with a comment (If-Match: the version read)",
    tags,
    access: "bugs:triage",
    params: idParamsSchema,
    headers: ifMatchHeadersSchema,
    body: changeBugStatusRequestSchema,
    response: bugReportSchema,
  }),
  listUnitTests: route({
    method: "GET",
    path: "/api/bugs/unit-tests",
    summary: "The product's own tests with the results of their last run, as the test run wrote them (read-only)",
    tags,
    access: "tests:read",
    querystring: unitTestQuerySchema,
    response: unitTestPageSchema,
  }),
  listIntegrationChecks: route({
    method: "GET",
    path: "/api/bugs/integration-checks",
    summary: "The live self-checks this deployment offers",
    tags,
    access: "integration:run",
    response: integrationCheckListSchema,
  }),
  runIntegrationCheck: route({
    method: "POST",
    path: "/api/bugs/integration-checks/:check/run",
    summary: "Run one live self-check of this deployment now and answer its result (pass, fail or skipped)",
    tags,
    access: "integration:run",
    params: integrationCheckParamsSchema,
    response: integrationResultSchema,
  }),
};
