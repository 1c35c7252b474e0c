import { route } from "../route-definition.js";
import { breadcrumbsQuerySchema, breadcrumbsSchema, chromeSchema } from "../schemas/chrome.js";
import { healthSchema, publicConfigSchema } from "../schemas/system.js";

/**
 * What every screen needs before its own data: liveness, the public configuration read before sign-in, the menu
 * and the breadcrumbs. A group of its own so the web app's signed-in shell imports these four routes, not the
 * whole table with every schema.
 */
export const systemRoutes = {
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
} as const;
