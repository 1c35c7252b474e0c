import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Divider from "@mui/material/Divider";
import Typography from "@mui/material/Typography";
import { type BugReport, type BugReportEvent, bugSeverityLabels, bugStatusLabels } from "@vigil/contract";
import { type ReactNode, useId } from "react";
import { Dialog } from "../../../components/feedback/dialog";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { useBugReport } from "../api/get-bug-report";
import { formatFiledAt } from "../bug-report-labels";
import { BugStatusChip } from "./bug-chips";
import { BugContextList, DescriptionList } from "./bug-context-list";
import { ChangeBugStatusForm } from "./change-bug-status-form";

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 3 }}>
      <Typography id={id} component="h3" variant="h6" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function FiledText({ text, empty }: { text: string; empty: string }) {
  return text.trim() ? (
    <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{text}</Typography>
  ) : (
    <Typography color="text.secondary">{empty}</Typography>
  );
}

function eventSentence(event: BugReportEvent): string {
  const who = event.by.name ?? event.by.username;
  return event.fromStatus === null
    ? `${who} filed it as ${bugStatusLabels[event.toStatus]}`
    : `${who} moved it from ${bugStatusLabels[event.fromStatus]} to ${bugStatusLabels[event.toStatus]}`;
}

/** Who moved the report from what to what, when, and why — oldest first, as it happened. */
function BugHistory({ history }: { history: readonly BugReportEvent[] }) {
  if (history.length === 0) return <Typography color="text.secondary">No changes yet.</Typography>;
  return (
    <Box component="ol" aria-label="History" sx={{ m: 0, pl: 0, listStyle: "none" }}>
      {history.map((event) => (
        <Box
          component="li"
          key={event.id}
          sx={{ py: 1, borderLeft: 3, borderColor: "divider", pl: 2, "& + li": { mt: 1 } }}
        >
          <Typography sx={{ fontWeight: 600 }}>{eventSentence(event)}</Typography>
          <Typography variant="body2" color="text.secondary">
            <time dateTime={event.at}>{formatFiledAt(event.at)}</time>
          </Typography>
          {event.comment ? (
            <Typography sx={{ whiteSpace: "pre-wrap", mt: 0.5, overflowWrap: "anywhere" }}>{event.comment}</Typography>
          ) : null}
        </Box>
      ))}
    </Box>
  );
}

function BugReportBody({ report }: { report: BugReport }) {
  return (
    <>
      <DescriptionList
        label="Summary"
        items={[
          { term: "Status", value: <BugStatusChip status={report.status} /> },
          { term: "Severity", value: bugSeverityLabels[report.severity] },
          {
            term: "Reported by",
            value: `${report.reporter.name ?? report.reporter.username} (${report.reporter.username})`,
          },
          { term: "Filed", value: <time dateTime={report.createdAt}>{formatFiledAt(report.createdAt)}</time> },
          { term: "Last changed", value: <time dateTime={report.updatedAt}>{formatFiledAt(report.updatedAt)}</time> },
        ]}
      />
      <Section title="What happened">
        <FiledText text={report.description} empty="Nothing was written." />
      </Section>
      <Section title="Steps to reproduce">
        <FiledText text={report.stepsToReproduce} empty="None given." />
      </Section>
      <Section title="Sent with the report">
        <BugContextList context={report.context} />
      </Section>
      <Section title="History">
        <BugHistory history={report.history} />
      </Section>
      <Divider sx={{ mt: 3 }} />
      <Section title="Change status">
        {/* One form per report: a different report starts from its own version with an empty form. */}
        <ChangeBugStatusForm key={report.id} report={report} />
      </Section>
    </>
  );
}

/**
 * One report, opened from the list (`?report=<id>`): everything filed, what the web app added, the history, and
 * the status change. A dialog over the list, so the list and its filters stay where they were.
 */
export function BugReportDetailDialog({ reportId, onClose }: { reportId: string | null; onClose: () => void }) {
  const titleId = useId();
  const report = useBugReport(reportId);
  let title = "Bug report";
  if (report.data) title = `${report.data.number}: ${report.data.title}`;
  return (
    <Dialog open={reportId !== null} onClose={onClose} aria-labelledby={titleId} maxWidth="md" fullWidth scroll="paper">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        {report.data ? (
          <BugReportBody report={report.data} />
        ) : report.isPending ? (
          <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1, py: 2 }}>
            <CircularProgress size={20} aria-hidden="true" /> Loading the report…
          </Box>
        ) : isNotFound(report.error) ? (
          <Alert severity="info">This report does not exist; the link may be out of date.</Alert>
        ) : (
          <QueryError what="The report" error={report.error} onRetry={() => void report.refetch()} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
