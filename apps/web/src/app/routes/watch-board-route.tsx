import { pages, type WatchBoardRow } from "@vigil/contract";
import { RaiseFindingButton } from "../../features/critical-findings/components/raise-finding-button";
import { WatchBoardPage } from "../../features/watch/components/watch-board-page";

// Each row offers the raise beside the step that stops its clock; the button shows itself only to those who may
// raise a finding, and only on a case in monitoring or preview.
function raiseFindingAction(row: WatchBoardRow) {
  return (
    <RaiseFindingButton
      compact
      target={{ caseId: row.caseId, caseNumber: row.caseNumber, stage: row.stage, timeZone: row.client.timezone }}
      caseHref={pages[`case-${row.stage}-detail` as const].href({ caseId: row.caseId, tab: "overview" })}
    />
  );
}

/**
 * The watch board with the critical-findings feature's "Raise critical finding" in each row, composed here in the
 * app layer so neither feature imports the other.
 */
export function WatchBoardRoutePage() {
  return <WatchBoardPage rowAction={raiseFindingAction} />;
}
