import type { Case } from "@vigil/contract";
import { lazy, Suspense } from "react";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import {
  CaseDetailPage,
  type OverviewLeadRenderer,
  type RecordTabRenderer,
} from "../../features/cases/components/case-detail";
import { CriticalFindingsPanel } from "../../features/critical-findings/components/critical-findings-panel";

// The record tabs (editors, ACNS terms, the impedance map…) load on demand, in their own chunk.
const CaseRecordTab = lazy(() =>
  import("../../features/case-records/components/case-record-tab").then((module) => ({
    default: module.CaseRecordTab,
  })),
);

// The signed reports made from the interpretations, below them on the same tab (the case's tabs are the server's).
const CaseReports = lazy(() =>
  import("../../features/reports/components/case-reports").then((module) => ({ default: module.CaseReports })),
);

const renderRecordTab: RecordTabRenderer = (tab, caseItem) => (
  <>
    <Suspense fallback={<LoadingScreen label="Loading the records…" />}>
      <CaseRecordTab tab={tab} caseItem={caseItem} />
    </Suspense>
    {tab === "interpretations" ? (
      <Suspense fallback={<LoadingScreen label="Loading the reports…" />}>
        <CaseReports caseItem={caseItem} />
      </Suspense>
    ) : null}
  </>
);

// The critical findings lead the overview: what must reach the hospital now comes before the case's fields.
const renderOverviewLead: OverviewLeadRenderer = (caseItem: Case) => (
  <CriticalFindingsPanel
    target={{
      caseId: caseItem.id,
      caseNumber: caseItem.caseNumber,
      stage: caseItem.stage,
      timeZone: caseItem.client.timezone,
    }}
  />
);

/**
 * The case detail routes: the cases feature's screen with the case-records feature's tabs, the reports feature's
 * section under the interpretations and the critical-findings feature's panel composed in here, in the app layer, so
 * no feature imports another.
 */
export function CaseDetailRoutePage() {
  return <CaseDetailPage renderRecordTab={renderRecordTab} renderOverviewLead={renderOverviewLead} />;
}
