import type { FastifyRequest } from "fastify";
import { auditTextLimit, recordRepeatedAudit } from "../audit/record-audit.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors/app-error.js";
import { hitRateLimit } from "../identity/rate-limits-repository.js";

/*
 * The one gate of every public one-time-link call (a report's or an invoice's download link, a critical finding's
 * acknowledgement link): no account, so the address and the token are all there is to go on.
 *
 * - A token whose signature fails counts against the caller's address (`link-refusals:<ip>`, shared by both kinds of
 *   link): past the limit in a window the answer is 429 with `Retry-After` instead of 404. Its audit is one row per
 *   address and window with a count, however many calls came.
 * - A token whose signature holds is never refused because of anyone else's calls from the same address (a hospital's
 *   NAT puts every clinician behind one): it counts only against its own link (`link:<kind>:<id>`), the holder's own
 *   calls, so a genuine link cannot be used to flood the log either.
 *
 * Counters are the shared `rate_limits` rows, so every instance sees the same counts.
 */

export type LinkKind = "report-link" | "finding-link" | "invoice-link";

/** The caller of a public call as the audit log keeps them: address and user agent, capped like every audit row. */
export type LinkCaller = { ip: string; userAgent: string | undefined };

/** Calls per window, and the window, of the link gate (IDENTITY_REQUESTS_PER_IP / IDENTITY_IP_WINDOW_SECONDS). */
export type LinkLimits = { requestsPerIp: number; ipWindowSeconds: number };

export function linkCallerOf(request: FastifyRequest): LinkCaller {
  return {
    ip: request.ip.slice(0, auditTextLimit),
    userAgent: request.headers["user-agent"]?.slice(0, auditTextLimit),
  };
}

function tooMany(retryAfterSeconds: number): AppError {
  return new AppError("too_many_requests", "Too many requests from this address; try again in a moment.", undefined, {
    "retry-after": String(retryAfterSeconds),
  });
}

function windowStartOf(now: Date, windowSeconds: number): string {
  const windowMs = windowSeconds * 1000;
  return new Date(Math.floor(now.getTime() / windowMs) * windowMs).toISOString();
}

export type LinkGate = {
  kind: LinkKind;
  /** The audit action of this call (`report-link.lookup`, `critical-finding.acknowledge`, …). */
  action: string;
  limits: LinkLimits;
  caller: LinkCaller;
  now: Date;
  /** What the refusal's audit row says besides the reason (e.g. `{ via: "link" }`). */
  auditDetails?: Record<string, unknown>;
};

/**
 * The claims of a genuinely signed token (`verify` checks the signature, no database), or the refusal: 404 for a
 * forged one while the address is under its limit, 429 with `Retry-After` past it; 429 for a genuine link called too
 * often by its own holder.
 */
export async function admitLinkCall<T extends { id: string }>(
  db: Db,
  gate: LinkGate,
  verify: () => T | undefined,
): Promise<T> {
  const { limits, caller, now } = gate;
  const claims = verify();
  if (claims) {
    const hit = await hitRateLimit(
      db,
      `link:${gate.kind}:${claims.id}`,
      limits.requestsPerIp,
      limits.ipWindowSeconds,
      now,
    );
    if (hit.allowed) return claims;
    await recordLinkRefusal(db, gate, "throttled", `${gate.kind}:${claims.id}`, { linkId: claims.id });
    throw tooMany(hit.retryAfterSeconds);
  }
  const hit = await hitRateLimit(db, `link-refusals:${caller.ip}`, limits.requestsPerIp, limits.ipWindowSeconds, now);
  await recordLinkRefusal(db, gate, hit.allowed ? "invalid" : "throttled", caller.ip);
  if (!hit.allowed) throw tooMany(hit.retryAfterSeconds);
  throw new AppError("not_found", "This link is not valid.");
}

/**
 * A refused link call, counted on one row per action, reason, key and window (audit/record-audit.ts), so a flood of
 * forged calls from one address is one row with its count.
 */
export async function recordLinkRefusal(
  db: Db,
  gate: Omit<LinkGate, "kind">,
  reason: string,
  key: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { caller, now, limits } = gate;
  await recordRepeatedAudit(
    db,
    {
      action: gate.action,
      outcome: reason === "throttled" ? "denied" : "failure",
      ip: caller.ip,
      userAgent: caller.userAgent,
      details: Object.assign({}, gate.auditDetails, { reason }, details),
    },
    `${gate.action}|${reason}|${key}|${windowStartOf(now, limits.ipWindowSeconds)}`,
    now,
  );
}
