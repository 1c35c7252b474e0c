import NoteAdd from "@mui/icons-material/NoteAdd";
import Verified from "@mui/icons-material/Verified";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import {
  type Case,
  type ImpressionCode,
  type InterpretationItem,
  type InterpretationList,
  impressionCodeIds,
  impressionCodes,
} from "@vigil/contract";
import { type FormEvent, useId, useState } from "react";
import { ConfirmDialog } from "../../../../components/feedback/confirm-dialog";
import { Dialog } from "../../../../components/feedback/dialog";
import { RecordConflictPanel } from "../../components/record-conflict";
import { useRecordRevise } from "../../components/use-record-revise";
import { flattenInterpretation } from "./interpretation-flatten";

const addendumMax = 10_000;

type ActionProps = { item: InterpretationItem; caseItem: Case; list: InterpretationList };

/** Whether the caller may sign this item now: a reviewer, in a stage that allows writing, on a draft. */
export function canSignInterpretation(item: InterpretationItem, list: InterpretationList): boolean {
  return list.summary.canSign && list.write.allowed && item.status === "draft" && !item.deleted;
}

/** Addenda are for signed interpretations only; the signed text itself never changes. */
export function canAddAddendum(item: InterpretationItem, list: InterpretationList): boolean {
  return list.write.allowed && item.status === "final" && !item.deleted;
}

function SignAction({ item, caseItem }: ActionProps) {
  const [open, setOpen] = useState(false);
  // Optional, like the ACNS fields of the record: a reader who does not code the impression still signs it.
  const [impressionCode, setImpressionCode] = useState<ImpressionCode | "">(item.data.impressionCode ?? "");
  const sign = useRecordRevise("interpretation", caseItem.id);
  const close = () => {
    setOpen(false);
    sign.dismiss();
  };
  const run = async (attempt: () => Promise<unknown>) => {
    if (await attempt()) setOpen(false);
  };
  const titleId = useId();
  return (
    <>
      <Button size="small" variant="contained" startIcon={<Verified />} onClick={() => setOpen(true)}>
        Sign as final
      </Button>
      {open && sign.conflict ? (
        <Dialog open onClose={sign.pending ? undefined : close} aria-labelledby={titleId} maxWidth="md" fullWidth>
          <DialogTitle id={titleId}>The interpretation changed before you signed</DialogTitle>
          <DialogContent>
            <RecordConflictPanel
              noun="interpretation"
              caseItem={caseItem}
              theirs={sign.conflict.theirs}
              flatten={flattenInterpretation}
              reapplyLabel="Sign their version"
              discardLabel="Do not sign"
              busy={sign.pending}
              onReapply={() => void run(sign.retryOnTheirs)}
              onDiscard={close}
            >
              Nothing was signed. Read their version below before signing it.
            </RecordConflictPanel>
          </DialogContent>
        </Dialog>
      ) : (
        <ConfirmDialog
          open={open}
          title="Sign this interpretation as final?"
          confirmLabel="Sign as final"
          pending={sign.pending}
          error={sign.failure ? `Not signed: ${sign.failure.message}` : null}
          onConfirm={() =>
            void run(() => sign.revise(item, { change: "sign", impressionCode: impressionCode || null }))
          }
          onClose={close}
        >
          Signing makes this the final interpretation, signed by you, and locks its text: after this it cannot be
          edited, only amended with addenda. It is what "Mark reviewed" needs.
          <TextField
            select
            fullWidth
            label="Coded impression (optional)"
            value={impressionCode}
            onChange={(event) => setImpressionCode(event.target.value as ImpressionCode | "")}
            helperText="Printed in the report's impression and sent to the hospital's chart as a SNOMED CT code"
            sx={{ mt: 2 }}
          >
            <MenuItem value="">Not coded</MenuItem>
            {impressionCodeIds.map((code) => (
              <MenuItem key={code} value={code}>
                {impressionCodes[code].label}
              </MenuItem>
            ))}
          </TextField>
        </ConfirmDialog>
      )}
    </>
  );
}

function AddendumAction({ item, caseItem }: ActionProps) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const [touched, setTouched] = useState(false);
  const addendum = useRecordRevise("interpretation", caseItem.id);
  const titleId = useId();
  const trimmed = text.trim();
  const problem =
    trimmed === ""
      ? "Addendum is required"
      : trimmed.length > addendumMax
        ? `Addendum must be at most ${addendumMax} characters`
        : undefined;
  // Closing throws the text away, like every dialog: after the Discard question for Escape or a click beside it,
  // at once for Cancel. A closed dialog holding text the page knew nothing about was lost on leaving the page.
  const close = () => {
    setOpen(false);
    addendum.dismiss();
    setText("");
    setTouched(false);
  };
  const done = (saved: unknown) => {
    if (!saved) return;
    setOpen(false);
    setText("");
    setTouched(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (problem) return;
    done(await addendum.revise(item, { change: "addendum", text: trimmed }));
  };
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<NoteAdd />} onClick={() => setOpen(true)}>
        Add addendum
      </Button>
      <Dialog
        open={open}
        onClose={addendum.pending ? undefined : close}
        unsavedChanges={trimmed !== ""}
        aria-labelledby={titleId}
        maxWidth="md"
        fullWidth
      >
        <DialogTitle id={titleId}>Add an addendum</DialogTitle>
        {addendum.conflict ? (
          <DialogContent>
            <RecordConflictPanel
              noun="interpretation"
              caseItem={caseItem}
              theirs={addendum.conflict.theirs}
              flatten={flattenInterpretation}
              reapplyLabel="Add my addendum on top"
              discardLabel="Discard my addendum"
              busy={addendum.pending}
              onReapply={() => void addendum.retryOnTheirs().then(done)}
              onDiscard={close}
            >
              Your addendum was not added yet and is kept: “{trimmed}”
            </RecordConflictPanel>
          </DialogContent>
        ) : (
          <form noValidate onSubmit={(event) => void submit(event)}>
            <DialogContent>
              <DialogContentText sx={{ mb: 2 }}>
                The signed text stays as it is; the addendum is added under it with your name and the time.
              </DialogContentText>
              <TextField
                label="Addendum"
                value={text}
                onChange={(event) => {
                  setText(event.target.value);
                  setTouched(true);
                }}
                onBlur={() => setTouched(true)}
                required
                multiline
                minRows={4}
                fullWidth
                autoFocus
                error={touched && Boolean(problem)}
                helperText={touched && problem ? problem : undefined}
              />
              {addendum.failure ? (
                <Alert severity="error" role="alert" sx={{ mt: 2 }}>
                  The addendum was not added: {addendum.failure.message}
                </Alert>
              ) : null}
            </DialogContent>
            <DialogActions>
              <Button onClick={close} disabled={addendum.pending}>
                Cancel
              </Button>
              <Button
                type="submit"
                variant="contained"
                disabled={addendum.pending}
                startIcon={
                  addendum.pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined
                }
              >
                Add addendum
              </Button>
            </DialogActions>
          </form>
        )}
      </Dialog>
    </>
  );
}

/** "Sign as final" on a draft (reviewers), "Add addendum" on a signed one. */
export function InterpretationActions(props: ActionProps) {
  return (
    <>
      {canSignInterpretation(props.item, props.list) ? <SignAction {...props} /> : null}
      {canAddAddendum(props.item, props.list) ? <AddendumAction {...props} /> : null}
    </>
  );
}
