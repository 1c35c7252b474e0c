import {
  type CasePriority,
  type CaseStage,
  type CaseUser,
  caseActionRules,
  type StudyType,
  segmentTitles,
} from "@vigil/contract";

export const studyTypeLabels: Record<StudyType, string> = {
  "icu-ceeg": "ICU cEEG",
  ambulatory: "Ambulatory",
  "emu-video": "EMU video",
};

export const priorityLabels: Record<CasePriority, string> = { routine: "Routine", stat: "STAT" };

export { sexLabels } from "../../components/patient/patient-labels";

export function stageLabel(stage: CaseStage): string {
  return segmentTitles[stage] ?? stage;
}

/** A staff member as screens name them: their name, else their username. */
export function personName(user: CaseUser | null | undefined): string {
  if (!user) return "—";
  return user.name || user.username;
}

export function patientName(patient: { firstName: string; lastName: string } | null | undefined): string {
  return patient ? `${patient.lastName}, ${patient.firstName}` : "—";
}

export function locationOf(location: { unit: string | null; room: string | null; bed: string | null }): string {
  return [location.unit, location.room ? `room ${location.room}` : null, location.bed ? `bed ${location.bed}` : null]
    .filter(Boolean)
    .join(", ");
}

export const timelineActionLabels: Record<string, string> = {
  ...Object.fromEntries(Object.entries(caseActionRules).map(([action, rule]) => [action, rule.label])),
  acknowledge: "Acknowledged the STAT case",
  create: "Opened the case",
  update: "Changed the case",
  archive: "Archived the case",
  "raise-critical-finding": "Raised a critical finding",
  "escalate-critical-finding": "Escalated a critical finding",
  "acknowledge-critical-finding": "Critical finding acknowledged",
  "cancel-critical-finding": "Cancelled a critical finding",
  "interface-demographics-conflict": "The hospital sent different patient details (kept the case's)",
  "patient-discharged": "The hospital discharged the patient",
};

export const transitionActionLabels: Record<string, string> = {
  approve: "Approved",
  reject: "Rejected",
  cancel: "Cancelled",
  comment: "Commented",
};

export const transitionStatusLabels: Record<string, string> = {
  pending: "Waiting for approval",
  completed: "Done",
  rejected: "Rejected",
  cancelled: "Cancelled",
};
