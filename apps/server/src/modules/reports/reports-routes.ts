import { reportRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { linkCallerOf } from "../../links/link-calls.js";
import { exportDisclosuresCsv, listDisclosures } from "./disclosures-service.js";
import { reportLinkSecret } from "./report-delivery.js";
import { downloadReportLink, lookUpReportLink } from "./report-links-service.js";
import {
  getReportDocument,
  getReportFhir,
  getReportPdf,
  listCaseReports,
  type ReportsContext,
  resendReport,
  voidReportLink,
} from "./reports-service.js";

/** A case's signed reports, their PDF, FHIR and printable-page forms, re-sending and voiding links, the download link's calls and the disclosures. */
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
    getReportFhir(ctx, params.id, params.reportId, actorOf(principal, request)),
  );
  registerRoute(app, "getReportDocument", reportRoutes.getReportDocument, ({ params, principal, request }) =>
    getReportDocument(db, params.id, params.reportId, actorOf(principal, request)),
  );
  registerRoute(app, "resendReport", reportRoutes.resendReport, ({ params, body, principal, request }) =>
    resendReport(ctx, params.id, params.reportId, body.contactIds, actorOf(principal, request)),
  );
  registerRoute(app, "voidReportLink", reportRoutes.voidReportLink, ({ params, principal, request }) =>
    voidReportLink(db, params.id, params.reportId, params.deliveryId, actorOf(principal, request)),
  );
  registerRoute(app, "lookUpReportLink", reportRoutes.lookUpReportLink, ({ body, request }) =>
    lookUpReportLink(ctx, body.token, linkCallerOf(request)),
  );
  registerRoute(app, "downloadReportLink", reportRoutes.downloadReportLink, async ({ body, request }) => {
    const pdf = await downloadReportLink(ctx, body.token, linkCallerOf(request));
    return { body: pdf.bytes, fileName: pdf.fileName, disposition: "attachment" as const };
  });
  registerRoute(app, "listDisclosures", reportRoutes.listDisclosures, ({ query }) => listDisclosures(db, query));
  registerRoute(app, "exportDisclosures", reportRoutes.exportDisclosures, async ({ query }) => ({
    body: await exportDisclosuresCsv(db, query),
    fileName: `disclosures-${query.mrn}.csv`,
  }));
}
