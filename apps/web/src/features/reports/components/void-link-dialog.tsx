import type { ReportDelivery, ReportVersion } from "@vigil/contract";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { ApiRequestError } from "../../../lib/api-client";
import { useVoidReportLink } from "../api/void-report-link";

/**
 * Asks before withdrawing an unused link (a destructive action: the recipient can no longer download the report with
 * it). The withdrawal is recorded in the patient's accounting of disclosures; "Send again" makes a new link.
 */
export function VoidLinkDialog({
  caseId,
  version,
  delivery,
  onClose,
  onVoided,
}: {
  caseId: string;
  version: ReportVersion;
  delivery: ReportDelivery;
  onClose: () => void;
  onVoided: () => void;
}) {
  const voiding = useVoidReportLink();
  const error = voiding.isError
    ? voiding.error instanceof ApiRequestError
      ? voiding.error.body.message
      : "The link was not withdrawn. Check the connection and try again."
    : null;
  return (
    <ConfirmDialog
      open
      title="Void this link?"
      confirmLabel="Void link"
      cancelLabel="Keep the link"
      destructive
      pending={voiding.isPending}
      error={error}
      onClose={onClose}
      onConfirm={() =>
        voiding.mutate({ caseId, reportId: version.id, deliveryId: delivery.id }, { onSuccess: () => onVoided() })
      }
    >
      The link to version {version.version} e-mailed to {delivery.recipientName} ({delivery.destination}) will no longer
      download the report. The withdrawal is recorded in the patient's accounting of disclosures. Use "Send again" if
      they still need it.
    </ConfirmDialog>
  );
}
