import type { FastifyInstance } from "fastify";
import { createAuditBatches } from "../audit/audit-batches.js";
import type { Db } from "../db/client.js";
import type { PatientDataAuditor } from "./register-route.js";

/**
 * Every call of a route flagged `patientData` in the contract leaves an audit row (PRODUCT.md §8): who, which
 * route, which case, from where, and how it ended — reads included, refusals included. Writes also record their
 * own event (what changed) in the transaction of the change; this row records the access itself.
 */
export function registerPatientDataAudit(app: FastifyInstance, db: Db): void {
  // Rows of reads answered at the same time share one insert and one commit (audit/audit-batches.ts).
  const recordAudit = createAuditBatches(db);
  const audit: PatientDataAuditor = async (request, route, statusCode) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const id = typeof params.id === "string" ? params.id : undefined;
    // A billing statement names a client's patients: its reads are found under that client (audit `clientId`).
    const clientId = typeof params.client === "string" ? params.client : undefined;
    try {
      await recordAudit({
        action: route.method === "GET" ? "patient-data.read" : "patient-data.write",
        outcome: statusCode < 400 ? "success" : statusCode === 401 || statusCode === 403 ? "denied" : "failure",
        actor: request.principal ? { sub: request.principal.sub, username: request.principal.username } : undefined,
        target: id
          ? { type: route.auditTarget ?? "case", id }
          : clientId
            ? { type: "client", id: clientId }
            : undefined,
        ip: request.ip,
        userAgent: request.headers["user-agent"],
        details: {
          route: route.name,
          method: route.method,
          url: request.url,
          status: statusCode,
          ...(clientId ? { clientId } : {}),
        },
      });
    } catch (error) {
      // The answer is already decided; a lost audit row is logged loudly rather than turned into a 500.
      request.log.error({ err: error, route: route.name }, "patient-data audit row could not be written");
    }
  };
  app.decorate("auditPatientData", audit);
}
