import type { z } from "zod";
import type { Access } from "./access.js";
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
export type RouteDefinition = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  /** Reads or writes patient data: every call is written to the audit log. */
  patientData?: boolean;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  /** Request headers the route reads (If-Match); validated like the rest of the input. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of a 2xx answer; the envelope is added by the server. `null` for 204. */
  response: z.ZodType | null;
  successStatus?: 200 | 201 | 204;
};

function route<const T extends RouteDefinition>(definition: T): T {
  return definition;
}

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
