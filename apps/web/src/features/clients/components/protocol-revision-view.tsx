import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Client, ProtocolRevision } from "@vigil/contract";
import type { ReactNode } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { transferFieldTypeLabels } from "../protocol-model";

function Setting({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "260px 1fr" }, gap: 1, py: 0.75 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, whiteSpace: "pre-wrap" }}>
        {children || (
          <Box component="span" sx={{ color: "text.secondary" }}>
            —
          </Box>
        )}
      </Typography>
    </Box>
  );
}

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
      <Box component="dl" sx={{ m: 0 }}>
        <Setting label="Monitoring instructions">{revision.instructions}</Setting>
        <Setting label="Impedance threshold">{`${revision.impedanceThresholdKohm} kΩ`}</Setting>
        <Setting label="Impedance check interval">{`every ${revision.impedanceCheckIntervalHours} h`}</Setting>
        <Setting label="Review turnaround">{`${revision.reviewTurnaroundHours} h`}</Setting>
        <Setting label="STAT cases taken by a reviewer within">{`${revision.statAcknowledgeMinutes} min`}</Setting>
        <Setting label="Critical findings: who to notify">{criticalNotification.notify}</Setting>
        <Setting label="Critical findings: notify within">{`${criticalNotification.withinMinutes} min`}</Setting>
        <Setting label="Transfer form title">{transferForm.title}</Setting>
        <Setting label="Transfer form instructions">{transferForm.instructions}</Setting>
      </Box>
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
