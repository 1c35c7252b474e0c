import type { AccessGroup, User } from "@vigil/contract";

/** How the screens name each access group, and what it opens (PRODUCT.md §1). */
export const groupLabels: Record<AccessGroup, { label: string; description: string }> = {
  admin: { label: "Administrator", description: "Everything, including users, access groups and the audit log" },
  coordinator: { label: "Coordinator", description: "Clients, case intake, assignments, all case records, reporting" },
  technologist: { label: "Technologist", description: "Monitoring records; start and end monitoring" },
  reviewer: { label: "Reviewer", description: "Interpretations; move cases between preview and reviewed" },
  billing: { label: "Billing", description: "Billing notes, rates and statements; reporting; closing cases" },
  developer: { label: "Developer", description: "Bug list, unit tests, integration testing" },
};

export const statusLabels: Record<User["status"], string> = {
  CONFIRMED: "Confirmed",
  FORCE_CHANGE_PASSWORD: "Temporary password",
  RESET_REQUIRED: "Reset required",
};

/** "Off", or the second factors a user has, the preferred one marked. */
export function mfaLabel(mfa: User["mfa"]): string {
  const factors = [
    mfa.totp ? `Authenticator app${mfa.preferred === "SOFTWARE_TOKEN_MFA" ? " (preferred)" : ""}` : null,
    mfa.sms ? `SMS${mfa.preferred === "SMS_MFA" ? " (preferred)" : ""}` : null,
  ].filter(Boolean);
  return factors.length > 0 ? factors.join(", ") : "Off";
}

export function hasMfa(user: User): boolean {
  return user.mfa.sms || user.mfa.totp;
}
