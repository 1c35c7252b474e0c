import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import type { Author, Case } from "@vigil/contract";
import type { ReactNode } from "react";
import { SideBySideCompare } from "../../../components/compare/side-by-side-compare";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { RecordFields } from "./record-fields";
import { authorName, compareRowsOf } from "./record-labels";

export type RecordConflictPanelProps<Data> = {
  /** "event", "case note". */
  noun: string;
  caseItem: Case;
  /** Their version: the item as it is now. */
  theirs: { revision: number; deleted: boolean; updatedAt: string; updatedBy: Author; data: Data };
  /** What the user submitted (absent for a revision without data, e.g. an addendum: say it in `children`). */
  mine?: Data;
  flatten: (data: Data) => Record<string, string>;
  onReapply: () => void;
  onDiscard: () => void;
  reapplyLabel?: string;
  discardLabel?: string;
  busy?: boolean;
  children?: ReactNode;
};

/**
 * A stale edit: someone else saved a newer revision while the user was editing. Nothing of theirs was
 * overwritten and nothing of the user's is lost: both versions side by side, then re-apply the user's changes on
 * top of theirs, or discard the user's and keep theirs.
 */
export function RecordConflictPanel<Data>({
  noun,
  caseItem,
  theirs,
  mine,
  flatten,
  onReapply,
  onDiscard,
  reapplyLabel = "Re-apply my changes on top",
  discardLabel = "Discard mine, keep theirs",
  busy = false,
  children,
}: RecordConflictPanelProps<Data>) {
  const zone = caseItem.client.timezone;
  return (
    <Stack spacing={2}>
      <Alert severity="warning" role="alert">
        <AlertTitle>Someone else changed this {noun} first</AlertTitle>
        <Box component="p" sx={{ mt: 0 }}>
          Revision {theirs.revision} was saved by {authorName(theirs.updatedBy)} on{" "}
          <ZonedDateTime value={theirs.updatedAt} timeZone={zone} /> while you were editing
          {theirs.deleted ? `, and the ${noun} is now deleted` : ""}.
        </Box>
        <Box component="p" sx={{ mb: 0 }}>
          Nothing of yours was saved yet, and nothing is lost: your version is below, beside theirs.
        </Box>
        {children}
      </Alert>
      {mine === undefined ? (
        <RecordFields
          title={`Their version (revision ${theirs.revision})`}
          fields={flatten(theirs.data)}
          caseItem={caseItem}
        />
      ) : (
        <SideBySideCompare
          label="Their version compared with yours"
          leftTitle={`Their version (revision ${theirs.revision})`}
          rightTitle="Your version (not saved)"
          rows={compareRowsOf(flatten(theirs.data), flatten(mine), zone)}
        />
      )}
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }}>
        <Button variant="contained" onClick={onReapply} disabled={busy}>
          {reapplyLabel}
        </Button>
        <Button variant="outlined" onClick={onDiscard} disabled={busy}>
          {discardLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
