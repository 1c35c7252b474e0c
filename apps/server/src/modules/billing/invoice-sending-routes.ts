import { invoiceSendingRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { findUserById } from "../../identity/user-directory.js";
import { type LinkLimits, linkCallerOf } from "../../links/link-calls.js";
import { downloadInvoiceLink, invoiceLinkSecret } from "./invoice-links-service.js";
import { listInvoiceSendings, sendInvoice } from "./invoice-sending-service.js";

/** Sending invoices to the client's billing contacts, and the public download of an invoice's one-time link (BILLING.md "Sending invoices and reminders"). */
export function registerInvoiceSendingRoutes(app: FastifyInstance, db: Db, options: { linkLimits: LinkLimits }): void {
  const routes = invoiceSendingRoutes;
  // The links' key is made before the first request: a refused link call must write nothing, not even the key.
  app.addHook("onReady", async () => {
    await invoiceLinkSecret(db);
  });
  registerRoute(app, "listInvoiceSendings", routes.listInvoiceSendings, async ({ params }) => ({
    items: await listInvoiceSendings(db, params.id),
  }));
  registerRoute(app, "sendInvoice", routes.sendInvoice, async ({ params, principal, request }) => {
    const user = await findUserById(db, principal.sub);
    return sendInvoice(db, params.id, { name: user?.name ?? null, ...actorOf(principal, request) });
  });
  registerRoute(app, "downloadInvoiceLink", routes.downloadInvoiceLink, async ({ body, request }) => {
    const pdf = await downloadInvoiceLink({ db, linkLimits: options.linkLimits }, body.token, linkCallerOf(request));
    return { body: pdf.bytes, fileName: pdf.fileName, disposition: "attachment" as const };
  });
}
