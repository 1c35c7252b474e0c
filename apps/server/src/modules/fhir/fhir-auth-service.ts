import type { FastifyRequest } from "fastify";
import { recordRepeatedAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import type { FhirCaller, FhirFrameOptions, FhirRefusal } from "../../fhir/fhir-frame.js";
import { authenticateSmartToken } from "./smart-token-service.js";

/**
 * How the FHIR frame knows its callers: a bearer token issued by the token endpoint (its hash in PostgreSQL), and an
 * audit row for each refusal — by address, route and reason, one row a minute counting repeats, no patient data.
 */
export function fhirFrameOptions(db: Db): FhirFrameOptions {
  return {
    authenticate: (token: string): Promise<FhirCaller | undefined> => authenticateSmartToken(db, token),
    onRefused: (request: FastifyRequest, refusal: FhirRefusal) => auditFhirRefusal(db, request, refusal),
  };
}

export async function auditFhirRefusal(db: Db, request: FastifyRequest, refusal: FhirRefusal): Promise<void> {
  const now = new Date();
  const minute = Math.floor(now.getTime() / 60_000);
  const caller = refusal.caller;
  await recordRepeatedAudit(
    db,
    {
      action: "fhir.refuse",
      outcome: "denied",
      actor: { sub: null, username: caller ? `system:${caller.systemClientId}` : null },
      ...(caller ? { target: { type: "client", id: caller.clientId } } : {}),
      ip: request.ip,
      userAgent: request.headers["user-agent"],
      details: {
        status: refusal.status,
        route: refusal.route,
        reason: refusal.reason,
        method: request.method,
        ...(caller ? { systemClientId: caller.systemClientId, scopes: caller.scopes } : {}),
      },
    },
    `fhir.refuse:${request.ip}:${caller?.smartClientId ?? ""}:${refusal.route}:${refusal.status}:${minute}`,
    now,
  );
}
