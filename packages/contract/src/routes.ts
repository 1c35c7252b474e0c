import type { z } from "zod";
import { route } from "./route-definition.js";
import { auditRoutes } from "./route-groups/audit-routes.js";
import { billingRoutes } from "./route-groups/billing-routes.js";
import { bugRoutes } from "./route-groups/bug-routes.js";
import { caseRoutes } from "./route-groups/case-routes.js";
import { clientRoutes } from "./route-groups/client-routes.js";
import { recordRoutesTable } from "./route-groups/record-routes.js";
import { userRoutes } from "./route-groups/user-routes.js";
import { breadcrumbsQuerySchema, breadcrumbsSchema, chromeSchema } from "./schemas/chrome.js";
import { healthSchema, publicConfigSchema } from "./schemas/system.js";

/**
 * The API route table: every route's method, path, schemas and the access it requires. The server registers
 * handlers against these entries, the OpenAPI document is generated from them, and the authorization-matrix
 * test walks them. A route that is not here does not exist.
 */
export const routes = {
  ...clientRoutes,
  ...caseRoutes,
  ...recordRoutesTable,
  getHealth: route({
    method: "GET",
    path: "/api/health",
    summary: "Liveness with a database round trip",
    tags: ["system"],
    access: "public",
    response: healthSchema,
  }),
  getPublicConfig: route({
    method: "GET",
    path: "/api/config",
    summary: "Identity endpoint and password policy the web app needs before sign-in",
    tags: ["system"],
    access: "public",
    response: publicConfigSchema,
  }),
  getChrome: route({
    method: "GET",
    path: "/api/chrome",
    summary: "The navigation menu filtered by the caller's access groups (403 Access denied without any)",
    tags: ["chrome"],
    access: "signed-in",
    response: chromeSchema,
  }),
  getBreadcrumbs: route({
    method: "GET",
    path: "/api/chrome/breadcrumbs",
    summary: "The breadcrumb trail for a web route, with client names and case numbers resolved",
    tags: ["chrome"],
    access: "signed-in",
    querystring: breadcrumbsQuerySchema,
    response: breadcrumbsSchema,
  }),
  ...userRoutes,
  ...auditRoutes,
  ...billingRoutes,
  ...bugRoutes,
} as const;

export type Routes = typeof routes;
export type RouteName = keyof Routes;
export type RouteData<N extends RouteName> = Routes[N]["response"] extends z.ZodType
  ? z.infer<Routes[N]["response"]>
  : null;
