import type { Case } from "@vigil/contract";
import { billingNoteView } from "../kinds/billing-notes/billing-note-view";
import { caseNoteView } from "../kinds/case-notes/case-note-view";
import { eventView } from "../kinds/events/event-view";
import { impedanceView } from "../kinds/impedances/impedance-view";
import { interpretationView } from "../kinds/interpretations/interpretation-view";
import { timeLogView } from "../kinds/time-logs/time-log-view";
import { PatientDetailsTab } from "../patient-details/patient-details-tab";
import { RecordTab } from "./record-tab";

/**
 * The record tab of a case detail route (`…/{caseId}/{tab}`): patient details or one record kind. Each kind's
 * tab is keyed by its kind, so moving between tabs never carries an open editor or dialog along.
 */
export function CaseRecordTab({ tab, caseItem }: { tab: string; caseItem: Case }) {
  switch (tab) {
    case "patient-details":
      return <PatientDetailsTab key={caseItem.id} caseItem={caseItem} />;
    case "interpretations":
      return <RecordTab key="interpretation" view={interpretationView} caseItem={caseItem} />;
    case "impedances":
      return <RecordTab key="impedance" view={impedanceView} caseItem={caseItem} />;
    case "events":
      return <RecordTab key="event" view={eventView} caseItem={caseItem} />;
    case "time-logs":
      return <RecordTab key="time-log" view={timeLogView} caseItem={caseItem} />;
    case "case-notes":
      return <RecordTab key="case-note" view={caseNoteView} caseItem={caseItem} />;
    case "billing-notes":
      return <RecordTab key="billing-note" view={billingNoteView} caseItem={caseItem} />;
    default:
      return null;
  }
}
