import type { z } from "zod";
import { route } from "../route-definition.js";
import { idParamsSchema, ifMatchHeadersSchema } from "../schemas/common.js";
import {
  billingNoteDataSchema,
  billingNoteHistorySchema,
  billingNoteItemSchema,
  billingNoteListSchema,
  billingNoteRevisionRequestSchema,
} from "../schemas/records/billing-notes.js";
import {
  caseNoteDataSchema,
  caseNoteHistorySchema,
  caseNoteItemSchema,
  caseNoteListSchema,
  caseNoteRevisionRequestSchema,
} from "../schemas/records/case-notes.js";
import {
  eventDataSchema,
  eventHistorySchema,
  eventItemSchema,
  eventListSchema,
  eventRevisionRequestSchema,
} from "../schemas/records/events.js";
import {
  impedanceDataSchema,
  impedanceHistorySchema,
  impedanceItemSchema,
  impedanceListSchema,
  impedanceRevisionRequestSchema,
} from "../schemas/records/impedances.js";
import {
  interpretationDataSchema,
  interpretationHistorySchema,
  interpretationItemSchema,
  interpretationListSchema,
  interpretationRevisionRequestSchema,
} from "../schemas/records/interpretations.js";
import {
  patientDetailsHistorySchema,
  patientDetailsRevisionSchema,
  patientDetailsViewSchema,
  updatePatientDetailsRequestSchema,
} from "../schemas/records/patient-details.js";
import { type RecordKind, recordSegments } from "../schemas/records/record-kinds.js";
import { recordItemParamsSchema, recordListQuerySchema } from "../schemas/records/record-revisions.js";
import { recordWriteRules } from "../schemas/records/record-write-rules.js";
import {
  timeLogDataSchema,
  timeLogHistorySchema,
  timeLogItemSchema,
  timeLogListSchema,
  timeLogRevisionRequestSchema,
} from "../schemas/records/time-logs.js";

const base = "/api/continuous-monitoring/cases";
const tags = ["case records"];

/** Where a kind lives: under `cases/monitoring/{id}/…`, billing notes under `cases/reviewed/{id}/…` (spec §7). */
export function recordCollectionPath(kind: RecordKind): string {
  const stage = kind === "billing-note" ? "reviewed" : "monitoring";
  return `${base}/${stage}/:id/${recordSegments[kind]}`;
}

/**
 * The four calls every record kind has. The paths serve a case's records whatever its stage (the stage word in
 * the path is the spec's); who may write at which stage is `recordWriteRules`. Reads need `cases:read`; writes
 * need the kind's permission (403 without it) and a stage that allows them (the service answers 409 otherwise).
 */
function recordRoutes<
  const K extends RecordKind,
  D extends z.ZodType,
  I extends z.ZodType,
  L extends z.ZodType,
  R extends z.ZodType,
  H extends z.ZodType,
>(kind: K, label: string, schemas: { data: D; item: I; list: L; revision: R; history: H }) {
  const collection = recordCollectionPath(kind);
  const write = recordWriteRules[kind].permission;
  return {
    list: route({
      method: "GET",
      path: collection,
      summary: `${label} of a case with their current state, newest first (deleted ones with includeDeleted=true)`,
      tags,
      access: "cases:read",
      patientData: true,
      params: idParamsSchema,
      querystring: recordListQuerySchema,
      response: schemas.list,
    }),
    create: route({
      method: "POST",
      path: collection,
      summary: `Add to the ${label.toLowerCase()} (revision 1), when the case's stage allows it`,
      tags,
      access: write,
      patientData: true,
      params: idParamsSchema,
      body: schemas.data,
      response: schemas.item,
      successStatus: 201,
    }),
    revise: route({
      method: "POST",
      path: `${collection}/:itemId/revisions`,
      summary: `Append a revision (edit, delete, restore…) naming its base; a stale base is a 409 with the current item`,
      tags,
      access: write,
      patientData: true,
      params: recordItemParamsSchema,
      body: schemas.revision,
      response: schemas.item,
      successStatus: 201,
    }),
    history: route({
      method: "GET",
      path: `${collection}/:itemId/revisions`,
      summary: `Every revision of one item, oldest first, with author, time and reason`,
      tags,
      access: "cases:read",
      patientData: true,
      params: recordItemParamsSchema,
      response: schemas.history,
    }),
  };
}

const interpretations = recordRoutes("interpretation", "Interpretations", {
  data: interpretationDataSchema,
  item: interpretationItemSchema,
  list: interpretationListSchema,
  revision: interpretationRevisionRequestSchema,
  history: interpretationHistorySchema,
});
const impedances = recordRoutes("impedance", "Impedance checks", {
  data: impedanceDataSchema,
  item: impedanceItemSchema,
  list: impedanceListSchema,
  revision: impedanceRevisionRequestSchema,
  history: impedanceHistorySchema,
});
const events = recordRoutes("event", "Events", {
  data: eventDataSchema,
  item: eventItemSchema,
  list: eventListSchema,
  revision: eventRevisionRequestSchema,
  history: eventHistorySchema,
});
const timeLogs = recordRoutes("time-log", "Time logs", {
  data: timeLogDataSchema,
  item: timeLogItemSchema,
  list: timeLogListSchema,
  revision: timeLogRevisionRequestSchema,
  history: timeLogHistorySchema,
});
const caseNotes = recordRoutes("case-note", "Case notes", {
  data: caseNoteDataSchema,
  item: caseNoteItemSchema,
  list: caseNoteListSchema,
  revision: caseNoteRevisionRequestSchema,
  history: caseNoteHistorySchema,
});
const billingNotes = recordRoutes("billing-note", "Billing notes", {
  data: billingNoteDataSchema,
  item: billingNoteItemSchema,
  list: billingNoteListSchema,
  revision: billingNoteRevisionRequestSchema,
  history: billingNoteHistorySchema,
});

const patientDetailsPath = `${base}/monitoring/:id/patient-details`;

/** Per-case records (PRODUCT.md §4, spec §7). Every call reads or writes patient data, so every call is audited. */
export const recordRoutesTable = {
  getPatientDetails: route({
    method: "GET",
    path: patientDetailsPath,
    summary: "The case's current patient details (the revision number is the ETag)",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: patientDetailsViewSchema,
  }),
  updatePatientDetails: route({
    method: "PUT",
    path: patientDetailsPath,
    summary: "A new patient-details revision; If-Match names the revision read (428 without, 412 when stale)",
    tags,
    access: recordWriteRules["patient-details"].permission,
    patientData: true,
    params: idParamsSchema,
    headers: ifMatchHeadersSchema,
    body: updatePatientDetailsRequestSchema,
    response: patientDetailsRevisionSchema,
  }),
  getPatientDetailsHistory: route({
    method: "GET",
    path: `${patientDetailsPath}/revisions`,
    summary: "Every patient-details revision, oldest first, with author, time and reason",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: patientDetailsHistorySchema,
  }),
  listInterpretations: interpretations.list,
  createInterpretation: interpretations.create,
  reviseInterpretation: interpretations.revise,
  getInterpretationHistory: interpretations.history,
  listImpedances: impedances.list,
  createImpedance: impedances.create,
  reviseImpedance: impedances.revise,
  getImpedanceHistory: impedances.history,
  listEvents: events.list,
  createEvent: events.create,
  reviseEvent: events.revise,
  getEventHistory: events.history,
  listTimeLogs: timeLogs.list,
  createTimeLog: timeLogs.create,
  reviseLatestTimeLog: route({
    method: "POST",
    path: `${recordCollectionPath("time-log")}/latest/revisions`,
    summary: "Amend the caller's latest time log on this case (clock out: no base needed); 404 when there is none",
    tags,
    access: recordWriteRules["time-log"].permission,
    patientData: true,
    params: idParamsSchema,
    body: timeLogRevisionRequestSchema,
    response: timeLogItemSchema,
    successStatus: 201,
  }),
  reviseTimeLog: timeLogs.revise,
  getTimeLogHistory: timeLogs.history,
  listCaseNotes: caseNotes.list,
  createCaseNote: caseNotes.create,
  reviseCaseNote: caseNotes.revise,
  getCaseNoteHistory: caseNotes.history,
  listBillingNotes: billingNotes.list,
  createBillingNote: billingNotes.create,
  reviseBillingNote: billingNotes.revise,
  getBillingNoteHistory: billingNotes.history,
} as const;

export type RecordRouteName = keyof typeof recordRoutesTable;
