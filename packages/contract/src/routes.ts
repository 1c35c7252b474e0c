import type { z } from "zod";
import { auditRoutes } from "./route-groups/audit-routes.js";
import { billingExportRoutes } from "./route-groups/billing-export-routes.js";
import { billingRoutes } from "./route-groups/billing-routes.js";
import { bugRoutes } from "./route-groups/bug-routes.js";
import { caseRoutes } from "./route-groups/case-routes.js";
import { clientRoutes } from "./route-groups/client-routes.js";
import { criticalFindingRoutes } from "./route-groups/critical-finding-routes.js";
import { eventRoutes } from "./route-groups/event-routes.js";
import { fhirPushRoutes } from "./route-groups/fhir-push-routes.js";
import { interfaceRoutes } from "./route-groups/interface-routes.js";
import { invoiceRoutes } from "./route-groups/invoice-routes.js";
import { invoiceSendingRoutes } from "./route-groups/invoice-sending-routes.js";
import { jobRoutes } from "./route-groups/job-routes.js";
import { notificationRoutes } from "./route-groups/notification-routes.js";
import { paymentRoutes } from "./route-groups/payment-routes.js";
import { recordRoutesTable } from "./route-groups/record-routes.js";
import { reportRoutes } from "./route-groups/report-routes.js";
import { serviceLevelRoutes } from "./route-groups/service-level-routes.js";
import { smartClientRoutes } from "./route-groups/smart-client-routes.js";
import { systemRoutes } from "./route-groups/system-routes.js";
import { userRoutes } from "./route-groups/user-routes.js";
import { watchRoutes } from "./route-groups/watch-routes.js";

// Re-exported here (not from index.ts) so the group stays reachable on its own: see system-routes.ts.
export { systemRoutes };

/**
 * The API route table: every route's method, path, schemas and the access it requires. The server registers
 * handlers against these entries, the OpenAPI document is generated from them, and the authorization-matrix
 * test walks them. A route that is not here does not exist.
 */
export const routes = {
  ...clientRoutes,
  ...caseRoutes,
  ...recordRoutesTable,
  ...systemRoutes,
  ...userRoutes,
  ...auditRoutes,
  ...billingRoutes,
  ...bugRoutes,
  ...jobRoutes,
  ...watchRoutes,
  ...serviceLevelRoutes,
  ...notificationRoutes,
  ...eventRoutes,
  ...criticalFindingRoutes,
  ...reportRoutes,
  ...interfaceRoutes,
  ...smartClientRoutes,
  ...fhirPushRoutes,
  ...invoiceRoutes,
  ...invoiceSendingRoutes,
  ...billingExportRoutes,
  ...paymentRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RouteData<N extends RouteName> = Routes[N]["response"] extends z.ZodType
  ? z.infer<Routes[N]["response"]>
  : null;
