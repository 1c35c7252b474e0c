import { z } from "zod";
import type { Permission } from "../../access.js";
import type { CaseStage } from "../case-workflow.js";
import type { RecordArea } from "./record-kinds.js";

export type RecordWriteRule = {
  /** Granted by the groups of PRODUCT.md §1 (see access.ts). */
  permission: Permission;
  /** The case stages in which the area may be written; every record is read-only once a case is closed. */
  stages: readonly CaseStage[];
  /** Stages in which a change must carry a reason (corrections after monitoring). */
  reasonRequiredIn: readonly CaseStage[];
};

const openStages: readonly CaseStage[] = ["intake", "monitoring", "preview", "reviewed"];

/**
 * Which stage allows which writes, and by whom. The server enforces it on every write; screens read it
 * to show or hide their editors; the tests walk it for every group and stage.
 */
export const recordWriteRules: Record<RecordArea, RecordWriteRule> = {
  "patient-details": {
    permission: "records:monitoring",
    stages: openStages,
    reasonRequiredIn: ["preview", "reviewed"],
  },
  interpretation: { permission: "records:interpretation", stages: ["preview"], reasonRequiredIn: [] },
  impedance: { permission: "records:monitoring", stages: ["monitoring"], reasonRequiredIn: [] },
  event: { permission: "records:monitoring", stages: ["monitoring"], reasonRequiredIn: [] },
  "time-log": { permission: "records:monitoring", stages: ["intake", "monitoring", "preview"], reasonRequiredIn: [] },
  "case-note": { permission: "records:case-notes", stages: openStages, reasonRequiredIn: [] },
  "billing-note": { permission: "records:billing-notes", stages: ["reviewed"], reasonRequiredIn: [] },
};

const areaNames: Record<RecordArea, string> = {
  "patient-details": "Patient details",
  interpretation: "Interpretations",
  impedance: "Impedance checks",
  event: "Events",
  "time-log": "Time logs",
  "case-note": "Case notes",
  "billing-note": "Billing notes",
};

/**
 * Why the caller may not write `area` on a case in `stage` (undefined when they may). One wording for the
 * server's 403/409 and the screens' hints.
 */
export function recordWriteRefusal(
  area: RecordArea,
  state: { stage: CaseStage; archived: boolean },
  permissions: ReadonlySet<Permission>,
): { code: "forbidden" | "conflict"; message: string } | undefined {
  const rule = recordWriteRules[area];
  if (!permissions.has(rule.permission)) {
    return { code: "forbidden", message: `${areaNames[area]} are not yours to change.` };
  }
  if (state.archived) return { code: "conflict", message: "This case is archived; its records are read-only." };
  if (!rule.stages.includes(state.stage)) {
    const allowed = rule.stages.join(", ");
    return {
      code: "conflict",
      message:
        state.stage === "closed"
          ? "This case is closed; its records are read-only until it is re-opened."
          : `${areaNames[area]} can be changed only while the case is in ${allowed}; it is in ${state.stage}.`,
    };
  }
  return undefined;
}

/** Whether a change to `area` in `stage` must carry a reason. */
export function recordReasonRequired(area: RecordArea, stage: CaseStage): boolean {
  return recordWriteRules[area].reasonRequiredIn.includes(stage);
}

/** Whether the caller may write this area now, and if not why, so screens hide what the server would refuse. */
export const recordWriteStateSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().nullable(),
  reasonRequired: z.boolean(),
});
export type RecordWriteState = z.infer<typeof recordWriteStateSchema>;
