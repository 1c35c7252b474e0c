import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import {
  type BugReport,
  type BugStatus,
  bugReportSchema,
  bugStatuses,
  bugStatusLabels,
  changeBugStatusRequestSchema,
} from "@vigil/contract";
import { useState } from "react";
import { useWatch } from "react-hook-form";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField } from "../../../components/forms/select-field";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { useVersionedSave } from "../../../components/forms/use-versioned-save";
import { changeBugStatus, useStoreBugReport } from "../api/change-bug-status";
import { fetchBugReport } from "../api/get-bug-report";
import { formatFiledAt } from "../bug-report-labels";

type Values = { status: BugStatus | ""; comment: string };

const emptyValues: Values = { status: "", comment: "" };

/** An unchosen status is "missing" to the schema ("is required"), not an unknown value. */
function inputOf(values: Values) {
  return { ...values, status: values.status === "" ? undefined : values.status };
}

/** Who made the report what it is now, from its last history entry. */
function lastChangeOf(report: BugReport) {
  return report.history.at(-1);
}

/**
 * "Change status": a new status and a comment saying why, saved with `If-Match` = the version shown. When
 * someone changed the report first (412) nothing is saved: their status and comment are shown, the user's
 * choice and comment stay in the form, and they may apply theirs on top of the current version — or drop it.
 */
export function ChangeBugStatusForm({ report }: { report: BugReport }) {
  const store = useStoreBugReport();
  const [saved, setSaved] = useState<BugStatus | null>(null);
  const form = useContractForm({ schema: changeBugStatusRequestSchema, defaultValues: emptyValues, toInput: inputOf });
  const chosen = useWatch({ control: form.control, name: "status" });
  const save = useVersionedSave({
    form,
    initialVersion: report.version,
    recordSchema: bugReportSchema,
    valuesOf: () => emptyValues,
    save: (version, input) => {
      setSaved(null);
      return changeBugStatus({ id: report.id, version, input });
    },
    readCurrent: () => fetchBugReport(report.id),
    onConflict: store,
    onSaved: (updated) => {
      store(updated);
      setSaved(updated.status);
    },
  });

  const theirs = save.conflict?.theirs ?? null;
  const theirChange = theirs ? lastChangeOf(theirs) : undefined;
  const alreadyThere = theirs !== null && theirs.status === chosen;

  return (
    <Box component="form" noValidate onSubmit={save.submit} aria-label="Change status">
      {save.conflict ? (
        <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
          <AlertTitle>Someone changed this report first</AlertTitle>
          {theirs ? (
            <>
              <Box component="p" sx={{ m: 0 }}>
                It is now <strong>{bugStatusLabels[theirs.status]}</strong>
                {theirChange ? (
                  <>
                    {" "}
                    — changed by {theirChange.by.name ?? theirChange.by.username},{" "}
                    <time dateTime={theirChange.at}>{formatFiledAt(theirChange.at)}</time>
                    {theirChange.comment ? <>: “{theirChange.comment}”</> : null}
                  </>
                ) : null}
                .
              </Box>
              <Box component="p" sx={{ m: 0, mt: 1 }}>
                Your change was not saved; your status and comment are still in the form.
                {alreadyThere ? ` It is already ${bugStatusLabels[theirs.status]}.` : null}
              </Box>
              <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: "wrap" }}>
                {alreadyThere ? null : (
                  <Button
                    variant="outlined"
                    color="inherit"
                    size="small"
                    onClick={save.saveOverTheirs}
                    disabled={save.pending}
                  >
                    Apply my change on top
                  </Button>
                )}
                <Button
                  variant="outlined"
                  color="inherit"
                  size="small"
                  onClick={save.takeTheirs}
                  disabled={save.pending}
                >
                  Discard my change
                </Button>
              </Stack>
            </>
          ) : (
            "The report as it is now could not be read. Your change was not saved and is still in the form; close and open the report again."
          )}
        </Alert>
      ) : null}
      <Stack spacing={1}>
        <FormSelectField
          control={form.control}
          name="status"
          label="New status"
          required
          fullWidth
          help=" "
          emptyLabel="Choose a status…"
          options={bugStatuses.map((status) => ({
            value: status,
            label: `${bugStatusLabels[status]}${status === report.status ? " (current)" : ""}`,
            disabled: status === report.status,
          }))}
        />
        <FormTextField
          control={form.control}
          name="comment"
          label="Comment"
          required
          fullWidth
          multiline
          minRows={2}
          help="Why; kept in the report's history"
        />
      </Stack>
      {save.failure ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          The status was not changed: {save.failure}
        </Alert>
      ) : null}
      {saved ? (
        <Alert severity="success" role="status" sx={{ mt: 1 }}>
          Moved to {bugStatusLabels[saved]}.
        </Alert>
      ) : null}
      {save.conflict ? null : (
        <Button
          type="submit"
          variant="contained"
          disabled={save.pending}
          sx={{ mt: 1 }}
          startIcon={save.pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
        >
          Change status
        </Button>
      )}
    </Box>
  );
}
