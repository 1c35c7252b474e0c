import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import {
  type ControllerFieldState,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type ResolverOptions,
  type ResolverResult,
  type UseFormReturn,
  type UseFormSetError,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { useUnsavedChanges } from "../../lib/unsaved-changes";
import { type FieldErrors, serverFieldErrors } from "./field-messages";

/** The error type of a message the server sent (`setError`); see `keepServerMessageOnBlur`. */
export const serverErrorType = "server";

export type ContractResolverOptions<V> = {
  /** Form values → what the schema checks (and the request sends): empty text → null, text → numbers. */
  toInput?: (values: V) => unknown;
};

/**
 * zod's resolver for a form whose values are not the request body itself: the values are converted with
 * `toInput` first, and the parsed body is what `handleSubmit` hands over. Error paths are the body's, which
 * the forms keep the same as their own.
 */
export function contractResolver<V extends FieldValues, S extends z.ZodType>(
  schema: S,
  { toInput }: ContractResolverOptions<V> = {},
): Resolver<V, unknown, z.output<S>> {
  // The messages are the contract's fragments ("is required"), zod's default wherever the contract is loaded; the
  // fields put their labels in front.
  const resolve: Resolver<FieldValues, unknown, z.output<S>> = zodResolver(
    schema as unknown as z.ZodType<z.output<S>, FieldValues>,
  );
  // The body's paths are the form's, so the options (field refs, names) and the errors carry over as they are.
  return (values, context, options) =>
    resolve(
      (toInput ? toInput(values) : values) as FieldValues,
      context,
      options as unknown as ResolverOptions<FieldValues>,
    ) as Promise<ResolverResult<V, z.output<S>>>;
}

export type ContractFormOptions<V, S extends z.ZodType> = ContractResolverOptions<V> & {
  schema: S;
  defaultValues: V;
};

export type ContractForm<V extends FieldValues, S extends z.ZodType> = UseFormReturn<V, unknown, z.output<S>>;

/**
 * A react-hook-form form checked with the contract's zod schema as the user types: each field is validated on
 * change and on blur (`mode: "all"`), a submit validates everything and focuses the first invalid field, and the
 * form counts as unsaved edits while it differs from its default values (the new-version banner waits).
 */
export function useContractForm<V extends FieldValues, S extends z.ZodType>({
  schema,
  defaultValues,
  ...resolverOptions
}: ContractFormOptions<V, S>): ContractForm<V, S> {
  // Built once: the schema and the conversion are module-level constants in every form.
  const [resolver] = useState(() => contractResolver<V, S>(schema, resolverOptions));
  const form = useForm<V, unknown, z.output<S>>({
    defaultValues: defaultValues as DefaultValues<V>,
    resolver,
    mode: "all",
  });
  useUnsavedChanges(form.formState.isDirty);
  return form;
}

/**
 * Shows messages under their fields (a 400's `details.issues`, or a 409 about one field) and moves focus to the
 * first. Each stays until its field changes. Returns whether there was any.
 */
export function showServerErrors<V extends FieldValues>(setError: UseFormSetError<V>, errors: FieldErrors): boolean {
  const entries = Object.entries(errors);
  entries.forEach(([path, message], index) => {
    // A problem with the body as a whole has no field: it is kept as the form's root error.
    const name = (path === "" ? `root.${serverErrorType}` : path) as FieldPath<V> | `root.${string}`;
    setError(name, { type: serverErrorType, message }, { shouldFocus: index === 0 });
  });
  return entries.length > 0;
}

/** Applies a failed request's 400 field issues (`body.<field>`); returns whether any field got a message. */
export function applyServerError<V extends FieldValues>(setError: UseFormSetError<V>, error: unknown): boolean {
  return showServerErrors(setError, serverFieldErrors(error));
}

/**
 * A field's blur handler that leaves a server message in place: with `mode: "all"` a blur validates the field
 * again, which would drop the server's message (the code is still taken) although nothing was changed.
 */
export function keepServerMessageOnBlur(onBlur: () => void, fieldState: ControllerFieldState): () => void {
  return () => {
    if (fieldState.error?.type !== serverErrorType) onBlur();
  };
}
