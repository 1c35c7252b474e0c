import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Case } from "@vigil/contract";
import type { ReactNode } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { useClosedCaseProtocol } from "../api/get-closed-case-protocol";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "260px 1fr" }, gap: 1, py: 1 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: "pre-wrap" }}>
        {children}
      </Typography>
    </Box>
  );
}

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
      <Box component="dl" sx={{ m: 0, mt: 1 }}>
        <Detail label="Monitoring instructions">{revision.instructions || "—"}</Detail>
        <Detail label="Impedance threshold">{revision.impedanceThresholdKohm} kΩ</Detail>
        <Detail label="Impedance check interval">{revision.impedanceCheckIntervalHours} h</Detail>
        <Detail label="Review turnaround">{revision.reviewTurnaroundHours} h</Detail>
        <Detail label="STAT cases taken by a reviewer within">{revision.statAcknowledgeMinutes} min</Detail>
        <Detail label="Critical findings">
          Notify {revision.criticalNotification.notify} within {revision.criticalNotification.withinMinutes} minutes
        </Detail>
        <Detail label="Transfer form">
          {revision.transferForm.title}
          {revision.transferForm.fields.length
            ? `: ${revision.transferForm.fields.map((field) => field.label).join(", ")}`
            : ""}
        </Detail>
      </Box>
    </Paper>
  );
}
