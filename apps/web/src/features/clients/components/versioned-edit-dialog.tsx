import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { type ReactNode, useId, useState } from "react";
import { type FieldValues, useWatch } from "react-hook-form";
import type { z } from "zod";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { EditConflict } from "../../../components/feedback/edit-conflict";
import { apiErrorOf, currentFromDetails } from "../../../components/forms/field-messages";
import { applyServerError, type ContractForm, useContractForm } from "../../../components/forms/use-contract-form";

export type VersionedEditDialogProps<R extends { version: number }, V extends FieldValues, S extends z.ZodType> = {
  title: string;
  /** "contact", "link": used in the conflict message. */
  noun: string;
  record: R;
  schema: S;
  /** Parses `details.current` of a 412 into the record. */
  recordSchema: z.ZodType<R>;
  valuesOf: (record: R) => V;
  toInput: (values: V) => unknown;
  renderFields: (form: ContractForm<V, S>) => ReactNode;
  conflictRows: (theirs: R, mine: V) => CompareRow[];
  /** PUT with If-Match = `version`. */
  save: (version: number, input: z.output<S>) => Promise<R>;
  onClose: () => void;
};

/**
 * Edits one versioned record (a contact, a link) in a dialog: validates as you type, saves with If-Match = the
 * version opened, and on 412 keeps the edits and lets the user compare, reload theirs or save over theirs.
 */
export function VersionedEditDialog<R extends { version: number }, V extends FieldValues, S extends z.ZodType>({
  title,
  noun,
  record,
  schema,
  recordSchema,
  valuesOf,
  toInput,
  renderFields,
  conflictRows,
  save,
  onClose,
}: VersionedEditDialogProps<R, V, S>) {
  const titleId = useId();
  const form = useContractForm({ schema, defaultValues: valuesOf(record), toInput });
  // The edits as they are now, for the comparison with their version.
  const values = useWatch({ control: form.control }) as V;
  const [baseVersion, setBaseVersion] = useState(record.version);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [conflict, setConflict] = useState<R | null>(null);

  /** A submit handler saving over `version`; the overwrite from the conflict panel validates and sends the form too. */
  const attempt = (version: number) =>
    form.handleSubmit(async (input) => {
      setPending(true);
      setFailure(null);
      try {
        await save(version, input);
        form.reset(form.getValues());
        onClose();
      } catch (error) {
        const body = apiErrorOf(error);
        if (body?.status === 412) {
          const current = recordSchema.safeParse(currentFromDetails(error));
          if (current.success) setConflict(current.data);
          else
            setFailure(
              `Someone else saved this ${noun} first. Close this dialog and open it again to see their version.`,
            );
        } else if (!applyServerError(form.setError, error)) {
          setFailure(`The ${noun} was not saved: ${body?.message ?? String(error)}`);
        }
      } finally {
        setPending(false);
      }
    });

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={attempt(baseVersion)}>
        <DialogContent dividers>
          {conflict ? (
            <EditConflict
              title={`Someone else saved this ${noun} first`}
              rows={conflictRows(conflict, values)}
              onReload={() => {
                form.reset(valuesOf(conflict));
                setBaseVersion(conflict.version);
                setConflict(null);
              }}
              onOverwrite={() => {
                setBaseVersion(conflict.version);
                setConflict(null);
                void attempt(conflict.version)();
              }}
              busy={pending}
            />
          ) : null}
          {failure ? (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failure}
            </Alert>
          ) : null}
          {renderFields(form)}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}
