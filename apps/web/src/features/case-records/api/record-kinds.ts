import {
  type BillingNoteData,
  type BillingNoteItem,
  type BillingNoteList,
  type BillingNoteRevisionRequest,
  type billingNoteHistorySchema,
  billingNoteItemSchema,
  type CaseNoteData,
  type CaseNoteItem,
  type CaseNoteList,
  type CaseNoteRevisionRequest,
  type caseNoteHistorySchema,
  caseNoteItemSchema,
  type EventData,
  type EventItem,
  type EventList,
  type EventRevisionRequest,
  type eventHistorySchema,
  eventItemSchema,
  type ImpedanceData,
  type ImpedanceItem,
  type ImpedanceList,
  type ImpedanceRevisionRequest,
  type InterpretationData,
  type InterpretationItem,
  type InterpretationList,
  type InterpretationRevisionRequest,
  type impedanceHistorySchema,
  impedanceItemSchema,
  type interpretationHistorySchema,
  interpretationItemSchema,
  type RecordKind,
  recordRoutesTable as routes,
  type TimeLogData,
  type TimeLogItem,
  type TimeLogList,
  type TimeLogRevisionRequest,
  type timeLogHistorySchema,
  timeLogItemSchema,
} from "@vigil/contract";
import type { z } from "zod";

/** Every record kind's types, so the generic calls are typed by kind (`RecordItemOf<"event">` is `EventItem`). */
export type RecordTypes = {
  interpretation: {
    item: InterpretationItem;
    data: InterpretationData;
    list: InterpretationList;
    revision: InterpretationRevisionRequest;
    history: z.infer<typeof interpretationHistorySchema>;
  };
  impedance: {
    item: ImpedanceItem;
    data: ImpedanceData;
    list: ImpedanceList;
    revision: ImpedanceRevisionRequest;
    history: z.infer<typeof impedanceHistorySchema>;
  };
  event: {
    item: EventItem;
    data: EventData;
    list: EventList;
    revision: EventRevisionRequest;
    history: z.infer<typeof eventHistorySchema>;
  };
  "time-log": {
    item: TimeLogItem;
    data: TimeLogData;
    list: TimeLogList;
    revision: TimeLogRevisionRequest;
    history: z.infer<typeof timeLogHistorySchema>;
  };
  "case-note": {
    item: CaseNoteItem;
    data: CaseNoteData;
    list: CaseNoteList;
    revision: CaseNoteRevisionRequest;
    history: z.infer<typeof caseNoteHistorySchema>;
  };
  "billing-note": {
    item: BillingNoteItem;
    data: BillingNoteData;
    list: BillingNoteList;
    revision: BillingNoteRevisionRequest;
    history: z.infer<typeof billingNoteHistorySchema>;
  };
};

export type RecordItemOf<K extends RecordKind> = RecordTypes[K]["item"];
export type RecordDataOf<K extends RecordKind> = RecordTypes[K]["data"];
export type RecordListOf<K extends RecordKind> = RecordTypes[K]["list"];
export type RecordRevisionOf<K extends RecordKind> = RecordTypes[K]["revision"];
export type RecordHistoryOf<K extends RecordKind> = RecordTypes[K]["history"];

type DistributiveOmit<T, Key extends PropertyKey> = T extends unknown ? Omit<T, Key> : never;

/** The request with its `data` as the kind's parsed data (what editors produce and conflicts compare). */
type WithParsedData<T, D> = T extends { data: unknown }
  ? Omit<T, "data"> & { data: D }
  : T extends { data?: unknown }
    ? Omit<T, "data"> & { data?: D }
    : T;

/** A revision request without its base: the base is the item the user looked at (`useRecordRevise` adds it). */
export type RecordRevisionBodyOf<K extends RecordKind> = WithParsedData<
  DistributiveOmit<RecordRevisionOf<K>, "baseRevision">,
  RecordDataOf<K>
>;

/** The contract's four calls of each kind (list, create, revise, history), looked up by kind. */
export const recordRoutesOf = {
  interpretation: {
    list: routes.listInterpretations,
    create: routes.createInterpretation,
    revise: routes.reviseInterpretation,
    history: routes.getInterpretationHistory,
  },
  impedance: {
    list: routes.listImpedances,
    create: routes.createImpedance,
    revise: routes.reviseImpedance,
    history: routes.getImpedanceHistory,
  },
  event: {
    list: routes.listEvents,
    create: routes.createEvent,
    revise: routes.reviseEvent,
    history: routes.getEventHistory,
  },
  "time-log": {
    list: routes.listTimeLogs,
    create: routes.createTimeLog,
    revise: routes.reviseTimeLog,
    history: routes.getTimeLogHistory,
  },
  "case-note": {
    list: routes.listCaseNotes,
    create: routes.createCaseNote,
    revise: routes.reviseCaseNote,
    history: routes.getCaseNoteHistory,
  },
  "billing-note": {
    list: routes.listBillingNotes,
    create: routes.createBillingNote,
    revise: routes.reviseBillingNote,
    history: routes.getBillingNoteHistory,
  },
} as const satisfies Record<RecordKind, Record<"list" | "create" | "revise" | "history", unknown>>;

/** The item schema of each kind: a 409's `details.current` is parsed with it. */
export const recordItemSchemas = {
  interpretation: interpretationItemSchema,
  impedance: impedanceItemSchema,
  event: eventItemSchema,
  "time-log": timeLogItemSchema,
  "case-note": caseNoteItemSchema,
  "billing-note": billingNoteItemSchema,
} as const satisfies Record<RecordKind, z.ZodType>;

/**
 * Kinds whose changes can alter what the case allows next (a signed interpretation is the precondition of
 * preview → reviewed; time logs and billing notes feed the billing check), so the case is read again after them.
 */
export const kindsAffectingCase: ReadonlySet<RecordKind> = new Set<RecordKind>([
  "interpretation",
  "time-log",
  "billing-note",
]);
