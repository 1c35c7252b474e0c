import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Author, Case, RevisionChange } from "@vigil/contract";
import { useId } from "react";
import { SideBySideCompare } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { Dialog } from "../../../components/feedback/dialog";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { RecordFields } from "./record-fields";
import { authorName, changeLabels, compareRowsOf } from "./record-labels";

/** One revision as a history shows it (the records' and the patient details' share this shape). */
export type HistoryRevision<Data> = {
  revision: number;
  change: RevisionChange;
  reason: string | null;
  author: Author;
  createdAt: string;
  data: Data;
};

/**
 * Every revision oldest first: who, when, what kind of change and why, and what changed since the revision
 * before it (the first shows its fields as written).
 */
export function RevisionList<Data>({
  revisions,
  flatten,
  caseItem,
}: {
  revisions: readonly HistoryRevision<Data>[];
  flatten: (data: Data) => Record<string, string>;
  caseItem: Case;
}) {
  const zone = caseItem.client.timezone;
  const ordered = [...revisions].sort((left, right) => left.revision - right.revision);
  return (
    <Stack component="ol" spacing={3} sx={{ listStyle: "none", p: 0, m: 0 }} aria-label="Revisions">
      {ordered.map((revision, index) => {
        const previous = index > 0 ? ordered[index - 1] : undefined;
        const onlyMarks = revision.change === "delete" || revision.change === "restore";
        return (
          <Box component="li" key={revision.revision}>
            <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap", mb: 1 }}>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
                Revision {revision.revision}
              </Typography>
              <Chip size="small" label={changeLabels[revision.change]} />
              <Typography variant="body2" color="text.secondary">
                <ZonedDateTime value={revision.createdAt} timeZone={zone} /> by {authorName(revision.author)}
              </Typography>
            </Stack>
            {revision.reason ? (
              <Typography variant="body2" sx={{ mb: 1, whiteSpace: "pre-wrap" }}>
                Reason: {revision.reason}
              </Typography>
            ) : null}
            {previous === undefined ? (
              <RecordFields fields={flatten(revision.data)} caseItem={caseItem} />
            ) : onlyMarks ? null : (
              <SideBySideCompare
                label={`Revision ${previous.revision} compared with revision ${revision.revision}`}
                leftTitle={`Revision ${previous.revision}`}
                rightTitle={`Revision ${revision.revision}`}
                rows={compareRowsOf(flatten(previous.data), flatten(revision.data), zone)}
                changedOnly
              />
            )}
          </Box>
        );
      })}
    </Stack>
  );
}

export type HistoryDialogProps<Data> = {
  title: string;
  caseItem: Case;
  flatten: (data: Data) => Record<string, string>;
  query: {
    isPending: boolean;
    isError: boolean;
    error: unknown;
    data: { revisions: readonly HistoryRevision<Data>[] } | undefined;
    refetch: () => unknown;
  };
  onClose: () => void;
};

/** A history in a dialog, over any history query (a record item's, the patient details'). */
export function HistoryDialog<Data>({ title, caseItem, flatten, query, onClose }: HistoryDialogProps<Data>) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="lg" fullWidth scroll="paper">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>
        {query.isPending ? (
          <LoadingScreen label="Loading the history…" />
        ) : query.isError || !query.data ? (
          <QueryError what="The history" error={query.error} onRetry={() => void query.refetch()} />
        ) : (
          <RevisionList revisions={query.data.revisions} flatten={flatten} caseItem={caseItem} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
