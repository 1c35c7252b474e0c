import Edit from "@mui/icons-material/Edit";
import History from "@mui/icons-material/History";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Case } from "@vigil/contract";
import { useState } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { usePatientDetails } from "../api/get-patient-details";
import { usePatientDetailsHistory } from "../api/get-patient-details-history";
import { RecordFields } from "../components/record-fields";
import { HistoryDialog } from "../components/record-history-dialog";
import { authorName } from "../components/record-labels";
import { PatientDetailsEditor } from "./patient-details-editor";
import { flattenPatientRevision } from "./patient-details-model";

function PatientDetailsHistory({ caseItem, onClose }: { caseItem: Case; onClose: () => void }) {
  const query = usePatientDetailsHistory(caseItem.id);
  const revisions = query.data?.revisions.map((revision) => ({
    revision: revision.revision,
    change: revision.revision === 1 ? ("create" as const) : ("edit" as const),
    reason: revision.reason,
    author: revision.author,
    createdAt: revision.createdAt,
    data: revision,
  }));
  return (
    <HistoryDialog
      title="History of the patient details"
      caseItem={caseItem}
      flatten={flattenPatientRevision}
      query={{
        isPending: query.isPending,
        isError: query.isError,
        error: query.error,
        data: revisions ? { revisions } : undefined,
        refetch: query.refetch,
      }}
      onClose={onClose}
    />
  );
}

/**
 * The patient-details tab: the current revision, who changed it last and why; edit (a new revision, with a
 * reason after monitoring) when the stage and the caller's groups allow it; every revision with its diff.
 */
export function PatientDetailsTab({ caseItem }: { caseItem: Case }) {
  const query = usePatientDetails(caseItem.id);
  const [editing, setEditing] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const zone = caseItem.client.timezone;

  if (query.isPending) return <LoadingScreen label="Loading the patient details…" />;
  if (query.isError) {
    return <QueryError what="The patient details" error={query.error} onRetry={() => void query.refetch()} />;
  }
  const view = query.data;
  const { current, write } = view;

  if (editing && write.allowed) {
    return (
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 900 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          Edit patient details
        </Typography>
        <PatientDetailsEditor caseItem={caseItem} view={view} onDone={() => setEditing(false)} />
      </Paper>
    );
  }
  return (
    <Stack spacing={2} sx={{ maxWidth: 900 }}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        {write.allowed ? (
          <Button variant="contained" startIcon={<Edit />} onClick={() => setEditing(true)}>
            Edit
          </Button>
        ) : write.reason ? (
          <Typography variant="body2" color="text.secondary">
            {write.reason}
          </Typography>
        ) : null}
        <Button variant="outlined" startIcon={<History />} onClick={() => setShowHistory(true)}>
          History
        </Button>
      </Stack>
      <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 2 }}>
        <Typography variant="h6" component="h2">
          Patient details
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          Revision {current.revision} · last changed <ZonedDateTime value={current.createdAt} timeZone={zone} /> by{" "}
          {authorName(current.author)}
          {current.reason ? ` · Reason: ${current.reason}` : ""}
        </Typography>
        <Box>
          <RecordFields fields={flattenPatientRevision(current)} caseItem={caseItem} />
        </Box>
      </Paper>
      {showHistory ? <PatientDetailsHistory caseItem={caseItem} onClose={() => setShowHistory(false)} /> : null}
    </Stack>
  );
}
