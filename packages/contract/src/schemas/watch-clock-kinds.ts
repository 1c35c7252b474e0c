import type { Access } from "../access.js";
import type { CaseTab } from "../pages.js";
import type { ClockKind } from "./watch.js";

/**
 * What the server and the web both say about a clock kind, written once (PRODUCT.md §10, docs/design/WATCH.md
 * "Adding a clock kind"): its words in each place it appears, and the step that stops it — the case tab where the
 * step is taken and the permission taking it needs. The rule (window, start, stop, owner) is the server's
 * `modules/watch/clock-kinds.ts`, the one rule the live board and the report's replay both run.
 */
export type ClockKindDefinition = {
  /** On screen: the case's clocks card, the board, its kind filter, the home page. */
  label: string;
  /** In an alert, followed by its state ("Impedance check overdue"). */
  alertLabel: string;
  /** In the service-level report: the per-promise table, the chart's series, the CSV. */
  reportLabel: string;
  /** The step that stops the clock: the board's action, the tab an alert and the board link to, who may take it. */
  step: { label: string; tab: CaseTab; access: Access };
};

export const clockKindDefinitions: Record<ClockKind, ClockKindDefinition> = {
  "stat-acknowledgement": {
    label: "STAT case taken by a reviewer",
    alertLabel: "STAT case to be taken by a reviewer",
    reportLabel: "STAT case taken by a reviewer",
    // "Acknowledge (take this STAT case)" is on the case overview; only reviewers take a STAT case.
    step: { label: "Acknowledge", tab: "overview", access: "cases:acknowledge" },
  },
  "impedance-check": {
    label: "Impedance check",
    alertLabel: "Impedance check",
    reportLabel: "Impedance check",
    step: { label: "Record impedance check", tab: "impedances", access: "records:monitoring" },
  },
  "intermittent-review": {
    label: "Intermittent review check (every 2 h)",
    alertLabel: "Intermittent review check",
    reportLabel: "Intermittent review check (every 2 h)",
    // A documented review check is an event of type `review-check` (DOMAIN.md §2.3).
    step: { label: "Record review check", tab: "events", access: "records:monitoring" },
  },
  "review-turnaround": {
    label: "Review turnaround",
    alertLabel: "Review turnaround",
    reportLabel: "Review turnaround",
    // The review ends with the reviewer's signature.
    step: { label: "Review", tab: "interpretations", access: "records:sign-interpretation" },
  },
  "critical-notification": {
    label: "Critical finding: acknowledgement due",
    alertLabel: "Critical finding acknowledgement",
    reportLabel: "Critical finding acknowledgement",
    // The findings panel (who was told, each delivery, "Record phone acknowledgement") is on the case overview.
    step: { label: "Record acknowledgement", tab: "overview", access: "findings:handle" },
  },
};

function pick<Value>(value: (definition: ClockKindDefinition) => Value): Record<ClockKind, Value> {
  return Object.fromEntries(
    Object.entries(clockKindDefinitions).map(([kind, definition]) => [kind, value(definition)]),
  ) as Record<ClockKind, Value>;
}

/** What each promise is called on screen. */
export const clockKindLabels: Record<ClockKind, string> = pick((definition) => definition.label);

/** What is due, as an alert says it ("Impedance check overdue"). */
export const clockAlertKindLabels: Record<ClockKind, string> = pick((definition) => definition.alertLabel);

/** Each promise in the service-level report. */
export const clockReportLabels: Record<ClockKind, string> = pick((definition) => definition.reportLabel);

/** The case tab where the step that stops each clock is taken. */
export const clockActionTabs: Record<ClockKind, CaseTab> = pick((definition) => definition.step.tab);
