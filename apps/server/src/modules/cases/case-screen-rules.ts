import { type Case, type CaseTab, caseTabs } from "@vigil/contract";
import type { WorkflowUser } from "./case-workflow.js";
import type { CaseRow } from "./cases-repository.js";

/**
 * What the caller may change on the case itself, by the rules `updateCase` and `archiveCase` apply: editing needs
 * `cases:update` (the PATCH route's access) on a case neither archived nor closed; archiving needs `cases:create`
 * (the DELETE route's access) on a case not yet archived, in intake unless the caller may archive in any stage.
 * Sent with the case so screens offer exactly these and never re-derive them.
 */
export function allowedChangesFor(user: WorkflowUser, row: CaseRow): Case["allowedChanges"] {
  const archived = row.archivedAt !== null;
  return {
    edit: user.permissions.has("cases:update") && !archived && row.stage !== "closed",
    archive:
      user.permissions.has("cases:create") &&
      !archived &&
      (row.stage === "intake" || user.permissions.has("cases:archive-any")),
  };
}

/**
 * The case page's tabs for the case's stage: the client protocol only once the case is closed (the revision pinned
 * for it is read through the closed-case route), billing notes once it has been reviewed.
 */
export function caseTabsFor(row: CaseRow): CaseTab[] {
  return caseTabs.filter(
    (tab) =>
      (tab !== "client-protocol" || row.stage === "closed") &&
      (tab !== "billing-notes" || row.stage === "reviewed" || row.stage === "closed"),
  );
}
