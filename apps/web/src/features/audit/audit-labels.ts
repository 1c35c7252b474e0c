import type { AuditEvent, AuditOutcome } from "@vigil/contract";

export const outcomeLabels: Record<AuditOutcome, string> = {
  success: "Success",
  failure: "Failure",
  denied: "Denied",
};

/**
 * Actions the server records (grepped from `apps/server/src`), offered as suggestions for the exact-match action
 * filter. Only a hint: the filter takes any text, so an action added later can still be searched for.
 */
export const commonActions = [
  "auth.sign-in",
  "auth.federated-sign-in",
  "auth.federated-link",
  "auth.challenge",
  "auth.mfa",
  "auth.mfa-preference",
  "auth.new-password",
  "auth.change-password",
  "auth.forgot-password",
  "auth.password-reset",
  "auth.totp-associate",
  "auth.totp-verify",
  "auth.update-attributes",
  "auth.attribute-code",
  "auth.verify-attribute",
  "auth.revoke-token",
  "auth.global-sign-out",
  "auth.throttle",
  "user.create",
  "user.enable",
  "user.disable",
  "user.access-groups",
  "user.reset-password",
  "user.reset-mfa",
  "user.set-sms-mfa",
  "user.temporary-password.send",
  "patient-data.read",
  "patient-data.write",
  "client.create",
  "client.update",
  "client.archive",
  "client.restore",
  "protocol.revise",
  "contact.create",
  "contact.update",
  "contact.remove",
  "link.create",
  "link.update",
  "link.remove",
  "case.create",
  "case.update",
  "case.archive",
  "case.patient-details.update",
  "hl7.inbound",
  "interface-profile.revise",
  "interface-profile.test-message",
  "case.assign-technologist",
  "case.end-assignment",
  "case.assign-reviewer",
  "case.set-priority",
  "case.acknowledge",
  "case.transition",
  "case.transition.request",
  "case.transition.approve",
  "case.transition.reject",
  "case.transition.cancel",
  "case.transition.comment",
  "case-record.create",
  "case-record.revise",
  "billing.rate.set",
  "bug.report",
  "bug.status-change",
] as const;

function shortValue(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "string") return value.length > 40 ? `${value.slice(0, 39)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const simple = value.every((item) => ["string", "number", "boolean"].includes(typeof item));
    return simple && value.length <= 4 ? value.join(", ") : `${value.length} items`;
  }
  if (typeof value === "object") return Object.keys(value).join(", ") || "{}";
  return String(value);
}

/** Details in one short line ("caseNumber: CM-2026-000123 · from: intake"), for the table; the row expands to all. */
export function summariseDetails(details: AuditEvent["details"], maxLength = 120): string {
  if (!details) return "";
  const text = Object.entries(details)
    .map(([key, value]) => `${key}: ${shortValue(value)}`)
    .join(" · ");
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}
