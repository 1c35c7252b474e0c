import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import {
  auditEvents,
  billingRateChanges,
  billingRates,
  caseActions,
  caseAssignments,
  casePatientDetails,
  caseRecordRevisions,
  caseRecords,
  cases,
  caseTimeLogs,
  caseTransitions,
  clientContacts,
  clients,
  clientUsefulLinks,
  protocolRevisions,
  users,
} from "../../apps/server/src/db/schema.js";

// ---------------------------------------------------------------------------------------------------------------
// COPY text encoding of rows, by the schema's columns
// ---------------------------------------------------------------------------------------------------------------

export class TableSpec {
  readonly name: string;
  readonly columns: string[];
  private readonly json: boolean[];

  constructor(
    readonly table: Table,
    readonly keys: readonly string[],
  ) {
    this.name = getTableName(table);
    const columns = getTableColumns(table) as Record<string, { name: string; columnType: string }>;
    this.columns = keys.map((key) => {
      const column = columns[key];
      if (!column) throw new Error(`${this.name} has no column ${key}`);
      return column.name;
    });
    this.json = keys.map((key) => columns[key]?.columnType === "PgJsonb");
  }

  copyStatement(source: string): string {
    return `COPY ${this.name} (${this.columns.map((column) => `"${column}"`).join(", ")}) FROM ${source}`;
  }

  encode(values: readonly unknown[]): string {
    let line = "";
    for (let index = 0; index < values.length; index++) {
      if (index > 0) line += "\t";
      line += encodeValue(values[index], this.json[index] as boolean);
    }
    return `${line}\n`;
  }
}

function escapeText(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (character) => copyEscapes[character] as string) : text;
}
const copyEscapes: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function encodeValue(value: unknown, json: boolean): string {
  if (value === null || value === undefined) return "\\N";
  if (json) return escapeText(JSON.stringify(value));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    // A text[] literal: every element quoted.
    return escapeText(`{${value.map((item) => `"${String(item).replace(/["\\]/g, (c) => `\\${c}`)}"`).join(",")}}`);
  }
  return escapeText(String(value));
}

/** Where rows go (one COPY text line each): PostgreSQL COPY streams, PGlite blobs, or both. */
export interface Sink {
  write(spec: TableSpec, line: string): void;
  /** Lets buffered rows drain (awaited between cases). */
  drain(): Promise<void>;
  finish(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------------------------
// The tables written and their columns (every column the server's writes set, so nothing relies on defaults)
// ---------------------------------------------------------------------------------------------------------------

const authorKeys = (prefix: string) => [`${prefix}Sub`, `${prefix}Username`, `${prefix}Name`];

export const specs = {
  users: new TableSpec(users, [
    "sub",
    "username",
    "usernameKey",
    "email",
    "emailVerified",
    "phoneNumber",
    "name",
    "passwordHash",
    "status",
    "enabled",
    "groups",
    "createdAt",
    "updatedAt",
  ]),
  clients: new TableSpec(clients, [
    "id",
    "name",
    "code",
    "status",
    "timezone",
    "phone",
    "addressLine1",
    "city",
    "region",
    "postalCode",
    "country",
    "notes",
    "archivedAt",
    "version",
    "createdAt",
    "updatedAt",
  ]),
  contacts: new TableSpec(clientContacts, [
    "id",
    "clientId",
    "name",
    "role",
    "email",
    "phone",
    "isPrimary",
    "notifyOnCritical",
    "version",
    "createdAt",
    "updatedAt",
  ]),
  links: new TableSpec(clientUsefulLinks, [
    "id",
    "clientId",
    "title",
    "url",
    "description",
    "version",
    "createdAt",
    "updatedAt",
  ]),
  protocols: new TableSpec(protocolRevisions, [
    "id",
    "clientId",
    "revision",
    "instructions",
    "impedanceThresholdKohm",
    "impedanceCheckIntervalHours",
    "reviewTurnaroundHours",
    "statAcknowledgeMinutes",
    "criticalNotify",
    "criticalNotifyWithinMinutes",
    "transferForm",
    "changeNote",
    ...authorKeys("author"),
    "createdAt",
  ]),
  rates: new TableSpec(billingRates, ["clientId", "month", "hourlyRate", "version", "setAt", ...authorKeys("setBy")]),
  rateChanges: new TableSpec(billingRateChanges, [
    "id",
    "clientId",
    "month",
    "hourlyRate",
    "previousRate",
    "version",
    "invoiced",
    "reason",
    "changedAt",
    ...authorKeys("changedBy"),
  ]),
  cases: new TableSpec(cases, [
    "id",
    "caseNumber",
    "clientId",
    "studyType",
    "hasVideo",
    "priority",
    "stage",
    "protocolRevisionId",
    "recordingStartedAt",
    "recordingEndedAt",
    ...authorKeys("reviewer"),
    ...authorKeys("acknowledgedBy"),
    "acknowledgedAt",
    "patientMrn",
    "patientFirstName",
    "patientLastName",
    ...authorKeys("createdBy"),
    "version",
    "createdAt",
    "updatedAt",
  ]),
  patientDetails: new TableSpec(casePatientDetails, [
    "id",
    "caseId",
    "revision",
    "mrn",
    "firstName",
    "lastName",
    "dateOfBirth",
    "sex",
    "locationUnit",
    "locationRoom",
    "locationBed",
    "referringPhysician",
    "indication",
    "medications",
    "reason",
    ...authorKeys("author"),
    "createdAt",
  ]),
  assignments: new TableSpec(caseAssignments, [
    "id",
    "caseId",
    ...authorKeys("technologist"),
    "startedAt",
    "endedAt",
    ...authorKeys("assignedBy"),
  ]),
  actions: new TableSpec(caseActions, ["id", "caseId", "action", "details", ...authorKeys("actor"), "createdAt"]),
  transitions: new TableSpec(caseTransitions, [
    "id",
    "caseId",
    "ruleId",
    "fromStage",
    "toStage",
    "status",
    ...authorKeys("requestedBy"),
    ...authorKeys("decidedBy"),
    "decidedAt",
    "createdAt",
  ]),
  records: new TableSpec(caseRecords, [
    "id",
    "caseId",
    "kind",
    "revision",
    "deleted",
    "data",
    "meta",
    ...authorKeys("createdBy"),
    "createdAt",
    ...authorKeys("updatedBy"),
    "updatedAt",
  ]),
  revisions: new TableSpec(caseRecordRevisions, [
    "id",
    "recordId",
    "caseId",
    "kind",
    "revision",
    "change",
    "deleted",
    "reason",
    "data",
    "meta",
    ...authorKeys("author"),
    "createdAt",
  ]),
  timeLogs: new TableSpec(caseTimeLogs, [
    "recordId",
    "caseId",
    ...authorKeys("technologist"),
    "activity",
    "mode",
    "video",
    "billable",
    "channels",
    "startedAt",
    "endedAt",
    "deleted",
  ]),
  audit: new TableSpec(auditEvents, [
    "id",
    "at",
    "actorSub",
    "actorUsername",
    "action",
    "targetType",
    "targetId",
    "outcome",
    "ip",
    "userAgent",
    "details",
  ]),
} as const;

/** The tables that grow with the case count: their secondary indexes are built after the load. */
export const bulkTables = [
  specs.cases,
  specs.patientDetails,
  specs.assignments,
  specs.actions,
  specs.transitions,
  specs.records,
  specs.revisions,
  specs.timeLogs,
  specs.audit,
].map((spec) => spec.name);
