import Alert from "@mui/material/Alert";
import { type ReactNode, useState } from "react";
import { type FieldValues, useWatch } from "react-hook-form";
import type { z } from "zod";
import type { CompareRow } from "../compare/side-by-side-compare";
import { EditConflict } from "../feedback/edit-conflict";
import { apiErrorOf, currentFromDetails } from "./field-messages";
import { applyServerError, type ContractForm } from "./use-contract-form";

export type VersionedSaveOptions<R extends { version: number }, V extends FieldValues, S extends z.ZodType> = {
  form: ContractForm<V, S>;
  /** The version the user started from: If-Match carries it, so a save never lands on a version they did not see. */
  initialVersion: number;
  /** Parses `details.current` of a 412 into the record. */
  recordSchema: z.ZodType<R>;
  valuesOf: (record: R) => V;
  /** The PUT/PATCH with If-Match = `version`. */
  save: (version: number, input: z.output<S>) => Promise<R>;
  /** Reads the record again when a 412 did not carry it; without it, an unreadable conflict says so. */
  readCurrent?: () => Promise<R>;
  /** Their version, once known (e.g. to refresh the cached record the page shows). */
  onConflict?: (theirs: R) => void;
  onSaved: (saved: R) => void;
};

export type VersionedSave<R> = {
  /** The form's submit handler (saving over the version the user started from). */
  submit: () => Promise<void>;
  pending: boolean;
  /** Set once a 412 was answered: their version, or null when it could not be read. */
  conflict: { theirs: R | null } | null;
  /** A refusal that is neither a conflict nor about a field (those show on their fields). */
  failure: string | null;
  /** Throw the edits away and continue from their version. */
  takeTheirs: () => void;
  /** Save the edits on top of their version, after the user has seen it (validates again first). */
  saveOverTheirs: () => void;
};

/**
 * Optimistic concurrency for an edit form (PRODUCT.md §8: nothing is ever silently overwritten): saves with
 * If-Match, and on 412 keeps the user's edits and holds their version for comparing, reloading or knowingly
 * saving over it. Field messages from a 400 go onto their fields.
 */
export function useVersionedSave<R extends { version: number }, V extends FieldValues, S extends z.ZodType>({
  form,
  initialVersion,
  recordSchema,
  valuesOf,
  save,
  readCurrent,
  onConflict,
  onSaved,
}: VersionedSaveOptions<R, V, S>): VersionedSave<R> {
  const [baseVersion, setBaseVersion] = useState(initialVersion);
  const [conflict, setConflict] = useState<{ theirs: R | null } | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const attempt = (version: number) =>
    form.handleSubmit(async (input) => {
      setPending(true);
      setFailure(null);
      try {
        const saved = await save(version, input);
        form.reset(valuesOf(saved));
        setBaseVersion(saved.version);
        setConflict(null);
        onSaved(saved);
      } catch (error) {
        const body = apiErrorOf(error);
        if (body?.status === 412) {
          const current = recordSchema.safeParse(currentFromDetails(error));
          const theirs = current.success ? current.data : ((await readCurrent?.().catch(() => null)) ?? null);
          if (theirs) onConflict?.(theirs);
          setConflict({ theirs });
        } else if (!applyServerError(form.setError, error)) {
          setFailure(body?.message ?? String(error));
        }
      } finally {
        setPending(false);
      }
    });

  return {
    submit: attempt(baseVersion),
    pending,
    conflict,
    failure,
    takeTheirs: () => {
      if (!conflict?.theirs) return;
      form.reset(valuesOf(conflict.theirs));
      setBaseVersion(conflict.theirs.version);
      setConflict(null);
      setFailure(null);
    },
    saveOverTheirs: () => {
      if (!conflict?.theirs) return;
      setBaseVersion(conflict.theirs.version);
      void attempt(conflict.theirs.version)();
    },
  };
}

type VersionedSaveConflictProps<R extends { version: number }, V extends FieldValues, S extends z.ZodType> = {
  state: VersionedSave<R>;
  form: ContractForm<V, S>;
  /** "Someone else saved this client first". */
  title: string;
  /** What to say when their version could not be read. */
  unreadable: string;
  rows: (theirs: R, mine: V) => CompareRow[];
  /** Who saved and when, if known. */
  children?: (theirs: R) => ReactNode;
};

/**
 * What a versioned edit form has to say above its fields: the conflict panel (see below), and a refusal that is
 * neither a conflict nor about a field, after `notSaved` ("The client was not saved: …").
 */
export function VersionedSaveMessages<R extends { version: number }, V extends FieldValues, S extends z.ZodType>({
  notSaved,
  ...conflict
}: VersionedSaveConflictProps<R, V, S> & { notSaved: string }) {
  return (
    <>
      <VersionedSaveConflict {...conflict} />
      {conflict.state.failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {notSaved}: {conflict.state.failure}
        </Alert>
      ) : null}
    </>
  );
}

/**
 * The conflict panel of a versioned edit form: their version beside the user's edits, or — when their version
 * could not be read — a warning that the edits are kept.
 */
function VersionedSaveConflict<R extends { version: number }, V extends FieldValues, S extends z.ZodType>({
  state,
  form,
  title,
  unreadable,
  rows,
  children,
}: VersionedSaveConflictProps<R, V, S>) {
  // The edits as they are now, for the comparison with their version.
  const values = useWatch({ control: form.control }) as V;
  if (!state.conflict) return null;
  const { theirs } = state.conflict;
  if (!theirs) {
    return (
      <Alert severity="warning" role="alert" sx={{ mb: 2 }}>
        {unreadable}
      </Alert>
    );
  }
  return (
    <EditConflict
      title={title}
      rows={rows(theirs, values)}
      onReload={state.takeTheirs}
      onOverwrite={state.saveOverTheirs}
      busy={state.pending}
    >
      {children?.(theirs)}
    </EditConflict>
  );
}
