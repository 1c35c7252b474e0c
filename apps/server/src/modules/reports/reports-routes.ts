import { reportRoutes } from "@vigil/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { exportDisclosuresCsv, listDisclosures } from "./disclosures-service.js";
import { reportLinkSecret } from "./report-delivery.js";
import { downloadReportLink, type LinkCaller, lookUpReportLink } from "./report-links-service.js";
import {
  getReportDocument,
  getReportFhir,
  getReportPdf,
  listCaseReports,
  type ReportsContext,
  resendReport,
} from "./reports-service.js";

function callerOf(request: FastifyRequest): LinkCaller {
  return { ip: request.ip, userAgent: request.headers["user-agent"] };
}

/** A case's signed reports, their PDF, FHIR and printable-page forms, re-sending, the download link's calls and the disclosures. */
export function registerReportRoutes(app: FastifyInstance, ctx: ReportsContext): void {
  const { db } = ctx;
  // The links' key is made before the first request: a refused link call must write nothing, not even the key.
  app.addHook("onReady", async () => {
    await reportLinkSecret(db);
  });
  registerRoute(app, "listCaseReports", reportRoutes.listCaseReports, ({ params, principal }) =>
    listCaseReports(ctx, params.id, principal.permissions),
  );
  registerRoute(app, "getReportPdf", reportRoutes.getReportPdf, async ({ params, principal, request }) => {
    const pdf = await getReportPdf(db, params.id, params.reportId, actorOf(principal, request));
    return { body: pdf.bytes, fileName: pdf.fileName, disposition: "inline" as const };
  });
  registerRoute(app, "getReportFhir", reportRoutes.getReportFhir, ({ params, principal, request }) =>
    getReportFhir(db, params.id, params.reportId, actorOf(principal, request)),
  );
  registerRoute(app, "getReportDocument", reportRoutes.getReportDocument, ({ params, principal, request }) =>
    getReportDocument(db, params.id, params.reportId, actorOf(principal, request)),
  );
  registerRoute(app, "resendReport", reportRoutes.resendReport, ({ params, body, principal, request }) =>
    resendReport(ctx, params.id, params.reportId, body.contactIds, actorOf(principal, request)),
  );
  registerRoute(app, "lookUpReportLink", reportRoutes.lookUpReportLink, ({ body, request }) =>
    lookUpReportLink(db, body.token, callerOf(request)),
  );
  registerRoute(app, "downloadReportLink", reportRoutes.downloadReportLink, async ({ body, request }) => {
    const pdf = await downloadReportLink(db, body.token, callerOf(request));
    return { body: pdf.bytes, fileName: pdf.fileName, disposition: "attachment" as const };
  });
  registerRoute(app, "listDisclosures", reportRoutes.listDisclosures, ({ query }) => listDisclosures(db, query));
  registerRoute(app, "exportDisclosures", reportRoutes.exportDisclosures, async ({ query }) => ({
    body: await exportDisclosuresCsv(db, query),
    fileName: `disclosures-${query.mrn}.csv`,
  }));
}
