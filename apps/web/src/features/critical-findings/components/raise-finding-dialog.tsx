import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type CaseStage,
  type CriticalFinding,
  criticalFindingKindLabels,
  criticalFindingKinds,
  raiseCriticalFindingInputSchema,
} from "@vigil/contract";
import { useId } from "react";
import { type Control, useController, useWatch } from "react-hook-form";
import { Link as RouterLink } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { isoToZonedInput, zonedInputToIso } from "../../../components/dates/zoned-input";
import { ZonedTimeField } from "../../../components/dates/zoned-time-field";
import { Dialog } from "../../../components/feedback/dialog";
import { apiErrorOf, labelledMessage } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import {
  applyServerError,
  keepServerMessageOnBlur,
  useContractForm,
} from "../../../components/forms/use-contract-form";
import { useRaiseCriticalFinding } from "../api/raise-critical-finding";
import { channelLabels, recipientKindLabels } from "./finding-labels";

/** The case a finding is raised on, as both the case screen and a board row know it. */
export type FindingCase = { caseId: string; caseNumber: string; stage: CaseStage; timeZone: string };

/** Findings are raised while the EEG is being recorded or reviewed (PRODUCT.md §11). */
export function acceptsFindings(stage: CaseStage): boolean {
  return stage === "monitoring" || stage === "preview";
}

type RaiseValues = { kind: string; onsetAt: string; description: string };

const descriptionLimit = 1000;

/** The kind as ACNS 2021 names it: one radio per kind, the group's message read with it. */
function KindField({ control }: { control: Control<RaiseValues, unknown, unknown> }) {
  const legendId = useId();
  const messageId = useId();
  const { field, fieldState } = useController({ control, name: "kind" });
  const message = fieldState.error?.message;
  return (
    <FormControl component="fieldset" error={Boolean(message)} required>
      <FormLabel component="legend" id={legendId}>
        Kind of finding
      </FormLabel>
      <RadioGroup
        name={field.name}
        value={field.value}
        onChange={(_event, value) => field.onChange(value)}
        onBlur={keepServerMessageOnBlur(field.onBlur, fieldState)}
        aria-labelledby={legendId}
        aria-describedby={message ? messageId : undefined}
      >
        {criticalFindingKinds.map((kind, index) => (
          <FormControlLabel
            key={kind}
            value={kind}
            label={criticalFindingKindLabels[kind]}
            // The first radio takes the focus when the dialog opens and when a submit finds no kind chosen.
            control={
              <Radio
                autoFocus={index === 0}
                slotProps={{ input: (index === 0 ? { ref: field.ref } : {}) as React.ComponentProps<"input"> }}
              />
            }
          />
        ))}
      </RadioGroup>
      {message ? <FormHelperText id={messageId}>{labelledMessage("Kind", message)}</FormHelperText> : null}
    </FormControl>
  );
}

function DescriptionHelp({ control }: { control: Control<RaiseValues, unknown, unknown> }) {
  const description = useWatch({ control, name: "description" });
  return (
    <>
      What you see on the EEG; {description.length}/{descriptionLimit} characters
    </>
  );
}

function RaiseForm({ target, caseHref, onClose }: { target: FindingCase; caseHref?: string; onClose: () => void }) {
  const raise = useRaiseCriticalFinding();
  const zone = target.timeZone;
  const form = useContractForm({
    schema: raiseCriticalFindingInputSchema,
    defaultValues: {
      kind: "",
      onsetAt: isoToZonedInput(new Date().toISOString(), zone),
      description: "",
    } satisfies RaiseValues as RaiseValues,
    // The onset is typed in the client's zone; a broken time stays as typed so the schema names it.
    toInput: (values: RaiseValues) => ({ ...values, onsetAt: zonedInputToIso(values.onsetAt, zone) ?? values.onsetAt }),
  });
  const { control } = form;
  const submit = form.handleSubmit((input) =>
    raise.mutate(
      { caseId: target.caseId, input },
      {
        // Done with the form: no unsaved edits hold the dialog or the new-version banner now.
        onSuccess: () => form.reset(form.getValues()),
        onError: (error) => applyServerError(form.setError, error),
      },
    ),
  );
  const failure = apiErrorOf(raise.error);
  const fieldProblem = failure?.status === 400;

  if (raise.data) return <Raised finding={raise.data} timeZone={zone} caseHref={caseHref} onClose={onClose} />;
  return (
    <form noValidate onSubmit={submit}>
      <DialogContent>
        <Stack spacing={2}>
          <Typography>
            Case {target.caseNumber}. Vigil tells the client's contacts flagged for critical findings and the case's
            reviewer at once, and escalates until someone acknowledges it.
          </Typography>
          <KindField control={control} />
          <ZonedTimeField
            control={control}
            name="onsetAt"
            label="EEG onset"
            timeZone={zone}
            note="may be earlier than now"
            required
            fullWidth
          />
          <FormTextField
            control={control}
            name="description"
            label="Description"
            required
            multiline
            minRows={3}
            fullWidth
            help={<DescriptionHelp control={control} />}
            slotProps={{ htmlInput: { maxLength: descriptionLimit } }}
          />
        </Stack>
        {failure && !fieldProblem ? (
          <Alert severity="error" sx={{ mt: 2 }}>
            The finding was not raised: {failure.message}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={raise.isPending}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="contained"
          color="error"
          disabled={raise.isPending}
          startIcon={raise.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
        >
          Raise and notify
        </Button>
      </DialogActions>
    </form>
  );
}

/** What happened: who is being told now, and by when someone must acknowledge it. */
function Raised({
  finding,
  timeZone,
  caseHref,
  onClose,
}: {
  finding: CriticalFinding;
  timeZone: string;
  caseHref?: string;
  onClose: () => void;
}) {
  const told = finding.recipients.filter((recipient) => recipient.level === 0);
  return (
    <>
      <DialogContent>
        <Alert severity="success" role="status">
          {criticalFindingKindLabels[finding.kind]} raised on {finding.caseNumber}.
        </Alert>
        <Typography sx={{ mt: 2 }}>
          Someone must acknowledge it by <ZonedDateTime value={finding.dueAt} timeZone={timeZone} /> (within{" "}
          {finding.windowMinutes} min).
        </Typography>
        {told.length > 0 ? (
          <>
            <Typography sx={{ mt: 2 }}>Being told now:</Typography>
            <ul aria-label="Being told now">
              {told.map((recipient) => (
                <li key={recipient.id}>
                  {recipient.name} ({recipientKindLabels[recipient.kind]})
                  {recipient.deliveries.length > 0
                    ? `: ${recipient.deliveries.map((delivery) => `${channelLabels[delivery.channel]} ${delivery.destination}`).join(", ")}`
                    : ": no email or phone to reach them"}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <Alert severity="warning" sx={{ mt: 2 }}>
            Nobody could be told: the client has no contact flagged for critical findings and no coordinator could be
            reached. Call the client now.
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        {caseHref ? (
          <Button component={RouterLink} to={caseHref}>
            Open the case
          </Button>
        ) : null}
        <Button variant="contained" onClick={onClose} autoFocus>
          Done
        </Button>
      </DialogActions>
    </>
  );
}

export type RaiseFindingDialogProps = {
  open: boolean;
  target: FindingCase;
  /** Where the case overview is, when the dialog is opened away from it (the watch board). */
  caseHref?: string;
  onClose: () => void;
};

/** "Raise critical finding": kind, EEG onset in the client's zone, description; then who is being told. */
export function RaiseFindingDialog({ open, target, caseHref, onClose }: RaiseFindingDialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Raise critical finding</DialogTitle>
      {open ? <RaiseForm target={target} caseHref={caseHref} onClose={onClose} /> : null}
    </Dialog>
  );
}
