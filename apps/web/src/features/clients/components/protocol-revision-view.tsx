import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Client, ProtocolRevision } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { transferFieldTypeLabels } from "../protocol-model";
import { ReportRecipientsList } from "./protocol-recipients";

export function authorName(author: ProtocolRevision["author"]): string {
  return author.name || author.username;
}

/** One protocol revision as read-only settings, with its transfer form's fields. */
export function ProtocolRevisionView({ revision, client }: { revision: ProtocolRevision; client: Client }) {
  const { transferForm, criticalNotification } = revision;
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="current-revision">
      <Typography id="current-revision" variant="h6" component="h2">
        Current protocol: revision {revision.revision}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Saved by {authorName(revision.author)} on{" "}
        <ZonedDateTime value={revision.createdAt} timeZone={client.timezone} />
        {revision.changeNote ? ` — “${revision.changeNote}”` : ""}
      </Typography>
      <DetailList labelWidth={260} dense>
        <DetailRow label="Monitoring instructions">{revision.instructions}</DetailRow>
        <DetailRow label="Impedance threshold">{`${revision.impedanceThresholdKohm} kΩ`}</DetailRow>
        <DetailRow label="Impedance check interval">{`every ${revision.impedanceCheckIntervalHours} h`}</DetailRow>
        <DetailRow label="Review turnaround">{`${revision.reviewTurnaroundHours} h`}</DetailRow>
        <DetailRow label="STAT cases taken by a reviewer within">{`${revision.statAcknowledgeMinutes} min`}</DetailRow>
        <DetailRow label="Critical findings: who to notify">{criticalNotification.notify}</DetailRow>
        <DetailRow label="Critical findings: notify within">{`${criticalNotification.withinMinutes} min`}</DetailRow>
        <DetailRow label="Report recipients">
          <ReportRecipientsList clientId={client.id} contactIds={revision.reportRecipients.contactIds} />
        </DetailRow>
        <DetailRow label="Transfer form title">{transferForm.title}</DetailRow>
        <DetailRow label="Transfer form instructions">{transferForm.instructions}</DetailRow>
      </DetailList>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2, fontWeight: 600 }}>
        Transfer form fields
      </Typography>
      {transferForm.fields.length === 0 ? (
        <Typography color="text.secondary">The transfer form asks for no fields yet.</Typography>
      ) : (
        <Table size="small" aria-label="Transfer form fields">
          <TableHead>
            <TableRow>
              <TableCell>Label</TableCell>
              <TableCell>Key</TableCell>
              <TableCell>Type</TableCell>
              <TableCell>Required</TableCell>
              <TableCell>Options and help</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {transferForm.fields.map((field) => (
              <TableRow key={field.key}>
                <TableCell>{field.label}</TableCell>
                <TableCell sx={{ fontFamily: "monospace" }}>{field.key}</TableCell>
                <TableCell>{transferFieldTypeLabels[field.type]}</TableCell>
                <TableCell>{field.required ? "Yes" : "No"}</TableCell>
                <TableCell>
                  {[field.options?.length ? `Options: ${field.options.join(", ")}` : "", field.help ?? ""]
                    .filter(Boolean)
                    .join(" · ")}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Paper>
  );
}
