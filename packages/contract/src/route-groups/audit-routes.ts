import { route } from "../route-definition.js";
import { auditPageSchema, auditQuerySchema } from "../schemas/audit.js";

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
