import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Case } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { useClosedCaseProtocol } from "../api/get-closed-case-protocol";

/** The client-protocol tab of a closed case: exactly the revision pinned when its monitoring started. */
export function CaseClientProtocol({ item }: { item: Case }) {
  const protocol = useClosedCaseProtocol(item.id);
  const zone = item.client.timezone;
  if (protocol.isPending) return <LoadingScreen label="Loading the protocol…" />;
  if (protocol.isError) {
    if (isNotFound(protocol.error))
      return <Typography color="text.secondary">No protocol revision was pinned to this case.</Typography>;
    return <QueryError what="The protocol" error={protocol.error} onRetry={() => void protocol.refetch()} />;
  }
  const revision = protocol.data;
  return (
    <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 2, maxWidth: 900 }}>
      <Typography variant="h6" component="h2">
        {item.client.name} protocol, revision {revision.revision}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Pinned when monitoring started; later revisions do not change it. Written by{" "}
        {revision.author.name || revision.author.username}, <ZonedDateTime value={revision.createdAt} timeZone={zone} />
        {revision.changeNote ? ` — ${revision.changeNote}` : ""}
      </Typography>
      <DetailList labelWidth={260} sx={{ mt: 1 }}>
        <DetailRow label="Monitoring instructions">{revision.instructions || "—"}</DetailRow>
        <DetailRow label="Impedance threshold">{revision.impedanceThresholdKohm} kΩ</DetailRow>
        <DetailRow label="Impedance check interval">{revision.impedanceCheckIntervalHours} h</DetailRow>
        <DetailRow label="Review turnaround">{revision.reviewTurnaroundHours} h</DetailRow>
        <DetailRow label="STAT cases taken by a reviewer within">{revision.statAcknowledgeMinutes} min</DetailRow>
        <DetailRow label="Critical findings">
          Notify {revision.criticalNotification.notify} within {revision.criticalNotification.withinMinutes} minutes
        </DetailRow>
        <DetailRow label="Transfer form">
          {revision.transferForm.title}
          {revision.transferForm.fields.length
            ? `: ${revision.transferForm.fields.map((field) => field.label).join(", ")}`
            : ""}
        </DetailRow>
      </DetailList>
    </Paper>
  );
}
