import { invoiceSendingRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { findUserById } from "../../identity/user-directory.js";
import { listInvoiceSendings, sendInvoice } from "./invoice-sending-service.js";

/** Sending invoices to the client's billing contacts (BILLING.md "Sending invoices and reminders"). */
export function registerInvoiceSendingRoutes(app: FastifyInstance, db: Db): void {
  const routes = invoiceSendingRoutes;
  registerRoute(app, "listInvoiceSendings", routes.listInvoiceSendings, async ({ params }) => ({
    items: await listInvoiceSendings(db, params.id),
  }));
  registerRoute(app, "sendInvoice", routes.sendInvoice, async ({ params, principal, request }) => {
    const user = await findUserById(db, principal.sub);
    return sendInvoice(db, params.id, { ...actorOf(principal, request), name: user?.name ?? null });
  });
}
