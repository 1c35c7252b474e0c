import { billingExportRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { findUserById } from "../../identity/user-directory.js";
import {
  createBillingExport,
  getExportAccounts,
  listBillingExports,
  setExportAccounts,
} from "./billing-exports-service.js";

/** Exports for the accountant (BILLING.md "Exports for the accountant"). */
export function registerBillingExportRoutes(app: FastifyInstance, db: Db): void {
  const routes = billingExportRoutes;
  registerRoute(app, "getBillingExportAccounts", routes.getBillingExportAccounts, () => getExportAccounts(db));
  registerRoute(
    app,
    "setBillingExportAccounts",
    routes.setBillingExportAccounts,
    async ({ body, principal, request }) => {
      const user = await findUserById(db, principal.sub);
      return setExportAccounts(db, body, { name: user?.name ?? null, ...actorOf(principal, request) });
    },
  );
  registerRoute(app, "listBillingExports", routes.listBillingExports, async () => ({
    items: await listBillingExports(db),
  }));
  registerRoute(app, "createBillingExport", routes.createBillingExport, async ({ body, principal, request }) => {
    const user = await findUserById(db, principal.sub);
    return createBillingExport(db, body, { name: user?.name ?? null, ...actorOf(principal, request) });
  });
}
