import Alert from "@mui/material/Alert";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Paper from "@mui/material/Paper";
import Snackbar from "@mui/material/Snackbar";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type BugContext,
  type BugSeverity,
  bugSeverities,
  bugSeverityLabels,
  createBugReportRequestSchema,
} from "@vigil/contract";
import { useId, useMemo, useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { Dialog } from "../../../components/feedback/dialog";
import { apiErrorOf, serverFieldErrors } from "../../../components/forms/field-messages";
import { DialogFormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { FormSelectField, optionsOf } from "../../../components/forms/select-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { useCreateBugReport } from "../api/create-bug-report";
import { captureBugContext } from "../capture-bug-context";
import { BugContextList } from "./bug-context-list";

type Values = { title: string; description: string; stepsToReproduce: string; severity: BugSeverity | "" };

const emptyValues: Values = { title: "", description: "", stepsToReproduce: "", severity: "" };
const formFields = new Set<string>(["title", "description", "stepsToReproduce", "severity"]);

/** What the user types is checked with the contract's own rules; the context is added when it is sent. */
const typedPartSchema = createBugReportRequestSchema.omit({ context: true });

/** An unchosen severity is "missing" to the schema (so its message is "is required"), not an unknown value. */
function inputOf(values: Values) {
  return { ...values, severity: values.severity === "" ? undefined : values.severity };
}

export type BugReportDialogProps = { open: boolean; onClose: () => void };

/**
 * "Report a bug", over whatever page the user is on (they stay there): title, what happened, steps and severity,
 * checked as they are typed, and — read-only — what is sent along by itself (the page address, browser, screen,
 * window and app version). A half-written report is only thrown away after asking. After filing, the report's
 * number is confirmed and the dialog closes.
 */
export function BugReportDialog({ open, onClose }: BugReportDialogProps) {
  const titleId = useId();
  const summaryId = useId();
  const create = useCreateBugReport();
  const form = useContractForm({ schema: typedPartSchema, defaultValues: emptyValues, toInput: inputOf });
  const { control } = form;
  const [confirmingDiscard, setConfirmingDiscard] = useState(false);
  // The number stays while the confirmation fades out; `showFiled` says whether it is shown.
  const [filed, setFiled] = useState<string | null>(null);
  const [showFiled, setShowFiled] = useState(false);
  // Read when the dialog opens: the page behind it is the one the report is about, and what is shown is what is sent.
  const context = useMemo<BugContext | null>(() => (open ? captureBugContext() : null), [open]);

  const finish = () => {
    form.reset(emptyValues);
    create.reset();
    setConfirmingDiscard(false);
    onClose();
  };

  const requestClose = () => {
    if (create.isPending) return;
    if (form.formState.isDirty) setConfirmingDiscard(true);
    else finish();
  };

  const submit = form.handleSubmit((typed) => {
    if (!context) return;
    create.mutate(
      { ...typed, context },
      {
        onSuccess: (report) => {
          setFiled(report.number);
          setShowFiled(true);
          finish();
        },
        onError: (error) => {
          const fields = serverFieldErrors(error);
          showServerErrors(
            form.setError,
            Object.fromEntries(Object.entries(fields).filter(([path]) => formFields.has(path))),
          );
        },
      },
    );
  });

  // Messages about a field show under it; anything else (the context refused, a server fault) above the buttons.
  const failure = apiErrorOf(create.error) ?? (create.error ? { message: String(create.error) } : null);
  const otherIssues = Object.entries(serverFieldErrors(create.error)).filter(([path]) => !formFields.has(path));
  const fieldIssueCount = Object.keys(serverFieldErrors(create.error)).length - otherIssues.length;
  const generalError =
    failure && (fieldIssueCount === 0 || otherIssues.length > 0)
      ? [failure.message, ...otherIssues.map(([path, message]) => `${path} ${message}`)].join("; ")
      : null;

  return (
    <>
      {/* Escape and the backdrop: the shared dialog asks first when something was written. */}
      <Dialog
        open={open}
        onClose={create.isPending ? undefined : finish}
        aria-labelledby={titleId}
        maxWidth="sm"
        fullWidth
      >
        <DialogTitle id={titleId}>Report a bug</DialogTitle>
        <form onSubmit={submit} noValidate>
          <DialogContent>
            <DialogContentText sx={{ mb: 2 }}>
              Tell us what went wrong. The developers see your report together with the details below.
            </DialogContentText>
            <Stack spacing={1}>
              <FormTextField control={control} name="title" label="Title" required fullWidth help=" " autoFocus />
              <FormTextField
                control={control}
                name="description"
                label="What happened"
                required
                fullWidth
                multiline
                minRows={3}
                help="What you did, what you expected, and what happened instead"
              />
              <FormTextField
                control={control}
                name="stepsToReproduce"
                label="Steps to reproduce (optional)"
                fullWidth
                multiline
                minRows={2}
                help="One step per line, if you know how to make it happen again"
              />
              <FormSelectField
                control={control}
                name="severity"
                label="Severity"
                required
                fullWidth
                help=" "
                emptyLabel="Choose how bad it is…"
                options={optionsOf(bugSeverities, bugSeverityLabels)}
              />
            </Stack>
            {context ? (
              <Paper variant="outlined" component="section" aria-labelledby={summaryId} sx={{ p: 2, mt: 1 }}>
                <Typography id={summaryId} component="h3" variant="subtitle1" sx={{ fontWeight: 600, mb: 1 }}>
                  Sent with your report
                </Typography>
                <BugContextList context={context} />
              </Paper>
            ) : null}
            {generalError ? (
              <Alert severity="error" sx={{ mt: 2 }}>
                The report was not filed: {generalError}
              </Alert>
            ) : null}
          </DialogContent>
          <DialogFormActions submitLabel="Send report" pending={create.isPending} onCancel={requestClose} />
        </form>
      </Dialog>
      <ConfirmDialog
        open={confirmingDiscard}
        title="Discard this bug report?"
        confirmLabel="Discard"
        destructive
        onConfirm={finish}
        onClose={() => setConfirmingDiscard(false)}
      >
        What you have written will be lost. Choose Cancel to go back to the report.
      </ConfirmDialog>
      <Snackbar
        open={showFiled}
        autoHideDuration={6000}
        onClose={(_event, reason) => {
          if (reason !== "clickaway") setShowFiled(false);
        }}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert severity="success" variant="filled" onClose={() => setShowFiled(false)} sx={{ width: "100%" }}>
          Thanks — filed as {filed}
        </Alert>
      </Snackbar>
    </>
  );
}
