import { lazy, Suspense } from "react";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { CaseDetailPage, type RecordTabRenderer } from "../../features/cases/components/case-detail";

// The record tabs (editors, ACNS terms, the impedance map…) load on demand, in their own chunk.
const CaseRecordTab = lazy(() =>
  import("../../features/case-records/components/case-record-tab").then((module) => ({
    default: module.CaseRecordTab,
  })),
);

const renderRecordTab: RecordTabRenderer = (tab, caseItem) => (
  <Suspense fallback={<LoadingScreen label="Loading the records…" />}>
    <CaseRecordTab tab={tab} caseItem={caseItem} />
  </Suspense>
);

/**
 * The case detail routes: the cases feature's screen with the case-records feature's tabs composed in here, in
 * the app layer, so neither feature imports the other.
 */
export function CaseDetailRoutePage() {
  return <CaseDetailPage renderRecordTab={renderRecordTab} />;
}
