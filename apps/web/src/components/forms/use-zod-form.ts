import {
  type ChangeEvent,
  type FormEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
import type { z } from "zod";
import { useUnsavedChanges } from "../../lib/unsaved-changes";
import { type FieldErrors, fieldErrorsOf, labelledMessage, serverFieldErrors } from "./field-messages";

type PathSegment = string | number;

function segmentsOf(path: string): PathSegment[] {
  return path
    .split(".")
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function getAt(source: unknown, path: string): unknown {
  let current = source;
  for (const segment of segmentsOf(path)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

/** An immutable set by dotted path (`transferForm.fields.2.label`); arrays stay arrays. */
export function setAt<T>(source: T, path: string, value: unknown): T {
  const segments = segmentsOf(path);
  const write = (node: unknown, index: number): unknown => {
    if (index === segments.length) return value;
    const segment = segments[index] as PathSegment;
    const container = Array.isArray(node) ? [...node] : { ...((node ?? {}) as Record<string, unknown>) };
    (container as Record<PathSegment, unknown>)[segment] = write(
      (node as Record<PathSegment, unknown> | undefined)?.[segment],
      index + 1,
    );
    return container;
  };
  return write(source, 0) as T;
}

function isWithin(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}.`) || prefix.startsWith(`${path}.`);
}

export type ZodFormOptions<V, S extends z.ZodType> = {
  schema: S;
  initialValues: V;
  /** Form values → what the schema checks (and the request sends): empty text → null, text → numbers. */
  toInput?: (values: V) => unknown;
};

export type TextFieldBinding = {
  id: string;
  name: string;
  label: ReactNode;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => void;
  onBlur: () => void;
  error: boolean;
  helperText: ReactNode;
  required?: boolean;
};

/**
 * Form state validated with the contract's zod schema on every change ("validates as you type"): a field shows
 * its message once it was edited or the form was submitted. Server messages (400 `details.issues`, or a 409 on
 * one field) show under their field until it changes. A failed submit moves focus to the first invalid field.
 * The form counts as unsaved edits while it differs from its initial values (the new-version banner waits).
 */
export function useZodForm<V, S extends z.ZodType>({ schema, initialValues, toInput }: ZodFormOptions<V, S>) {
  const [values, setValues] = useState<V>(initialValues);
  const [baseline, setBaseline] = useState<V>(initialValues);
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrorsState] = useState<FieldErrors>({});
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  const convert = useRef(toInput);
  convert.current = toInput;

  const parsed = useMemo(() => schema.safeParse(convert.current ? convert.current(values) : values), [schema, values]);
  const clientErrors = useMemo(() => (parsed.success ? {} : fieldErrorsOf(parsed.error)), [parsed]);
  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(baseline), [values, baseline]);
  useUnsavedChanges(dirty);

  useEffect(() => {
    if (focusRequest === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [focusRequest]);

  const errorFor = useCallback(
    (path: string): string | undefined => {
      if (serverErrors[path]) return serverErrors[path];
      if (!submitted && ![...touched].some((field) => isWithin(field, path))) return undefined;
      return clientErrors[path];
    },
    [clientErrors, serverErrors, submitted, touched],
  );

  /**
   * Changes one value. `touch: false` is for structural edits (adding or reordering list items) that should not
   * flag every untouched input inside the list at once.
   */
  const setValue = useCallback((path: string, value: unknown, options: { touch?: boolean } = {}) => {
    setValues((previous) => setAt(previous, path, value));
    if (options.touch !== false) setTouched((previous) => new Set(previous).add(path));
    setServerErrorsState((previous) => {
      const stale = Object.keys(previous).filter((key) => isWithin(key, path));
      if (stale.length === 0) return previous;
      const next = { ...previous };
      for (const key of stale) delete next[key];
      return next;
    });
  }, []);

  const touch = useCallback((path: string) => {
    setTouched((previous) => (previous.has(path) ? previous : new Set(previous).add(path)));
  }, []);

  /** Starts over from `next` (a reload of the server's version, or after a save). */
  const reset = useCallback((next: V) => {
    setValues(next);
    setBaseline(next);
    setTouched(new Set());
    setSubmitted(false);
    setServerErrorsState({});
  }, []);

  /** Replaces the values but keeps the baseline: the form stays dirty (e.g. edits rebased onto newer data). */
  const replaceValues = useCallback((next: V) => setValues(next), []);

  /** Shows messages under fields (from a 400 answer, or set by hand for a 409 on one field) and focuses them. */
  const setServerErrors = useCallback((errors: FieldErrors) => {
    setServerErrorsState(errors);
    if (Object.keys(errors).length > 0) setFocusRequest((count) => count + 1);
  }, []);

  /** Applies a failed request's 400 field issues; returns whether any field got a message. */
  const applyServerError = useCallback(
    (error: unknown): boolean => {
      const errors = serverFieldErrors(error);
      setServerErrors(errors);
      return Object.keys(errors).length > 0;
    },
    [setServerErrors],
  );

  const handleSubmit = useCallback(
    (onValid: (data: z.output<S>) => void | Promise<void>) => (event?: FormEvent) => {
      event?.preventDefault();
      setSubmitted(true);
      if (!parsed.success) {
        setFocusRequest((count) => count + 1);
        return;
      }
      void onValid(parsed.data);
    },
    [parsed],
  );

  const textField = useCallback(
    (path: string, label: string, options: { help?: ReactNode; required?: boolean } = {}): TextFieldBinding => {
      const message = errorFor(path);
      const value = getAt(values, path);
      return {
        id: `${formId}-${path.replace(/\./g, "-")}`,
        name: path,
        label,
        value: value === null || value === undefined ? "" : String(value),
        onChange: (event) => setValue(path, event.target.value),
        onBlur: () => touch(path),
        error: Boolean(message),
        helperText: message ? labelledMessage(label, message) : options.help,
        ...(options.required ? { required: true } : {}),
      };
    },
    [errorFor, formId, setValue, touch, values],
  );

  return {
    formId,
    formProps: { ref: formRef, noValidate: true, id: formId } as const,
    values,
    dirty,
    valid: parsed.success,
    /** The parsed input when valid (what the request would send). */
    data: parsed.success ? (parsed.data as z.output<S>) : undefined,
    errorFor,
    /** Messages that belong to no field shown on screen (the form as a whole). */
    formError: errorFor(""),
    setValue,
    touch,
    reset,
    replaceValues,
    setServerErrors,
    applyServerError,
    handleSubmit,
    textField,
  };
}

export type ZodForm<V, S extends z.ZodType> = ReturnType<typeof useZodForm<V, S>>;
