import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { type ReactNode, useId } from "react";
import type { FieldValues } from "react-hook-form";
import type { z } from "zod";
import type { CompareRow } from "../../../components/compare/side-by-side-compare";
import { Dialog } from "../../../components/feedback/dialog";
import { type ContractForm, useContractForm } from "../../../components/forms/use-contract-form";
import { useVersionedSave, VersionedSaveMessages } from "../../../components/forms/use-versioned-save";

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
 * version opened, and on 412 keeps the edits and lets the user compare, reload theirs or save over theirs
 * (`useVersionedSave`).
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
  const saving = useVersionedSave({
    form,
    initialVersion: record.version,
    recordSchema,
    valuesOf,
    save,
    onSaved: onClose,
  });
  const pending = saving.pending;

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={saving.submit}>
        <DialogContent dividers>
          <VersionedSaveMessages
            state={saving}
            form={form}
            title={`Someone else saved this ${noun} first`}
            unreadable={`Someone else saved this ${noun} first. Close this dialog and open it again to see their version.`}
            notSaved={`The ${noun} was not saved`}
            rows={conflictRows}
          />
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
