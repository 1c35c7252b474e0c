import {
  type CreateProtocolRevision,
  type ProtocolContent,
  protocolContentSchema,
  type TransferField,
  transferFieldSchema,
} from "@vigil/contract";
import { get, set } from "react-hook-form";
import type { CompareRow } from "../../components/compare/side-by-side-compare";

export type TransferFieldType = TransferField["type"];

export const transferFieldTypes = transferFieldSchema.shape.type.options;

export const transferFieldTypeLabels: Record<TransferFieldType, string> = {
  text: "Short text",
  textarea: "Long text",
  date: "Date",
  datetime: "Date and time",
  phone: "Phone number",
  checkbox: "Checkbox",
  select: "Choice from a list",
};

/** One transfer-form field as its inputs hold it (options one per line). */
export type TransferFieldValues = {
  key: string;
  label: string;
  type: TransferFieldType;
  required: boolean;
  options: string;
  help: string;
};

/** The new-revision editor's values: numbers as typed text, so a half-typed number is a message, not a NaN. */
export type ProtocolFormValues = {
  baseRevision: number | null;
  changeNote: string;
  instructions: string;
  impedanceThresholdKohm: string;
  impedanceCheckIntervalHours: string;
  reviewTurnaroundHours: string;
  statAcknowledgeMinutes: string;
  criticalNotification: { notify: string; withinMinutes: string };
  reportRecipients: { contactIds: string[] };
  transferForm: { title: string; instructions: string; fields: TransferFieldValues[] };
};

/**
 * A first protocol starts from the contract's defaults (10 kΩ, 24 h, STAT taken within 60 min, notify within
 * 30 min, the standard title).
 */
export function defaultProtocolContent(): ProtocolContent {
  return protocolContentSchema.parse({ transferForm: { fields: [] } });
}

export function transferFieldValues(field: TransferField): TransferFieldValues {
  return {
    key: field.key,
    label: field.label,
    type: field.type,
    required: field.required,
    options: (field.options ?? []).join("\n"),
    help: field.help ?? "",
  };
}

export function protocolFormValues(
  content: ProtocolContent | null,
  baseRevision: number | null = null,
): ProtocolFormValues {
  const source = content ?? defaultProtocolContent();
  return {
    baseRevision,
    changeNote: "",
    instructions: source.instructions,
    impedanceThresholdKohm: String(source.impedanceThresholdKohm),
    impedanceCheckIntervalHours: String(source.impedanceCheckIntervalHours),
    reviewTurnaroundHours: String(source.reviewTurnaroundHours),
    statAcknowledgeMinutes: String(source.statAcknowledgeMinutes),
    criticalNotification: {
      notify: source.criticalNotification.notify,
      withinMinutes: String(source.criticalNotification.withinMinutes),
    },
    reportRecipients: { contactIds: [...source.reportRecipients.contactIds] },
    transferForm: {
      title: source.transferForm.title,
      instructions: source.transferForm.instructions,
      fields: source.transferForm.fields.map(transferFieldValues),
    },
  };
}

/** Typed text → number; blank is NaN so the schema says "must be a number" instead of silently defaulting. */
function numberFrom(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}

function optionsFrom(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}

/** The body of `POST …/protocol/revisions`. */
export function toProtocolInput(values: ProtocolFormValues): CreateProtocolRevision {
  return {
    baseRevision: values.baseRevision,
    changeNote: values.changeNote.trim() === "" ? null : values.changeNote,
    instructions: values.instructions,
    impedanceThresholdKohm: numberFrom(values.impedanceThresholdKohm),
    impedanceCheckIntervalHours: numberFrom(values.impedanceCheckIntervalHours),
    reviewTurnaroundHours: numberFrom(values.reviewTurnaroundHours),
    statAcknowledgeMinutes: numberFrom(values.statAcknowledgeMinutes),
    criticalNotification: {
      notify: values.criticalNotification.notify,
      withinMinutes: numberFrom(values.criticalNotification.withinMinutes),
    },
    reportRecipients: { contactIds: values.reportRecipients.contactIds },
    transferForm: {
      title: values.transferForm.title,
      instructions: values.transferForm.instructions,
      fields: values.transferForm.fields.map((field) => ({
        key: field.key,
        label: field.label,
        type: field.type,
        required: field.required,
        ...(field.type === "select" ? { options: optionsFrom(field.options) } : {}),
        ...(field.help.trim() ? { help: field.help } : {}),
      })),
    },
  };
}

/** The protocol's own settings, in the order the screens show them. */
export const protocolScalarFields = [
  ["instructions", "Monitoring instructions"],
  ["impedanceThresholdKohm", "Impedance threshold (kΩ)"],
  ["impedanceCheckIntervalHours", "Impedance check interval (hours)"],
  ["reviewTurnaroundHours", "Review turnaround (hours)"],
  ["statAcknowledgeMinutes", "STAT cases taken by a reviewer within (minutes)"],
  ["criticalNotification.notify", "Critical findings: who to notify"],
  ["criticalNotification.withinMinutes", "Critical findings: notify within (minutes)"],
  ["transferForm.title", "Transfer form title"],
  ["transferForm.instructions", "Transfer form instructions"],
] as const;

export function describeTransferField(field: TransferFieldValues): string {
  const lines = [
    `${field.label} (${field.key})`,
    `${transferFieldTypeLabels[field.type] ?? field.type}${field.required ? ", required" : ", optional"}`,
  ];
  const options = optionsFrom(field.options);
  if (field.type === "select" && options.length > 0) lines.push(`Options: ${options.join(", ")}`);
  if (field.help.trim()) lines.push(`Help: ${field.help.trim()}`);
  return lines.join("\n");
}

/** A contact's name by id, for the report recipients a protocol names by id. */
export type ContactNames = ReadonlyMap<string, string>;

/** The report recipients as a reader compares them: one name a line, in the order they were picked. */
export function describeRecipients(contactIds: readonly string[], names: ContactNames): string {
  return contactIds.map((contactId) => names.get(contactId) ?? "A removed contact").join("\n");
}

/** Two protocol versions (revisions, or a revision and a draft) field by field, transfer-form fields by key. */
export function protocolValueRows(
  left: ProtocolFormValues,
  right: ProtocolFormValues,
  contactNames: ContactNames = new Map(),
): CompareRow[] {
  const rows: CompareRow[] = protocolScalarFields.map(([path, label]) => ({
    key: path,
    label,
    left: String(get(left, path) ?? ""),
    right: String(get(right, path) ?? ""),
  }));
  rows.push({
    key: "reportRecipients.contactIds",
    label: "Report recipients",
    left: describeRecipients(left.reportRecipients.contactIds, contactNames),
    right: describeRecipients(right.reportRecipients.contactIds, contactNames),
  });
  const leftFields = new Map(left.transferForm.fields.map((field) => [field.key, field]));
  const rightFields = new Map(right.transferForm.fields.map((field) => [field.key, field]));
  const keys = [...new Set([...leftFields.keys(), ...rightFields.keys()])];
  for (const key of keys) {
    const before = leftFields.get(key);
    const after = rightFields.get(key);
    rows.push({
      key: `transferForm.fields.${key}`,
      label: `Transfer form field “${after?.label || before?.label || key}”`,
      left: before ? describeTransferField(before) : "",
      right: after ? describeTransferField(after) : "",
    });
  }
  const leftOrder = left.transferForm.fields.map((field) => field.key).join(", ");
  const rightOrder = right.transferForm.fields.map((field) => field.key).join(", ");
  rows.push({
    key: "transferForm.fields.order",
    label: "Transfer form field order",
    left: leftOrder,
    right: rightOrder,
  });
  return rows;
}

export function protocolCompareRows(
  left: ProtocolContent,
  right: ProtocolContent,
  contactNames?: ContactNames,
): CompareRow[] {
  return protocolValueRows(protocolFormValues(left), protocolFormValues(right), contactNames);
}

/**
 * What a rebase may take from the other revision: each setting, the report recipients and the transfer-form field
 * list, each as a whole.
 */
const rebasePaths: readonly (readonly [string, string])[] = [
  ...protocolScalarFields,
  ["reportRecipients.contactIds", "Report recipients"],
  ["transferForm.fields", "Transfer form fields"],
];

export type RebaseConflict = { path: string; label: string; theirs: string; mine: string };

export type RebaseResult = {
  values: ProtocolFormValues;
  /** Settings only they changed: their value was taken in. */
  taken: string[];
  /** Settings both changed differently: the user's value is kept; theirs is reported for a second look. */
  conflicts: RebaseConflict[];
};

function shown(path: string, value: unknown, contactNames: ContactNames): string {
  if (path === "reportRecipients.contactIds") {
    return describeRecipients(value as string[], contactNames).replaceAll("\n", ", ");
  }
  if (Array.isArray(value)) return (value as TransferFieldValues[]).map(describeTransferField).join("\n\n");
  return String(value ?? "");
}

/**
 * Replays the user's edits (base → mine) onto the revision someone else saved meanwhile (base → theirs), per
 * setting: what only they changed is taken from them, what only the user changed stays, and where both changed
 * the same setting differently the user's value stays and the conflict is listed. Nothing typed is lost.
 */
export function rebaseProtocolDraft(
  base: ProtocolFormValues,
  mine: ProtocolFormValues,
  theirs: ProtocolFormValues,
  theirRevision: number,
  contactNames: ContactNames = new Map(),
): RebaseResult {
  // A deep copy: `set` writes in place, and `mine` may be the form's own values.
  const values: ProtocolFormValues = structuredClone({ ...mine, baseRevision: theirRevision });
  const taken: string[] = [];
  const conflicts: RebaseConflict[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const [path, label] of rebasePaths) {
    const before = get(base, path);
    const mineValue = get(mine, path);
    const theirValue = get(theirs, path);
    if (same(mineValue, before)) {
      if (!same(theirValue, before)) {
        set(values, path, structuredClone(theirValue));
        taken.push(label);
      }
    } else if (!same(theirValue, before) && !same(theirValue, mineValue)) {
      conflicts.push({
        path,
        label,
        theirs: shown(path, theirValue, contactNames),
        mine: shown(path, mineValue, contactNames),
      });
    }
  }
  return { values, taken, conflicts };
}
