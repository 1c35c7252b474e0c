import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type CriticalFinding,
  criticalFindingKindLabels,
  recordFindingAcknowledgementInputSchema,
} from "@vigil/contract";
import { useId, useState } from "react";
import { isoToZonedInput, zonedInputToIso } from "../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../components/dates/zoned-time-field";
import { Dialog } from "../../../components/feedback/dialog";
import { CheckboxField } from "../../../components/forms/checkbox-field";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { applyServerError, useContractForm } from "../../../components/forms/use-contract-form";
import { useRecordFindingAcknowledgement } from "../api/record-finding-acknowledgement";

type PhoneValues = { name: string; acknowledgedAt: string; readBackConfirmed: boolean; note: string };

function PhoneForm({
  finding,
  timeZone,
  onClose,
}: {
  finding: CriticalFinding;
  timeZone: string;
  onClose: () => void;
}) {
  const record = useRecordFindingAcknowledgement();
  // The field shows the minute; left as it was, "now" is sent to the second, so a call taken in the minute the
  // finding was raised is never dated before it.
  const [openedAt] = useState(() => isoToZonedInput(new Date().toISOString(), timeZone));
  const form = useContractForm({
    schema: recordFindingAcknowledgementInputSchema,
    defaultValues: {
      name: "",
      acknowledgedAt: openedAt,
      readBackConfirmed: false,
      note: "",
    } satisfies PhoneValues as PhoneValues,
    toInput: (values: PhoneValues) => ({
      ...values,
      acknowledgedAt:
        values.acknowledgedAt === openedAt
          ? new Date().toISOString()
          : (zonedInputToIso(values.acknowledgedAt, timeZone) ?? values.acknowledgedAt),
    }),
  });
  const { control } = form;
  const submit = form.handleSubmit((input) =>
    record.mutate(
      { caseId: finding.caseId, findingId: finding.id, input },
      {
        onSuccess: () => {
          form.reset(form.getValues());
          onClose();
        },
        onError: (error) => applyServerError(form.setError, error),
      },
    ),
  );
  const failure = apiErrorOf(record.error);
  return (
    <form noValidate onSubmit={submit}>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            {criticalFindingKindLabels[finding.kind]} on {finding.caseNumber}. Recording who acknowledged it stops the
            escalation.
          </Typography>
          <FormTextField
            control={control}
            name="name"
            label="Acknowledged by"
            help="The clinician's name as they gave it"
            required
            fullWidth
            autoFocus
            autoComplete="off"
          />
          <ZonedTimeField
            control={control}
            name="acknowledgedAt"
            label="Acknowledged at"
            timeZone={timeZone}
            note="left as it is, the moment you record it"
            required
            fullWidth
          />
          <CheckboxField control={control} name="readBackConfirmed" label="They read the finding back correctly" />
          <FormTextField control={control} name="note" label="Note (optional)" multiline minRows={2} fullWidth />
        </Stack>
        {failure && failure.status !== 400 ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            The acknowledgement was not recorded: {failure.message}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={record.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          disabled={record.isPending}
          startIcon={record.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          Record acknowledgement
        </Button>
      </DialogActions>
    </form>
  );
}

/** "Record phone acknowledgement": who, when (in the client's zone), whether they read it back, a note. */
export function PhoneAcknowledgementDialog({
  open,
  finding,
  timeZone,
  onClose,
}: {
  open: boolean;
  finding: CriticalFinding;
  timeZone: string;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Record phone acknowledgement</DialogTitle>
      {open ? <PhoneForm finding={finding} timeZone={timeZone} onClose={onClose} /> : null}
    </Dialog>
  );
}
