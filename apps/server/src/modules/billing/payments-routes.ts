import { paymentRoutes } from "@vigil/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import type { Principal } from "../../http/principal.js";
import { registerRoute } from "../../http/register-route.js";
import { findUserById } from "../../identity/user-directory.js";
import type { BillingSettings } from "./billing-service.js";
import { listInvoiceAllocations } from "./invoice-allocations-service.js";
import {
  allocatePayment,
  applyCredit,
  getPayment,
  listPayments,
  recordPayment,
  refundPayment,
  reversePayment,
  writeOffInvoice,
} from "./payments-service.js";
import { getAgingReport, getStatementOfAccount, statementOfAccountCsv } from "./receivables-service.js";
import { renderStatementOfAccountPdf } from "./statement-of-account-pdf.js";

/** Payments and receivables (BILLING.md): the contract's `paymentRoutes`, each one call of a service. */
export function registerPaymentRoutes(app: FastifyInstance, db: Db, settings: BillingSettings): void {
  const routes = paymentRoutes;
  // The display name is read outside the transaction (PGlite has one connection, and a transaction holds it).
  const actorFor = async (principal: Principal, request: FastifyRequest) => {
    const user = await findUserById(db, principal.sub);
    return { name: user?.name ?? null, ...actorOf(principal, request) };
  };

  registerRoute(app, "listPayments", routes.listPayments, ({ query }) => listPayments(db, query));
  registerRoute(app, "recordPayment", routes.recordPayment, async ({ body, principal, request }) =>
    recordPayment(db, body, await actorFor(principal, request), settings),
  );
  registerRoute(app, "getPayment", routes.getPayment, ({ params }) => getPayment(db, params.id));
  registerRoute(app, "allocatePayment", routes.allocatePayment, async ({ params, body, principal, request }) =>
    allocatePayment(db, params.id, body, await actorFor(principal, request)),
  );
  registerRoute(app, "reversePayment", routes.reversePayment, async ({ params, body, principal, request }) =>
    reversePayment(db, params.id, body, await actorFor(principal, request)),
  );
  registerRoute(app, "refundPayment", routes.refundPayment, async ({ params, body, principal, request }) =>
    refundPayment(db, params.id, body, await actorFor(principal, request)),
  );
  registerRoute(app, "applyClientCredit", routes.applyClientCredit, async ({ params, body, principal, request }) =>
    applyCredit(db, params.client, body, await actorFor(principal, request)),
  );
  registerRoute(app, "writeOffInvoice", routes.writeOffInvoice, async ({ params, body, principal, request }) =>
    writeOffInvoice(db, params.id, body, await actorFor(principal, request)),
  );
  registerRoute(app, "listInvoiceAllocations", routes.listInvoiceAllocations, ({ params }) =>
    listInvoiceAllocations(db, params.id),
  );
  registerRoute(app, "getAgingReport", routes.getAgingReport, ({ query }) => getAgingReport(db, query, settings));
  registerRoute(app, "getStatementOfAccount", routes.getStatementOfAccount, ({ params, query }) =>
    getStatementOfAccount(db, params.client, query, settings),
  );
  registerRoute(app, "getStatementOfAccountCsv", routes.getStatementOfAccountCsv, async ({ params, query }) => ({
    body: statementOfAccountCsv(await getStatementOfAccount(db, params.client, query, settings)),
    fileName: `statement-of-account-${query.from}-${query.to}.csv`,
  }));
  registerRoute(app, "getStatementOfAccountPdf", routes.getStatementOfAccountPdf, async ({ params, query }) => {
    const statement = await getStatementOfAccount(db, params.client, query, settings);
    const bytes = await renderStatementOfAccountPdf(statement, settings.issuer);
    return {
      body: bytes,
      fileName: `statement-of-account-${query.from}-${query.to}.pdf`,
      disposition: "inline" as const,
    };
  });
}
