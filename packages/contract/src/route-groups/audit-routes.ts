import type { RouteDefinition } from "../routes.js";
import { auditPageSchema, auditQuerySchema } from "../schemas/audit.js";

function route<const T extends RouteDefinition>(definition: T): T {
  return definition;
}

/** The audit log (PRODUCT.md §1: the admin group reads it). */
export const auditRoutes = {
  listAuditEvents: route({
    method: "GET",
    path: "/api/audit",
    summary: "Audit events, newest first, paged; filter by actor, action, target, outcome and time",
    tags: ["audit"],
    access: "audit:read",
    querystring: auditQuerySchema,
    response: auditPageSchema,
  }),
} as const;
