import { billingRoutes, invoiceRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { findUserById } from "../../identity/user-directory.js";
import { getBillingCheck } from "./billing-check-service.js";
import { setBillingRate } from "./billing-rates-service.js";
import { billingSettingsOf, listBillingMonths } from "./billing-service.js";
import { getBillingStatement, issueBillingStatement, issueStatementAdjustment } from "./billing-statements-service.js";
import {
  exportInvoicesCsv,
  getClientBillingProfile,
  getInvoice,
  getInvoicePdf,
  listInvoices,
  setClientBillingProfile,
} from "./invoices-service.js";
import { registerPaymentRoutes } from "./payments-routes.js";
import { getBillableHoursReport } from "./reporting-service.js";

/** Billing and reporting (PRODUCT.md §5): the contract's `billingRoutes`, each one call of a service. */
export function registerBillingRoutes(app: FastifyInstance, db: Db, config: Config): void {
  const settings = billingSettingsOf(config);
  const routes = billingRoutes;

  registerRoute(app, "listBillingMonths", routes.listBillingMonths, ({ query }) =>
    listBillingMonths(db, query, settings.currency),
  );
  registerRoute(app, "getBillingStatement", routes.getBillingStatement, async ({ params, reply }) => {
    const statement = await getBillingStatement(db, params.client, params.month, settings);
    // Issuing names this in If-Match: only the figures the user looked at are issued.
    reply.header("etag", `"${statement.fingerprint}"`);
    return statement;
  });
  registerRoute(app, "issueBillingStatement", routes.issueBillingStatement, async ({ params, principal, request }) => {
    const user = await findUserById(db, principal.sub);
    const actor = { name: user?.name ?? null, ...actorOf(principal, request) };
    return issueBillingStatement(db, params.client, params.month, request.headers["if-match"], actor, settings);
  });
  registerRoute(
    app,
    "issueStatementAdjustment",
    routes.issueStatementAdjustment,
    async ({ params, body, principal, request }) => {
      const user = await findUserById(db, principal.sub);
      const actor = { name: user?.name ?? null, ...actorOf(principal, request) };
      const ifMatch = request.headers["if-match"];
      return issueStatementAdjustment(db, params.client, params.month, ifMatch, body.reason, actor, settings);
    },
  );
  registerRoute(app, "setBillingRate", routes.setBillingRate, async ({ params, body, principal, request }) => {
    // The display name is read outside the transaction (PGlite has one connection, and a transaction holds it).
    const user = await findUserById(db, principal.sub);
    const actor = { name: user?.name ?? null, ...actorOf(principal, request) };
    return setBillingRate(db, params.client, params.month, body, actor);
  });
  registerRoute(app, "getBillingCheck", routes.getBillingCheck, ({ params }) =>
    getBillingCheck(db, params.id, settings),
  );
  registerRoute(app, "getBillableHoursReport", routes.getBillableHoursReport, ({ query }) =>
    getBillableHoursReport(db, query),
  );

  registerRoute(app, "listInvoices", invoiceRoutes.listInvoices, ({ query }) => listInvoices(db, query));
  registerRoute(app, "exportInvoices", invoiceRoutes.exportInvoices, async ({ query }) => ({
    body: await exportInvoicesCsv(db, query),
    fileName: `invoices${query.from ? `-${query.from}` : ""}${query.to ? `-${query.to}` : ""}.csv`,
  }));
  registerRoute(app, "getInvoice", invoiceRoutes.getInvoice, ({ params }) => getInvoice(db, params.id));
  registerRoute(app, "getInvoicePdf", invoiceRoutes.getInvoicePdf, async ({ params }) => {
    const pdf = await getInvoicePdf(db, params.id);
    return { body: pdf.bytes, fileName: pdf.fileName, disposition: "inline" as const };
  });
  registerRoute(app, "getClientBillingProfile", invoiceRoutes.getClientBillingProfile, ({ params }) =>
    getClientBillingProfile(db, params.client),
  );
  registerRoute(
    app,
    "setClientBillingProfile",
    invoiceRoutes.setClientBillingProfile,
    async ({ params, body, principal, request }) => {
      const user = await findUserById(db, principal.sub);
      const actor = { name: user?.name ?? null, ...actorOf(principal, request) };
      return setClientBillingProfile(db, params.client, body, actor);
    },
  );
  registerPaymentRoutes(app, db, settings);
}
