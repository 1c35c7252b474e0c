import { z } from "zod";
import type { Permission } from "../access.js";
import { pageQuerySchema } from "../envelope.js";
import { type CaseStage, caseStages } from "../pages.js";
import { cptWarningIdSchema, cptWarningIds } from "./billing.js";
import { patientDetailsInputSchema, patientDetailsSchema } from "./cases.js";
import { authorSchema, idSchema, isoDateTimeSchema } from "./common.js";

/**
 * Per-case records (PRODUCT.md §4). Every record is an item with an append-only list of revisions; its
 * current state is the latest revision. A new revision names the revision it was based on: a stale base is a 409
 * carrying the current item in `error.details.current`, and nothing is overwritten. Removing is a revision
 * marked deleted (restorable). Patient details are one per case and use `PUT` with `If-Match` instead.
 */

export const recordKinds = ["interpretation", "impedance", "event", "time-log", "case-note", "billing-note"] as const;
export const recordKindSchema = z.enum(recordKinds);
export type RecordKind = z.infer<typeof recordKindSchema>;

/** What the stage-and-group table governs: the six record kinds and the patient details. */
export type RecordArea = RecordKind | "patient-details";

/** The URL segment of each kind under `cases/{stage}/{id}/` (and the case tab that shows it). */
export const recordSegments = {
  interpretation: "interpretations",
  impedance: "impedances",
  event: "events",
  "time-log": "time-logs",
  "case-note": "case-notes",
  "billing-note": "billing-notes",
} as const satisfies Record<RecordKind, string>;

export type RecordWriteRule = {
  /** Granted by the groups of PRODUCT.md §1 (see access.ts). */
  permission: Permission;
  /** The case stages in which the area may be written; every record is read-only once a case is closed. */
  stages: readonly CaseStage[];
  /** Stages in which a change must carry a reason (corrections after monitoring). */
  reasonRequiredIn: readonly CaseStage[];
};

const openStages: readonly CaseStage[] = ["intake", "monitoring", "preview", "reviewed"];

/**
 * Which stage allows which writes, and by whom. The server enforces it on every write; screens read it
 * to show or hide their editors; the tests walk it for every group and stage.
 */
export const recordWriteRules: Record<RecordArea, RecordWriteRule> = {
  "patient-details": {
    permission: "records:monitoring",
    stages: openStages,
    reasonRequiredIn: ["preview", "reviewed"],
  },
  interpretation: { permission: "records:interpretation", stages: ["preview"], reasonRequiredIn: [] },
  impedance: { permission: "records:monitoring", stages: ["monitoring"], reasonRequiredIn: [] },
  event: { permission: "records:monitoring", stages: ["monitoring"], reasonRequiredIn: [] },
  "time-log": { permission: "records:monitoring", stages: ["intake", "monitoring", "preview"], reasonRequiredIn: [] },
  "case-note": { permission: "records:case-notes", stages: openStages, reasonRequiredIn: [] },
  "billing-note": { permission: "records:billing-notes", stages: ["reviewed"], reasonRequiredIn: [] },
};

const areaNames: Record<RecordArea, string> = {
  "patient-details": "Patient details",
  interpretation: "Interpretations",
  impedance: "Impedance checks",
  event: "Events",
  "time-log": "Time logs",
  "case-note": "Case notes",
  "billing-note": "Billing notes",
};

/**
 * Why the caller may not write `area` on a case in `stage` (undefined when they may). One wording for the
 * server's 403/409 and the screens' hints.
 */
export function recordWriteRefusal(
  area: RecordArea,
  state: { stage: CaseStage; archived: boolean },
  permissions: ReadonlySet<Permission>,
): { code: "forbidden" | "conflict"; message: string } | undefined {
  const rule = recordWriteRules[area];
  if (!permissions.has(rule.permission)) {
    return { code: "forbidden", message: `${areaNames[area]} are not yours to change.` };
  }
  if (state.archived) return { code: "conflict", message: "This case is archived; its records are read-only." };
  if (!rule.stages.includes(state.stage)) {
    const allowed = rule.stages.join(", ");
    return {
      code: "conflict",
      message:
        state.stage === "closed"
          ? "This case is closed; its records are read-only until it is re-opened."
          : `${areaNames[area]} can be changed only while the case is in ${allowed}; it is in ${state.stage}.`,
    };
  }
  return undefined;
}

/** Whether a change to `area` in `stage` must carry a reason. */
export function recordReasonRequired(area: RecordArea, stage: CaseStage): boolean {
  return recordWriteRules[area].reasonRequiredIn.includes(stage);
}

// ---------------------------------------------------------------------------------------------------------------
// Clinical vocabularies (DOMAIN.md §1.2, §1.3)
// ---------------------------------------------------------------------------------------------------------------

/** The 10–20 system's electrodes (modern names: T7/T8/P7/P8 for the old T3/T4/T5/T6), ears for reference. */
export const electrodes = [
  "Fp1",
  "Fp2",
  "F7",
  "F3",
  "Fz",
  "F4",
  "F8",
  "T7",
  "C3",
  "Cz",
  "C4",
  "T8",
  "P7",
  "P3",
  "Pz",
  "P4",
  "P8",
  "O1",
  "O2",
  "A1",
  "A2",
] as const;
export const electrodeSchema = z.enum(electrodes);
export type Electrode = z.infer<typeof electrodeSchema>;

/** Below this an electrode is good (ACNS: keep impedances below 5 kΩ); from here to the threshold: caution. */
export const recommendedImpedanceKohm = 5;

/** ACNS 2021 main term 1: localisation. */
export const acnsLocations = ["G", "L", "BI", "UI", "Mf"] as const;
/** ACNS 2021 main term 2: pattern. */
export const acnsPatterns = ["PD", "RDA", "SW"] as const;
/** Plus modifiers (+F, +R, +S and combinations); EDB is extreme delta brush. */
export const acnsPlusModifiers = ["none", "+F", "+R", "+S", "+FR", "+FS", "EDB"] as const;
export const acnsPrevalences = ["continuous", "abundant", "frequent", "occasional", "rare"] as const;
export const acnsDurations = ["very-long", "long", "intermediate", "brief", "very-brief"] as const;
export const acnsEvolutions = ["evolving", "fluctuating", "static"] as const;
export const acnsContinuities = [
  "continuous",
  "nearly-continuous",
  "discontinuous",
  "burst-suppression",
  "suppression",
] as const;
export const acnsVoltages = ["normal", "low", "suppressed"] as const;
export const acnsSymmetries = ["symmetric", "mild-asymmetry", "marked-asymmetry"] as const;
export const acnsReactivities = ["present", "absent", "unclear", "not-tested"] as const;
export const acnsPredominantFrequencies = ["delta", "theta", "alpha", "beta"] as const;
export const acnsStateChanges = ["present-normal", "present-abnormal", "absent"] as const;
/** No seizures; electrographic / electroclinical seizure; electrographic / electroclinical status; IIC. */
export const seizureClassifications = ["none", "ESz", "ECSz", "ESE", "ECSE", "IIC"] as const;

/** Labels in words, so screens and printouts say the same thing. */
export const acnsLabels: Record<string, string> = {
  G: "Generalized (G)",
  L: "Lateralized (L)",
  BI: "Bilateral independent (BI)",
  UI: "Unilateral independent (UI)",
  Mf: "Multifocal (Mf)",
  PD: "Periodic discharges (PD)",
  RDA: "Rhythmic delta activity (RDA)",
  SW: "Spike-and-wave / sharp-and-wave (SW)",
  none: "None",
  "+F": "+F superimposed fast",
  "+R": "+R superimposed rhythmic",
  "+S": "+S superimposed sharp",
  "+FR": "+FR",
  "+FS": "+FS",
  EDB: "Extreme delta brush (EDB)",
  continuous: "Continuous (≥90%)",
  abundant: "Abundant (50–89%)",
  frequent: "Frequent (10–49%)",
  occasional: "Occasional (1–9%)",
  rare: "Rare (<1%)",
  "very-long": "Very long (≥1 h)",
  long: "Long (5–59 min)",
  intermediate: "Intermediate (1–4.9 min)",
  brief: "Brief (10–59 s)",
  "very-brief": "Very brief (<10 s)",
  evolving: "Evolving",
  fluctuating: "Fluctuating",
  static: "Static",
  ESz: "Electrographic seizure(s) (ESz: >2.5 Hz for ≥10 s, or definite evolution ≥10 s)",
  ECSz: "Electroclinical seizure(s) (ECSz)",
  ESE: "Electrographic status epilepticus (ESE: ESz ≥10 min continuous or ≥20% of any hour)",
  ECSE: "Electroclinical status epilepticus (ECSE)",
  IIC: "Ictal-interictal continuum (IIC)",
};

// ---------------------------------------------------------------------------------------------------------------
// What each kind holds (the `data` of a revision)
// ---------------------------------------------------------------------------------------------------------------

const text = (max: number) => z.string().trim().max(max).default("");
const required = (max: number) => z.string().trim().min(1, "is required").max(max);

export const acnsFindingSchema = z.object({
  location: z.enum(acnsLocations),
  pattern: z.enum(acnsPatterns),
  plusModifier: z.enum(acnsPlusModifiers).default("none"),
  prevalence: z.enum(acnsPrevalences),
  duration: z.enum(acnsDurations).nullable().default(null),
  /** Typical frequency in Hz. */
  frequencyHz: z.number().min(0).max(30).nullable().default(null),
  evolution: z.enum(acnsEvolutions).default("static"),
  stimulusInduced: z.boolean().default(false),
  notes: text(2000),
});
export type AcnsFinding = z.infer<typeof acnsFindingSchema>;

/** ACNS Guideline 7's report, with the background and findings in ACNS 2021 critical-care terms. */
export const interpretationDataSchema = z
  .object({
    /** A report after each 24-h period (95719/95720) or one summary of the whole study (95721–95726). */
    reportType: z.enum(["daily", "summary"]).default("daily"),
    periodFrom: isoDateTimeSchema,
    periodTo: isoDateTimeSchema,
    history: text(10_000),
    technicalDescription: text(10_000),
    background: z
      .object({
        continuity: z.enum(acnsContinuities).nullable().default(null),
        symmetry: z.enum(acnsSymmetries).nullable().default(null),
        predominantFrequency: z.enum(acnsPredominantFrequencies).nullable().default(null),
        /** Posterior dominant rhythm in Hz; null when absent. */
        pdrHz: z.number().min(0).max(20).nullable().default(null),
        voltage: z.enum(acnsVoltages).nullable().default(null),
        reactivity: z.enum(acnsReactivities).nullable().default(null),
        stateChanges: z.enum(acnsStateChanges).nullable().default(null),
        notes: text(5000),
      })
      .default({
        continuity: null,
        symmetry: null,
        predominantFrequency: null,
        pdrHz: null,
        voltage: null,
        reactivity: null,
        stateChanges: null,
        notes: "",
      }),
    findings: z.array(acnsFindingSchema).max(20).default([]),
    seizures: z
      .object({
        classification: z.enum(seizureClassifications).default("none"),
        count: z.number().int().min(0).max(10_000).nullable().default(null),
        description: text(5000),
      })
      .default({ classification: "none", count: null, description: "" }),
    impression: text(10_000),
    clinicalCorrelation: text(10_000),
  })
  .refine((value) => Date.parse(value.periodTo) >= Date.parse(value.periodFrom), {
    message: "must not be before the start of the period",
    path: ["periodTo"],
  });
export type InterpretationData = z.infer<typeof interpretationDataSchema>;
export type InterpretationInput = z.input<typeof interpretationDataSchema>;

export const impedanceDataSchema = z.object({
  checkedAt: isoDateTimeSchema,
  values: z
    .array(z.object({ electrode: electrodeSchema, kohm: z.number().min(0).max(1000) }))
    .min(1, "enter at least one electrode")
    .max(electrodes.length)
    .refine(
      (values) => new Set(values.map((value) => value.electrode)).size === values.length,
      "each electrode may appear once",
    ),
  notes: text(2000),
});
export type ImpedanceData = z.infer<typeof impedanceDataSchema>;
export type ImpedanceInput = z.input<typeof impedanceDataSchema>;

export const eventTypes = [
  "seizure",
  "clinical",
  "push-button",
  "artifact",
  "equipment",
  "skin-check",
  "review-check",
  "notification",
  "other",
] as const;
export const eventTypeSchema = z.enum(eventTypes);
export type EventType = z.infer<typeof eventTypeSchema>;

export const notificationMethods = ["phone", "page", "text", "email", "in-person", "other"] as const;

/** Who was told, how and when, and when they acknowledged (null while they have not). */
export const eventNotificationSchema = z
  .object({
    /** A contact of the case's client; its name is copied so the record keeps who it was. */
    contactId: idSchema.nullable().default(null),
    name: required(200),
    method: z.enum(notificationMethods),
    notifiedAt: isoDateTimeSchema,
    acknowledgedAt: isoDateTimeSchema.nullable().default(null),
  })
  .refine((value) => !value.acknowledgedAt || Date.parse(value.acknowledgedAt) >= Date.parse(value.notifiedAt), {
    message: "must not be before the notification",
    path: ["acknowledgedAt"],
  });

export const skinConditions = ["intact", "redness", "breakdown"] as const;
export const skinCheckSchema = z.object({
  condition: z.enum(skinConditions),
  sites: text(500),
  actionTaken: text(2000),
});

export const eventDataSchema = z
  .object({
    occurredAt: isoDateTimeSchema,
    type: eventTypeSchema,
    description: text(5000),
    notification: eventNotificationSchema.nullable().default(null),
    skinCheck: skinCheckSchema.nullable().default(null),
  })
  .refine((value) => value.type !== "notification" || value.notification !== null, {
    message: "a notification event needs who was notified",
    path: ["notification"],
  })
  .refine((value) => value.type !== "skin-check" || value.skinCheck !== null, {
    message: "a skin check needs the skin's condition",
    path: ["skinCheck"],
  });
export type EventData = z.infer<typeof eventDataSchema>;
export type EventInput = z.input<typeof eventDataSchema>;

export const timeLogActivities = ["setup", "monitoring", "review", "takedown", "other"] as const;
export const monitoringModes = ["unmonitored", "intermittent", "continuous"] as const;
export const monitoringModeSchema = z.enum(monitoringModes);
export type MonitoringMode = z.infer<typeof monitoringModeSchema>;

/**
 * Billable time must lie in the case's monitoring period, with these margins for the work just outside the
 * recording (hook-up before it starts, disconnecting after it ends); before the recording start is known, the
 * opening of the case bounds it. The server refuses a billable log outside; the editor says where it may lie.
 */
export const billableTimeMargins = { beforeStartHours: 6, afterEndHours: 2 } as const;

/** One contiguous segment (DOMAIN.md §2.3): billing proves durations from these. `endedAt` null = running. */
export const timeLogDataSchema = z
  .object({
    activity: z.enum(timeLogActivities),
    mode: monitoringModeSchema,
    video: z.boolean().default(false),
    startedAt: isoDateTimeSchema,
    endedAt: isoDateTimeSchema.nullable().default(null),
    billable: z.boolean().default(true),
    /** Recording channels (95700 needs at least 8); null when not recorded. */
    channels: z.number().int().min(1).max(512).nullable().default(null),
    notes: text(2000),
  })
  .refine((value) => !value.endedAt || Date.parse(value.endedAt) > Date.parse(value.startedAt), {
    message: "must be after the start",
    path: ["endedAt"],
  });
export type TimeLogData = z.infer<typeof timeLogDataSchema>;
export type TimeLogInput = z.input<typeof timeLogDataSchema>;

export const caseNoteCategories = ["general", "handoff", "issue"] as const;
export const caseNoteDataSchema = z.object({
  category: z.enum(caseNoteCategories).default("general"),
  body: required(20_000),
});
export type CaseNoteData = z.infer<typeof caseNoteDataSchema>;

export const cptCodeLineSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{5}$/, "must be a five-digit CPT code"),
  units: z.number().int().min(1).max(99).default(1),
  modifiers: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[0-9A-Z]{2}$/, "must be a two-character modifier such as 52"),
    )
    .max(4)
    .default([]),
});
export const billingNoteDataSchema = z.object({
  body: required(20_000),
  cptCodes: z.array(cptCodeLineSchema).max(30).default([]),
  adjustments: text(5000),
  /** CPT warnings of the case (see the billing check) this note acknowledges; closing needs each acknowledged. */
  acknowledgedWarnings: z.array(cptWarningIdSchema).max(cptWarningIds.length).default([]),
});
export type BillingNoteData = z.infer<typeof billingNoteDataSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Items, revisions and their requests
// ---------------------------------------------------------------------------------------------------------------

/** Why a revision exists. `sign` makes an interpretation final; after that only `addendum` adds to it. */
export const revisionChanges = ["create", "edit", "delete", "restore", "sign", "addendum", "clock-out"] as const;
export const revisionChangeSchema = z.enum(revisionChanges);
export type RevisionChange = z.infer<typeof revisionChangeSchema>;

const reasonField = { reason: z.string().trim().max(2000).nullable().optional() };
const baseRevisionField = { baseRevision: z.number().int().min(1) };

/** `POST …/{itemId}/revisions` of any kind: edit (the whole new data), delete, restore. */
function revisionRequestOf<T extends z.ZodType>(data: T) {
  return [
    z.object({ change: z.literal("edit"), ...baseRevisionField, data, ...reasonField }),
    z.object({ change: z.literal("delete"), ...baseRevisionField, ...reasonField }),
    z.object({ change: z.literal("restore"), ...baseRevisionField, ...reasonField }),
  ] as const;
}

export const interpretationRevisionRequestSchema = z.discriminatedUnion("change", [
  ...revisionRequestOf(interpretationDataSchema),
  /** Sign the draft as final (with `data`, save these words and sign them in one revision). */
  z.object({ change: z.literal("sign"), ...baseRevisionField, data: interpretationDataSchema.optional() }),
  /** After signing: an addendum is added beside the signed text, which never changes. */
  z.object({ change: z.literal("addendum"), ...baseRevisionField, text: required(10_000) }),
]);
export const impedanceRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(impedanceDataSchema));
export const eventRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(eventDataSchema));
export const timeLogRevisionRequestSchema = z.discriminatedUnion("change", [
  ...revisionRequestOf(timeLogDataSchema),
  /** Stop a running log (now, or at `endedAt`); on `time-logs/latest` the base may be left out. */
  z.object({
    change: z.literal("clock-out"),
    baseRevision: z.number().int().min(1).optional(),
    endedAt: isoDateTimeSchema.optional(),
  }),
]);
export const caseNoteRevisionRequestSchema = z.discriminatedUnion("change", revisionRequestOf(caseNoteDataSchema));
export const billingNoteRevisionRequestSchema = z.discriminatedUnion(
  "change",
  revisionRequestOf(billingNoteDataSchema),
);

export type InterpretationRevisionRequest = z.input<typeof interpretationRevisionRequestSchema>;
export type ImpedanceRevisionRequest = z.input<typeof impedanceRevisionRequestSchema>;
export type EventRevisionRequest = z.input<typeof eventRevisionRequestSchema>;
export type TimeLogRevisionRequest = z.input<typeof timeLogRevisionRequestSchema>;
export type CaseNoteRevisionRequest = z.input<typeof caseNoteRevisionRequestSchema>;
export type BillingNoteRevisionRequest = z.input<typeof billingNoteRevisionRequestSchema>;

/** What every item carries around its data. */
const itemFields = {
  id: idSchema,
  caseId: idSchema,
  /** The latest revision's number: the base the next revision must name. */
  revision: z.number().int().min(1),
  deleted: z.boolean(),
  createdAt: isoDateTimeSchema,
  createdBy: authorSchema,
  updatedAt: isoDateTimeSchema,
  updatedBy: authorSchema,
};

export const interpretationAddendumSchema = z.object({
  revision: z.number().int().min(1),
  text: z.string(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});

export const interpretationItemSchema = z.object({
  ...itemFields,
  kind: z.literal("interpretation"),
  data: interpretationDataSchema,
  status: z.enum(["draft", "final"]),
  signedBy: authorSchema.nullable(),
  signedAt: isoDateTimeSchema.nullable(),
  addenda: z.array(interpretationAddendumSchema),
});
export type InterpretationItem = z.infer<typeof interpretationItemSchema>;

export const impedanceItemSchema = z.object({
  ...itemFields,
  kind: z.literal("impedance"),
  data: impedanceDataSchema,
  /** The pinned protocol's threshold when the check was judged. */
  thresholdKohm: z.number(),
  /** Above the threshold. */
  flagged: z.array(electrodeSchema),
  /** From `recommendedImpedanceKohm` up to the threshold. */
  caution: z.array(electrodeSchema),
});
export type ImpedanceItem = z.infer<typeof impedanceItemSchema>;

export const eventItemSchema = z.object({ ...itemFields, kind: z.literal("event"), data: eventDataSchema });
export type EventItem = z.infer<typeof eventItemSchema>;

export const timeLogItemSchema = z.object({
  ...itemFields,
  kind: z.literal("time-log"),
  data: timeLogDataSchema,
  /** Whose time this is: the user who started the log. */
  technologist: authorSchema,
  running: z.boolean(),
  /** Up to now while running. */
  durationMinutes: z.number().int().min(0),
  /**
   * The most patients (cases with a log of the same mode) this technologist had at once during this log, and
   * the configured cap for the mode (null for unmonitored, which has none).
   */
  concurrentPeak: z.number().int().min(1),
  cap: z.number().int().nullable(),
  overCap: z.boolean(),
});
export type TimeLogItem = z.infer<typeof timeLogItemSchema>;

export const caseNoteItemSchema = z.object({ ...itemFields, kind: z.literal("case-note"), data: caseNoteDataSchema });
export type CaseNoteItem = z.infer<typeof caseNoteItemSchema>;

export const billingNoteItemSchema = z.object({
  ...itemFields,
  kind: z.literal("billing-note"),
  data: billingNoteDataSchema,
});
export type BillingNoteItem = z.infer<typeof billingNoteItemSchema>;

/** A revision as the history shows it: who, when, why, and the whole data as it then was. */
function revisionOf<T extends z.ZodType>(data: T) {
  return z.object({
    id: idSchema,
    itemId: idSchema,
    revision: z.number().int().min(1),
    change: revisionChangeSchema,
    deleted: z.boolean(),
    reason: z.string().nullable(),
    data,
    author: authorSchema,
    createdAt: isoDateTimeSchema,
  });
}

/** Whether the caller may write this area now, and if not why, so screens hide what the server would refuse. */
export const recordWriteStateSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().nullable(),
  reasonRequired: z.boolean(),
});
export type RecordWriteState = z.infer<typeof recordWriteStateSchema>;

export const recordListQuerySchema = pageQuerySchema.extend({
  /** Deleted items are listed too (so they can be restored). */
  includeDeleted: z
    .enum(["true", "false"])
    .default("false")
    .transform((value) => value === "true"),
});
export type RecordListQuery = z.input<typeof recordListQuerySchema>;

function listOf<T extends z.ZodType, S extends z.ZodType>(item: T, summary: S) {
  return z.object({
    caseId: idSchema,
    stage: z.enum(caseStages),
    write: recordWriteStateSchema,
    items: z.array(item),
    total: z.number().int().min(0),
    limit: z.number().int(),
    offset: z.number().int(),
    summary,
  });
}

export const interpretationListSchema = listOf(
  interpretationItemSchema,
  z.object({
    /** A final (signed) interpretation exists: the precondition of preview → reviewed. */
    signed: z.boolean(),
    /** The caller may sign (reviewers and administrators), beside being allowed to write. */
    canSign: z.boolean(),
  }),
);
export const impedanceListSchema = listOf(
  impedanceItemSchema,
  z.object({
    /** From the protocol revision pinned when monitoring started (the client's current one before that). */
    protocolRevision: z.number().int().nullable(),
    thresholdKohm: z.number(),
    cautionKohm: z.number(),
    intervalHours: z.number().int(),
    lastCheckedAt: isoDateTimeSchema.nullable(),
    /** When the next check is due (from the last check, else from the recording start); null when not monitoring. */
    dueAt: isoDateTimeSchema.nullable(),
    overdue: z.boolean(),
  }),
);
export const eventListSchema = listOf(
  eventItemSchema,
  z.object({
    /** Notifications not yet acknowledged. */
    unacknowledged: z.number().int().min(0),
  }),
);
export const timeLogListSchema = listOf(
  timeLogItemSchema,
  z.object({
    /** The caller's running log on this case, if any (the timer's state). */
    runningMine: timeLogItemSchema.nullable(),
    caps: z.object({ intermittent: z.number().int(), continuous: z.number().int() }),
    /** Each technologist with a running log here: their patients now, per mode, against the caps. */
    technologists: z.array(
      z.object({
        technologist: authorSchema,
        intermittent: z.number().int().min(0),
        continuous: z.number().int().min(0),
        overCap: z.boolean(),
      }),
    ),
    /** Intermittent monitoring needs a documented review check at least every 2 h (DOMAIN.md §2.3). */
    reviewCheck: z.object({
      required: z.boolean(),
      lastAt: isoDateTimeSchema.nullable(),
      dueAt: isoDateTimeSchema.nullable(),
      overdue: z.boolean(),
    }),
    billableMinutes: z.number().int().min(0),
  }),
);
export const caseNoteListSchema = listOf(caseNoteItemSchema, z.object({}));
export const billingNoteListSchema = listOf(billingNoteItemSchema, z.object({}));

export type InterpretationList = z.infer<typeof interpretationListSchema>;
export type ImpedanceList = z.infer<typeof impedanceListSchema>;
export type EventList = z.infer<typeof eventListSchema>;
export type TimeLogList = z.infer<typeof timeLogListSchema>;
export type CaseNoteList = z.infer<typeof caseNoteListSchema>;
export type BillingNoteList = z.infer<typeof billingNoteListSchema>;

function historyOf<I extends z.ZodType, D extends z.ZodType>(item: I, data: D) {
  return z.object({ item, revisions: z.array(revisionOf(data)) });
}
export const interpretationHistorySchema = historyOf(interpretationItemSchema, interpretationDataSchema);
export const impedanceHistorySchema = historyOf(impedanceItemSchema, impedanceDataSchema);
export const eventHistorySchema = historyOf(eventItemSchema, eventDataSchema);
export const timeLogHistorySchema = historyOf(timeLogItemSchema, timeLogDataSchema);
export const caseNoteHistorySchema = historyOf(caseNoteItemSchema, caseNoteDataSchema);
export const billingNoteHistorySchema = historyOf(billingNoteItemSchema, billingNoteDataSchema);

/** The revisions of an item, oldest first, beside its current state. */
export type RecordHistory<I, D> = {
  item: I;
  revisions: {
    id: string;
    itemId: string;
    revision: number;
    change: RevisionChange;
    deleted: boolean;
    reason: string | null;
    data: D;
    author: z.infer<typeof authorSchema>;
    createdAt: string;
  }[];
};

export const recordItemParamsSchema = z.object({ id: idSchema, itemId: idSchema });

// ---------------------------------------------------------------------------------------------------------------
// Patient details (one per case; PUT with If-Match = the revision number)
// ---------------------------------------------------------------------------------------------------------------

export const patientDetailsRevisionSchema = patientDetailsSchema.extend({ reason: z.string().nullable() });
export type PatientDetailsRevision = z.infer<typeof patientDetailsRevisionSchema>;

/** `GET patient-details`: the current revision (also the ETag) and whether the caller may change it now. */
export const patientDetailsViewSchema = z.object({
  caseId: idSchema,
  stage: z.enum(caseStages),
  current: patientDetailsRevisionSchema,
  write: recordWriteStateSchema,
});
export type PatientDetailsView = z.infer<typeof patientDetailsViewSchema>;

/** `PUT patient-details`: every change is a new revision; after monitoring it needs a reason. */
export const updatePatientDetailsRequestSchema = patientDetailsInputSchema.extend(reasonField);
export type UpdatePatientDetailsRequest = z.input<typeof updatePatientDetailsRequestSchema>;

export const patientDetailsHistorySchema = z.object({
  caseId: idSchema,
  revisions: z.array(patientDetailsRevisionSchema),
});
export type PatientDetailsHistory = z.infer<typeof patientDetailsHistorySchema>;
