import { z } from "zod";

/** Access groups of PRODUCT.md §1. Permissions come only from groups. */
export const accessGroups = ["admin", "coordinator", "technologist", "reviewer", "billing", "developer"] as const;
export const accessGroupSchema = z.enum(accessGroups);
export type AccessGroup = z.infer<typeof accessGroupSchema>;

/**
 * Fine-grained permissions. Routes and menu entries name one of these; groups grant them.
 * Later features add permissions here, never checks on group names elsewhere.
 */
export const permissions = [
  "users:manage",
  "audit:read",
  "clients:read",
  "clients:write",
  "clients:restore",
  "cases:read",
  /** Create cases, and change their intake details (study type, video). */
  "cases:create",
  /** Assign technologists and reviewers, and set a case's priority. */
  "cases:assign",
  /** Reach `PATCH cases/{id}`; each field needs its own permission as well (`caseFieldRules`). */
  "cases:update",
  /** Reach the workflow routes (actions, transitions, transition actions); each move or action names its own. */
  "cases:workflow",
  /** intake → monitoring, monitoring → preview. */
  "cases:monitor",
  /** preview → monitoring (with a reason). */
  "cases:return",
  /** preview → reviewed, reviewed → preview (addendum). */
  "cases:review",
  /** reviewed → closed. */
  "cases:close",
  /** Ask for closed → reviewed; it waits for an administrator's approval. */
  "cases:reopen",
  /** Approve or reject a pending move (re-opening a closed case). */
  "cases:approve",
  /** A reviewer takes a STAT case. */
  "cases:acknowledge",
  /** Archive a case in any stage (others may archive only cases still in intake). */
  "cases:archive-any",
  /** Raise a critical finding on a case in monitoring or preview (technologists and reviewers see the EEG). */
  "findings:raise",
  /** Record an acknowledgement taken by phone, or cancel a finding with a reason. */
  "findings:handle",
  "records:monitoring",
  "records:interpretation",
  /** Sign an interpretation as final (a reviewer's act: coordinators may draft, technologists never interpret). */
  "records:sign-interpretation",
  "records:case-notes",
  "records:billing-notes",
  /** Re-send a signed report's download link to the client's contacts (it goes out by itself when signed). */
  "reports:send",
  "billing:read",
  "billing:write",
  "reporting:read",
  "bugs:triage",
  "tests:read",
  "integration:run",
  /** Read clients' interface profiles and the HL7 message log (each message read is a patient-data read). */
  "interfaces:read",
  /** Change interface profiles, send test messages, replay logged messages. */
  "interfaces:manage",
] as const;
export const permissionSchema = z.enum(permissions);
export type Permission = z.infer<typeof permissionSchema>;

const readOnly: Permission[] = ["clients:read", "cases:read"];

export const groupPermissions: Record<AccessGroup, readonly Permission[]> = {
  admin: permissions,
  coordinator: [
    ...readOnly,
    "clients:write",
    "cases:create",
    "cases:assign",
    "cases:update",
    "cases:workflow",
    "cases:monitor",
    "cases:return",
    "cases:reopen",
    "findings:handle",
    "records:monitoring",
    "records:interpretation",
    "records:case-notes",
    "records:billing-notes",
    "reports:send",
    "reporting:read",
    "interfaces:read",
  ],
  technologist: [
    ...readOnly,
    "cases:update",
    "cases:workflow",
    "cases:monitor",
    "findings:raise",
    "findings:handle",
    "records:monitoring",
    "records:case-notes",
  ],
  reviewer: [
    ...readOnly,
    "cases:workflow",
    "cases:return",
    "cases:review",
    "cases:reopen",
    "cases:acknowledge",
    "findings:raise",
    "findings:handle",
    "records:interpretation",
    "records:sign-interpretation",
    "records:case-notes",
    "reports:send",
  ],
  billing: [
    ...readOnly,
    "cases:workflow",
    "cases:close",
    "cases:reopen",
    "records:billing-notes",
    "billing:read",
    "billing:write",
    "reporting:read",
  ],
  developer: ["bugs:triage", "tests:read", "integration:run"],
};

/**
 * What a route or page requires:
 * - `public`: no token needed;
 * - `signed-in`: any valid token, even a user without groups (profile, bug reports, the menu call);
 * - a permission: granted by at least one of the caller's groups.
 */
export type Access = "public" | "signed-in" | Permission;

export function permissionsOf(groups: readonly string[]): Set<Permission> {
  const granted = new Set<Permission>();
  for (const group of groups) {
    const parsed = accessGroupSchema.safeParse(group);
    if (!parsed.success) continue;
    for (const permission of groupPermissions[parsed.data]) granted.add(permission);
  }
  return granted;
}

export function isAllowed(access: Access, groups: readonly string[] | undefined): boolean {
  if (access === "public") return true;
  if (groups === undefined) return false;
  if (access === "signed-in") return true;
  return permissionsOf(groups).has(access);
}
