import type { ReportDeliveryStatus, ReportLinkVoidReason, ReportVersionKind } from "@vigil/contract";

/** "EEG-report-CM-2026-000123-v2.pdf": the case and version, so copies saved side by side are told apart. */
export function reportFileName(caseNumber: string, version: number, extension = "pdf"): string {
  return `EEG-report-${caseNumber}-v${version}.${extension}`;
}

/** "1 (the signed report)", "2 (with an addendum)". */
export function versionLabel({ version, kind }: { version: number; kind: ReportVersionKind }): string {
  return `${version} (${kind === "signed" ? "the signed report" : "with an addendum"})`;
}

export const deliveryStatusLabels: Record<ReportDeliveryStatus, string> = {
  pending: "Sending",
  sent: "Sent",
  failed: "Not sent",
};

/** Why a link was withdrawn, as the case's Reports list says it. */
export const voidReasonLabels: Record<ReportLinkVoidReason, string> = {
  staff: "Withdrawn by staff",
  "recipient-removed": "Withdrawn: recipient removed",
  "address-changed": "Withdrawn: address changed",
  superseded: "Withdrawn: a newer link was sent",
};
