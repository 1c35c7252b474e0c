import { randomUUID } from "node:crypto";
import {
  type Author,
  billingNoteDataSchema,
  caseNoteDataSchema,
  eventDataSchema,
  impedanceDataSchema,
  interpretationDataSchema,
  type ProtocolContent,
  protocolContentSchema,
  type RecordKind,
  timeLogDataSchema,
} from "@vigil/contract";
import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import type { z } from "zod";
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
} from "../apps/server/src/db/schema.js";
import { normaliseUsername } from "../apps/server/src/identity/users-repository.js";
import { addMonths, monthOf } from "../apps/server/src/modules/billing/billing-calendar.js";

/**
 * A large, realistic data set shaped exactly as the server leaves its rows: current-state rows with their
 * revision rows, the time logs' typed projection (`case_time_logs`) mirroring every `case_records` row of kind
 * time-log, patient details as append-only revisions with the latest copied onto the case, assignments, actions and
 * completed transitions that brought each case to its stage, rates with their history, and audit events.
 *
 * Rows are produced as PostgreSQL COPY text (one line per row) for a `Sink`; table and column names come from the
 * server's Drizzle schema. A seeded generator makes the same shape every time (ids are random uuids, as
 * gen_random_uuid() makes them).
 */

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

// ---------------------------------------------------------------------------------------------------------------
// Randomness and vocabularies
// ---------------------------------------------------------------------------------------------------------------

/** mulberry32: small, fast, seeded. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    between: (min: number, max: number) => min + next() * (max - min),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}
const hour = 3_600_000;
const minute = 60_000;
const day = 24 * hour;

const firstNames = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Elijah",
  "Sophia",
  "James",
  "Isabella",
  "William",
  "Mia",
  "Benjamin",
  "Amelia",
  "Lucas",
  "Harper",
  "Henry",
  "Evelyn",
  "Theodore",
  "Abigail",
  "Jack",
  "Emily",
  "Levi",
  "Ella",
  "Alexander",
  "Elizabeth",
  "Jackson",
  "Camila",
  "Mateo",
  "Luna",
  "Daniel",
  "Sofia",
  "Michael",
  "Avery",
  "Mason",
  "Mila",
  "Sebastian",
  "Aria",
  "Ethan",
  "Scarlett",
  "Logan",
  "Penelope",
  "Owen",
  "Layla",
  "Samuel",
  "Chloe",
  "Jacob",
  "Victoria",
  "Asher",
  "Madison",
  "Aiden",
  "Eleanor",
  "John",
  "Grace",
  "Joseph",
  "Nora",
  "Wyatt",
  "Riley",
  "David",
  "Zoey",
  "Leo",
  "Hannah",
  "Luke",
  "Hazel",
  "Julian",
  "Lily",
  "Hudson",
  "Ellie",
  "Grayson",
  "Violet",
  "Matthew",
  "Lillian",
  "Ezra",
  "Zoe",
  "Gabriel",
  "Stella",
  "Carter",
  "Aurora",
  "Isaac",
  "Natalie",
  "Jayden",
  "Emilia",
  "Luca",
  "Everly",
  "Anthony",
  "Leah",
  "Dylan",
  "Aubrey",
  "Lincoln",
  "Willow",
  "Thomas",
  "Addison",
  "Maverick",
  "Lucy",
  "Elias",
  "Audrey",
  "Josiah",
  "Bella",
  "Charles",
  "Nova",
  "Caleb",
];
const lastNames = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
  "Sanchez",
  "Clark",
  "Ramirez",
  "Lewis",
  "Robinson",
  "Walker",
  "Young",
  "Allen",
  "King",
  "Wright",
  "Scott",
  "Torres",
  "Nguyen",
  "Hill",
  "Flores",
  "Green",
  "Adams",
  "Nelson",
  "Baker",
  "Hall",
  "Rivera",
  "Campbell",
  "Mitchell",
  "Carter",
  "Roberts",
  "Gomez",
  "Phillips",
  "Evans",
  "Turner",
  "Diaz",
  "Parker",
  "Cruz",
  "Edwards",
  "Collins",
  "Reyes",
  "Stewart",
  "Morris",
  "Morales",
  "Murphy",
  "Cook",
  "Rogers",
  "Gutierrez",
  "Ortiz",
  "Morgan",
  "Cooper",
  "Peterson",
  "Bailey",
  "Reed",
  "Kelly",
  "Howard",
  "Ramos",
  "Kim",
  "Cox",
  "Ward",
  "Richardson",
  "Watson",
  "Brooks",
  "Chavez",
  "Wood",
  "James",
  "Bennett",
  "Gray",
  "Mendoza",
  "Ruiz",
  "Hughes",
  "Price",
  "Alvarez",
  "Castillo",
  "Sanders",
  "Patel",
  "Myers",
  "Long",
  "Ross",
  "Foster",
  "Okafor",
];
const cities = [
  ["Boston", "MA", "America/New_York"],
  ["Chicago", "IL", "America/Chicago"],
  ["Portland", "OR", "America/Los_Angeles"],
  ["Denver", "CO", "America/Denver"],
  ["Phoenix", "AZ", "America/Phoenix"],
  ["Atlanta", "GA", "America/New_York"],
  ["Houston", "TX", "America/Chicago"],
  ["Seattle", "WA", "America/Los_Angeles"],
  ["Anchorage", "AK", "America/Anchorage"],
  ["Honolulu", "HI", "Pacific/Honolulu"],
  ["San Juan", "PR", "America/Puerto_Rico"],
  ["Miami", "FL", "America/New_York"],
  ["Minneapolis", "MN", "America/Chicago"],
  ["Salt Lake City", "UT", "America/Denver"],
  ["San Diego", "CA", "America/Los_Angeles"],
  ["Detroit", "MI", "America/Detroit"],
  ["Nashville", "TN", "America/Chicago"],
] as const;
const hospitalKinds = [
  "General Hospital",
  "Medical Center",
  "Children's Hospital",
  "Neurology Institute",
  "Regional Medical Center",
  "University Hospital",
  "Memorial Hospital",
];
const units = ["Neuro ICU", "Surgical ICU", "Medical ICU", "PICU", "NICU", "Epilepsy Monitoring Unit", "Step-down"];
const indications = [
  "Altered mental status; rule out non-convulsive seizures.",
  "Post-cardiac arrest: prognostication and seizure surveillance.",
  "Status epilepticus: monitor response to treatment.",
  "Subarachnoid haemorrhage: monitor for delayed cerebral ischaemia.",
  "Characterise spells; pre-surgical evaluation.",
  "Differentiate epileptic from non-epileptic events.",
  "Quantify seizure frequency before a medication change.",
];
const medications = [
  "Levetiracetam 1 g IV q12h",
  "Lacosamide 200 mg BID",
  "Propofol infusion",
  "Midazolam infusion, weaning",
  "Valproate 500 mg BID",
  "None",
];
const noteBodies = [
  "Transfer form received; waiting for the bed assignment before set-up.",
  "Night shift: O1 re-gelled at 02:00; LPDs unchanged.",
  "Family asked for the neurologist to call back.",
  "Camera repositioned after the patient was turned; whole bed in view.",
  "Electrodes checked after MRI; Fp2 replaced.",
  "Handoff: continuous LPDs right hemisphere, no seizures since midnight.",
];
const userAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126 Safari/537.36";

// ---------------------------------------------------------------------------------------------------------------
// The data set
// ---------------------------------------------------------------------------------------------------------------

export type DatasetOptions = {
  /** 1: 50 clients, 200 users, 100,000 cases, 1,000,000 time logs; 0.1: a tenth of each. */
  scale: number;
  /** The argon2 hash every generated user gets (no one signs in as them) and the bench user's own. */
  passwordHash: string;
  benchUser: { username: string; name: string };
  now: Date;
  seed?: number;
  /** Called every few thousand cases. */
  progress?: (done: number, total: number) => void;
};

export type DatasetSummary = {
  clients: number;
  users: number;
  cases: number;
  byStage: Record<string, number>;
  timeLogs: number;
  runningTimeLogs: number;
  records: number;
  revisions: number;
  patientDetailsRevisions: number;
  auditEvents: number;
  caseNumberSequence: number;
  rows: Record<string, number>;
};

type Person = Author & { sub: string; groups: string[] };
type Stage = "intake" | "monitoring" | "preview" | "reviewed" | "closed";
type ClientInfo = {
  id: string;
  name: string;
  code: string;
  timezone: string;
  archived: boolean;
  protocols: { id: string; at: number; thresholdKohm: number }[];
  contacts: { id: string; name: string }[];
  weight: number;
};

/** Every row counted per table, so the summary says what was written. */
class CountingSink {
  readonly counts: Record<string, number> = {};
  constructor(private readonly sink: Sink) {}
  row(spec: TableSpec, values: readonly unknown[]): void {
    this.counts[spec.name] = (this.counts[spec.name] ?? 0) + 1;
    this.sink.write(spec, spec.encode(values));
  }
}

/** The contract's data schemas: the first rows of each kind are checked to be exactly what the API would store. */
const dataSchemas: Record<RecordKind, z.ZodType> = {
  interpretation: interpretationDataSchema,
  impedance: impedanceDataSchema,
  event: eventDataSchema,
  "time-log": timeLogDataSchema,
  "case-note": caseNoteDataSchema,
  "billing-note": billingNoteDataSchema,
};
const checkedPerKind = 200;

export async function generateDataset(sink: Sink, options: DatasetOptions): Promise<DatasetSummary> {
  const random = seeded(options.seed ?? 20_260_901);
  const now = options.now.getTime();
  const out = new CountingSink(sink);
  const scaled = (count: number, min = 1) => Math.max(min, Math.round(count * options.scale));
  const checked: Partial<Record<RecordKind, number>> = {};
  const summary = {
    timeLogs: 0,
    runningTimeLogs: 0,
    records: 0,
    revisions: 0,
    patientDetailsRevisions: 0,
    auditEvents: 0,
  };

  // ---- Users: 200 with groups (most are technologists); the bench administrator is one of them. ----
  const userCount = scaled(200, 12);
  const groupPlan: { groups: string[]; share: number }[] = [
    { groups: ["admin"], share: 0.02 },
    { groups: ["admin", "developer"], share: 0.01 },
    { groups: ["coordinator"], share: 0.08 },
    { groups: ["coordinator", "technologist"], share: 0.02 },
    { groups: ["reviewer"], share: 0.1 },
    { groups: ["billing"], share: 0.05 },
    { groups: ["developer"], share: 0.02 },
  ];
  const people: Person[] = [];
  const userRow = (person: Person, createdAt: number) =>
    out.row(specs.users, [
      person.sub,
      person.username,
      normaliseUsername(person.username),
      `${person.username}@vigil-bench.example`,
      true,
      null,
      person.name,
      options.passwordHash,
      "CONFIRMED",
      true,
      person.groups,
      new Date(createdAt),
      new Date(createdAt),
    ]);
  const bench: Person = {
    sub: randomUUID(),
    username: options.benchUser.username,
    name: options.benchUser.name,
    groups: ["admin"],
  };
  people.push(bench);
  userRow(bench, now - 800 * day);
  let planned = 1;
  for (const plan of groupPlan) {
    const count = Math.max(1, Math.round(plan.share * userCount));
    for (let index = 0; index < count && planned < userCount; index++, planned++) {
      const first = random.pick(firstNames);
      const last = random.pick(lastNames);
      const person: Person = {
        sub: randomUUID(),
        username: `${plan.groups.join("-")}-${index + 1}`,
        name: plan.groups.includes("reviewer") ? `Dr. ${first} ${last}` : `${first} ${last}`,
        groups: plan.groups,
      };
      people.push(person);
      userRow(person, now - random.between(100, 800) * day);
    }
  }
  for (let index = 0; planned < userCount; index++, planned++) {
    const person: Person = {
      sub: randomUUID(),
      username: `technologist-${index + 1}`,
      name: `${random.pick(firstNames)} ${random.pick(lastNames)}`,
      groups: ["technologist"],
    };
    people.push(person);
    userRow(person, now - random.between(30, 800) * day);
  }
  const inGroup = (group: string) => people.filter((person) => person.groups.includes(group));
  const technologists = inGroup("technologist");
  const coordinators = inGroup("coordinator");
  const reviewers = inGroup("reviewer");
  const billers = inGroup("billing");
  const staff = [...coordinators, ...technologists, ...reviewers];
  const author = (person: Person): Author => ({ sub: person.sub, username: person.username, name: person.name });

  // ---- Clients: time zones, protocol revisions, contacts, links, rates with their history. ----
  const clientCount = scaled(50, 2);
  const clientInfos: ClientInfo[] = [];
  const history = 760 * day;
  for (let index = 0; index < clientCount; index++) {
    const [city, region, timezone] = cities[index % cities.length] as (typeof cities)[number];
    const kind = hospitalKinds[Math.floor(index / cities.length) % hospitalKinds.length] as string;
    const name = `${city} ${kind}${index >= cities.length * hospitalKinds.length ? ` ${index}` : ""}`;
    const code = `${city
      .replace(/[^A-Za-z]/g, "")
      .slice(0, 4)
      .toUpperCase()}${index + 1}`;
    const archived = clientCount >= 10 && index === clientCount - 1;
    const inactive = clientCount >= 10 && index === clientCount - 2;
    const createdAt = now - history - random.between(0, 60) * day;
    const id = randomUUID();
    out.row(specs.clients, [
      id,
      name,
      code,
      inactive ? "inactive" : "active",
      timezone,
      `+1555${String(1_000_000 + index).slice(-7)}`,
      `${100 + index} Hospital Drive`,
      city,
      region,
      String(10_000 + index * 37),
      "US",
      null,
      archived ? new Date(now - 5 * day) : null,
      archived ? 3 : 1,
      new Date(createdAt),
      new Date(archived ? now - 5 * day : createdAt),
    ]);
    const info: ClientInfo = {
      id,
      name,
      code,
      timezone,
      archived,
      protocols: [],
      contacts: [],
      // A few large clients, many small ones (cases are spread by weight).
      weight: 1 / (1 + index * 0.08),
    };
    const revisionCount = random.int(1, 4);
    for (let revision = 1; revision <= revisionCount; revision++) {
      const at = createdAt + (revision - 1) * (history / revisionCount) + hour;
      const threshold = random.pick([5, 10, 10, 15]);
      const protocol: ProtocolContent = protocolContentSchema.parse({
        instructions: `Protocol revision ${revision} for ${name}: full 10–20 montage, impedances every ${
          8 + revision * 4
        } hours, skin checks daily.`,
        impedanceThresholdKohm: threshold,
        impedanceCheckIntervalHours: 8 + revision * 4,
        reviewTurnaroundHours: 12,
        // A fixed value: drawing it would shift every later random draw of the dataset.
        statAcknowledgeMinutes: 30,
        criticalNotification: { notify: "Charge nurse, then the neurologist on call", withinMinutes: 15 },
        transferForm: {
          title: "Transfer into continuous EEG monitoring",
          instructions: "Complete every required field and send it with the order.",
          fields: [
            { key: "patientName", label: "Patient name (last, first)", type: "text", required: true },
            { key: "mrn", label: "Medical record number (MRN)", type: "text", required: true },
            { key: "dateOfBirth", label: "Date of birth", type: "date", required: true },
            { key: "bedUnit", label: "Unit and bed", type: "text", required: true },
          ],
        },
      });
      const protocolId = randomUUID();
      const coordinator = random.pick(coordinators);
      out.row(specs.protocols, [
        protocolId,
        id,
        revision,
        protocol.instructions,
        protocol.impedanceThresholdKohm.toFixed(2),
        protocol.impedanceCheckIntervalHours,
        protocol.reviewTurnaroundHours,
        protocol.statAcknowledgeMinutes,
        protocol.criticalNotification.notify,
        protocol.criticalNotification.withinMinutes,
        protocol.transferForm,
        revision === 1 ? "Initial protocol" : "Thresholds reviewed with the medical director",
        coordinator.sub,
        coordinator.username,
        coordinator.name,
        new Date(at),
      ]);
      info.protocols.push({ id: protocolId, at, thresholdKohm: threshold });
    }
    const contactCount = random.int(2, 4);
    for (let contact = 0; contact < contactCount; contact++) {
      const contactId = randomUUID();
      const contactName = `${contact === 0 ? "Dr. " : ""}${random.pick(firstNames)} ${random.pick(lastNames)}`;
      out.row(specs.contacts, [
        contactId,
        id,
        contactName,
        contact === 0 ? "Director, Neurocritical Care" : "Charge nurse",
        `contact${contact}@${code.toLowerCase()}.example`,
        `+1555${String(2_000_000 + index * 10 + contact).slice(-7)}`,
        contact === 0,
        contact < 2,
        1,
        new Date(createdAt),
        new Date(createdAt),
      ]);
      info.contacts.push({ id: contactId, name: contactName });
    }
    out.row(specs.links, [
      randomUUID(),
      id,
      "Bed board",
      `https://intranet.${code.toLowerCase()}.example/beds`,
      "Current bed assignments.",
      1,
      new Date(createdAt),
      new Date(createdAt),
    ]);
    // Rates: set 25 months back, raised every 6–12 months; some clients have no rate for recent months.
    const biller = random.pick(billers);
    // One client in nine priced only from two months back: its older months have hours and no rate (flagged).
    const startMonth = addMonths(monthOf(options.now, timezone), index % 9 === 4 ? -2 : -25);
    let month = startMonth;
    let rate = random.int(120, 180);
    let previous: string | null = null;
    const lastMonth = monthOf(options.now, timezone);
    while (month <= lastMonth) {
      const hourlyRate = rate.toFixed(2);
      // Set about a week before the month began.
      const setAt = new Date(now - (rateMonths(month, lastMonth) + 1) * 30 * day + clientInfos.length * hour);
      out.row(specs.rates, [id, month, hourlyRate, 1, setAt, biller.sub, biller.username, biller.name]);
      out.row(specs.rateChanges, [
        randomUUID(),
        id,
        month,
        hourlyRate,
        previous,
        1,
        false,
        null,
        setAt,
        biller.sub,
        biller.username,
        biller.name,
      ]);
      previous = hourlyRate;
      rate += random.int(3, 12);
      month = addMonths(month, random.int(6, 12));
    }
    clientInfos.push(info);
  }

  // ---- Cases: stages, time spans, and how many time logs each gets (exactly the target in all). ----
  const caseCount = scaled(100_000, 50);
  const stagePlan: [Stage, number][] = [
    ["intake", 0.004],
    ["monitoring", 0.006],
    ["preview", 0.008],
    ["reviewed", 0.012],
  ];
  const stages: Stage[] = [];
  for (const [stage, share] of stagePlan) {
    for (let index = 0; index < Math.max(2, Math.round(share * caseCount)); index++) stages.push(stage);
  }
  while (stages.length < caseCount) stages.push("closed");
  const opened = (stage: Stage): number => {
    switch (stage) {
      case "intake":
        return now - random.between(0.2, 36) * hour;
      case "monitoring":
        return now - random.between(3, 5 * 24) * hour;
      case "preview":
        return now - random.between(6, 14) * day;
      case "reviewed":
        return now - random.between(8, 30) * day;
      case "closed":
        return now - random.between(25, 730) * day;
    }
  };
  const totalWeight = clientInfos.reduce((sum, client) => sum + client.weight, 0);
  const pickClient = (stage: Stage): ClientInfo => {
    for (;;) {
      let target = random.next() * totalWeight;
      for (const client of clientInfos) {
        target -= client.weight;
        if (target <= 0) {
          // The archived client has only closed cases; inactive clients keep their old ones.
          if (client.archived && stage !== "closed") break;
          return client;
        }
      }
    }
  };
  const plannedCases = stages.map((stage) => ({ stage, createdAt: opened(stage), client: pickClient(stage) }));
  plannedCases.sort((left, right) => left.createdAt - right.createdAt);

  const timeLogTarget = scaled(1_000_000, 100);
  const logCounts = new Int16Array(caseCount);
  const withLogs: number[] = [];
  plannedCases.forEach((entry, index) => {
    if (entry.stage !== "intake") withLogs.push(index);
  });
  const mean = timeLogTarget / withLogs.length;
  let assigned = 0;
  for (const index of withLogs) {
    const count = Math.max(3, Math.round(mean + random.between(-0.6, 0.6) * mean));
    logCounts[index] = count;
    assigned += count;
  }
  while (assigned !== timeLogTarget) {
    const index = random.pick(withLogs);
    const count = logCounts[index] as number;
    if (assigned < timeLogTarget) {
      logCounts[index] = count + 1;
      assigned++;
    } else if (count > 3) {
      logCounts[index] = count - 1;
      assigned--;
    }
  }

  // ---- Records: one item and its revisions, as importRecordHistory would write them. ----
  type Revision = {
    change: string;
    data: unknown;
    at: number;
    author: Author;
    meta?: Record<string, unknown>;
    deleted?: boolean;
    reason?: string | null;
  };
  const record = (caseId: string, kind: RecordKind, revisions: Revision[]): string => {
    const id = randomUUID();
    const first = revisions[0] as Revision;
    const last = revisions[revisions.length - 1] as Revision;
    if ((checked[kind] ?? 0) < checkedPerKind) {
      checked[kind] = (checked[kind] ?? 0) + 1;
      for (const revision of revisions) {
        const parsed = dataSchemas[kind].parse(revision.data);
        if (JSON.stringify(parsed) !== JSON.stringify(revision.data)) {
          throw new Error(
            `A generated ${kind} differs from what the API would store:\n${JSON.stringify(revision.data)}\n${JSON.stringify(parsed)}`,
          );
        }
      }
    }
    let meta: Record<string, unknown> = {};
    const metas = revisions.map((revision) => {
      meta = { ...meta, ...revision.meta };
      return meta;
    });
    out.row(specs.records, [
      id,
      caseId,
      kind,
      revisions.length,
      last.deleted ?? false,
      last.data,
      metas[metas.length - 1],
      first.author.sub,
      first.author.username,
      first.author.name,
      new Date(first.at),
      last.author.sub,
      last.author.username,
      last.author.name,
      new Date(last.at),
    ]);
    revisions.forEach((revision, index) => {
      out.row(specs.revisions, [
        randomUUID(),
        id,
        caseId,
        kind,
        index + 1,
        revision.change,
        revision.deleted ?? false,
        revision.reason ?? null,
        revision.data,
        metas[index],
        revision.author.sub,
        revision.author.username,
        revision.author.name,
        new Date(revision.at),
      ]);
    });
    summary.records++;
    summary.revisions += revisions.length;
    return id;
  };

  const year = (at: number) => new Date(at).getUTCFullYear();
  const ip = () => `10.${random.int(0, 3)}.${random.int(0, 255)}.${random.int(1, 254)}`;
  const audit = (at: number, actor: Person, action: string, target: [string, string] | null, details: unknown) => {
    out.row(specs.audit, [
      randomUUID(),
      new Date(at),
      actor.sub,
      actor.username,
      action,
      target?.[0] ?? null,
      target?.[1] ?? null,
      "success",
      ip(),
      userAgent,
      details,
    ]);
    summary.auditEvents++;
  };

  const byStage: Record<string, number> = {};
  const order: Stage[] = ["intake", "monitoring", "preview", "reviewed", "closed"];
  for (let index = 0; index < plannedCases.length; index++) {
    const { stage, createdAt, client } = plannedCases[index] as (typeof plannedCases)[number];
    byStage[stage] = (byStage[stage] ?? 0) + 1;
    const stageIndex = order.indexOf(stage);
    const caseId = randomUUID();
    const caseNumber = `CM-${year(createdAt)}-${String(index + 1).padStart(6, "0")}`;
    const studyType = random.pick(["icu-ceeg", "icu-ceeg", "icu-ceeg", "emu-video", "ambulatory"] as const);
    const hasVideo = studyType !== "ambulatory" && random.chance(0.85);
    const priority = random.chance(0.12) ? "stat" : "routine";
    const coordinator = random.pick(coordinators);

    // The workflow's moments.
    const started = stageIndex >= 1 ? createdAt + random.between(0.5, 4) * hour : null;
    const studyHours =
      studyType === "ambulatory" ? random.between(24, 72) : studyType === "emu-video" ? random.between(24, 120) : 0;
    const icuHours = random.between(18, 96);
    let ended: number | null = null;
    if (started !== null && stageIndex >= 2) {
      ended = started + (studyHours || icuHours) * hour;
      // A preview case has finished recording before now.
      ended = Math.min(ended, now - 6 * hour - random.between(0, 24) * hour);
      if (ended <= started + 2 * hour) ended = started + 2 * hour + random.between(0, 4) * hour;
    }
    const reviewedAt = ended !== null && stageIndex >= 3 ? ended + random.between(4, 48) * hour : null;
    const closedAt = reviewedAt !== null && stageIndex >= 4 ? reviewedAt + random.between(1, 10) * day : null;
    const mode =
      studyType !== "ambulatory"
        ? "continuous"
        : stage === "monitoring" || random.chance(0.5)
          ? "intermittent"
          : "unmonitored";
    const pinned =
      started !== null
        ? ([...client.protocols].reverse().find((protocol) => protocol.at <= started) ?? client.protocols[0])
        : undefined;

    // Technologists: 1–3 shifts' worth per case (intake cases are half the time assigned already).
    const techCount = stageIndex === 0 ? (random.chance(0.5) ? 1 : 0) : random.int(1, 3);
    const techs: Person[] = [];
    while (techs.length < techCount) {
      const candidate = random.pick(technologists);
      if (!techs.includes(candidate)) techs.push(candidate);
    }
    const hasReviewer = stageIndex >= 2 || priority === "stat";
    const reviewer = hasReviewer ? random.pick(reviewers) : undefined;
    const acknowledged = priority === "stat" && stageIndex >= 1 && reviewer !== undefined;
    const acknowledgedAt = acknowledged ? createdAt + random.between(0.1, 1) * hour : null;

    // Patient details: revision 1 at opening; some later revisions (a move, a corrected name).
    const first = random.pick(firstNames);
    const last = random.pick(lastNames);
    const mrn = `${client.code}-${String(1_000_000 + ((index * 7919) % 9_000_000)).padStart(7, "0")}`;
    const dateOfBirth = `${random.int(1935, 2022)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(
      random.int(1, 28),
    ).padStart(2, "0")}`;
    const sex = random.pick(["female", "male"]);
    const patientRevisions: { lastName: string; unit: string; at: number; reason: string | null; by: Person }[] = [
      { lastName: last, unit: random.pick(units), at: createdAt, reason: null, by: coordinator },
    ];
    const latestMoment = closedAt ?? reviewedAt ?? ended ?? started ?? createdAt;
    if (random.chance(0.3)) {
      patientRevisions.push({
        lastName: last,
        unit: random.pick(units),
        at: createdAt + (latestMoment - createdAt) * random.between(0.1, 0.6),
        reason: "Patient moved to another unit",
        by: random.pick([...coordinators, ...techs]),
      });
    }
    if (random.chance(0.08)) {
      patientRevisions.push({
        lastName: `${last}-${random.pick(lastNames)}`,
        unit: (patientRevisions[patientRevisions.length - 1] as { unit: string }).unit,
        at: createdAt + (latestMoment - createdAt) * random.between(0.65, 0.95),
        reason: "Family name corrected from the hospital's registration (identification error)",
        by: coordinator,
      });
    }
    patientRevisions.forEach((revision, number) => {
      out.row(specs.patientDetails, [
        randomUUID(),
        caseId,
        number + 1,
        mrn,
        first,
        revision.lastName,
        dateOfBirth,
        sex,
        revision.unit,
        String(random.int(1, 30)),
        random.pick(["A", "B", "1", "2"]),
        `Dr. ${random.pick(firstNames)} ${random.pick(lastNames)}`,
        random.pick(indications),
        random.pick(medications),
        revision.reason,
        revision.by.sub,
        revision.by.username,
        revision.by.name,
        new Date(revision.at),
      ]);
      summary.patientDetailsRevisions++;
    });
    const latestPatient = patientRevisions[patientRevisions.length - 1] as (typeof patientRevisions)[number];

    // Assignments and the case's own actions.
    const actions: [string, unknown, Person, number][] = [
      [
        "create",
        { clientId: client.id, studyType, priority, hasVideo, patientDetailsRevision: 1 },
        coordinator,
        createdAt,
      ],
    ];
    techs.forEach((tech, number) => {
      const assignedAt = createdAt + (number + 0.25) * 0.2 * hour;
      const assignmentId = randomUUID();
      out.row(specs.assignments, [
        assignmentId,
        caseId,
        tech.sub,
        tech.username,
        tech.name,
        new Date(assignedAt),
        closedAt !== null ? new Date(closedAt) : null,
        coordinator.sub,
        coordinator.username,
        coordinator.name,
      ]);
      actions.push(["assign-technologist", { assignmentId, technologist: author(tech) }, coordinator, assignedAt]);
    });
    if (reviewer) {
      actions.push([
        "assign-reviewer",
        { reviewer: author(reviewer), previous: null },
        coordinator,
        createdAt + 0.3 * hour,
      ]);
    }
    if (acknowledged && reviewer && acknowledgedAt !== null) {
      actions.push(["acknowledge", { becameReviewer: false }, reviewer, acknowledgedAt]);
    }
    for (const [action, details, by, at] of actions) {
      out.row(specs.actions, [randomUUID(), caseId, action, details, by.sub, by.username, by.name, new Date(at)]);
    }

    // The moves that brought it to its stage.
    const moves: [string, Stage, Stage, number | null, Person | undefined][] = [
      ["start-monitoring", "intake", "monitoring", started, techs[0] ?? coordinator],
      ["end-monitoring", "monitoring", "preview", ended, techs[techs.length - 1] ?? coordinator],
      ["sign-off", "preview", "reviewed", reviewedAt, reviewer],
      ["close", "reviewed", "closed", closedAt, random.pick(billers)],
    ];
    let version = 1 + techs.length + (reviewer ? 1 : 0) + (acknowledged ? 1 : 0) + (patientRevisions.length - 1);
    for (const [ruleId, from, to, at, by] of moves) {
      if (at === null || !by) continue;
      version++;
      out.row(specs.transitions, [
        randomUUID(),
        caseId,
        ruleId,
        from,
        to,
        "completed",
        by.sub,
        by.username,
        by.name,
        by.sub,
        by.username,
        by.name,
        new Date(at),
        new Date(at),
      ]);
      audit(at, by, "case.transition", ["case", caseId], { caseNumber, ruleId, from, to });
    }

    out.row(specs.cases, [
      caseId,
      caseNumber,
      client.id,
      studyType,
      hasVideo,
      priority,
      stage,
      pinned?.id ?? null,
      started !== null ? new Date(started) : null,
      ended !== null ? new Date(ended) : null,
      reviewer?.sub ?? null,
      reviewer?.username ?? null,
      reviewer?.name ?? null,
      acknowledged ? reviewer?.sub : null,
      acknowledged ? reviewer?.username : null,
      acknowledged ? reviewer?.name : null,
      acknowledgedAt !== null ? new Date(acknowledgedAt) : null,
      mrn,
      first,
      latestPatient.lastName,
      coordinator.sub,
      coordinator.username,
      coordinator.name,
      version,
      new Date(createdAt),
      new Date(Math.max(latestMoment, latestPatient.at)),
    ]);
    audit(createdAt, coordinator, "case.create", ["case", caseId], {
      caseNumber,
      clientId: client.id,
      studyType,
      priority,
      hasVideo,
      patientDetailsRevision: 1,
    });
    // Patient-data reads: every open of the case left one.
    const reads = random.int(1, 4);
    for (let read = 0; read < reads; read++) {
      const at = Math.min(now, createdAt + (Math.max(latestMoment, createdAt + hour) - createdAt) * random.next());
      audit(at, random.pick(staff), "patient-data.read", ["case", caseId], {
        route: "getCase",
        method: "GET",
        url: `/api/continuous-monitoring/cases/${caseId}`,
        status: 200,
      });
    }

    // Case notes (any stage), some edited.
    const noteCount = random.int(0, 2);
    for (let note = 0; note < noteCount; note++) {
      const by = random.pick([coordinator, ...techs]);
      const at = createdAt + (latestMoment - createdAt) * random.next();
      const revisions: Revision[] = [
        {
          change: "create",
          data: { category: random.pick(["general", "handoff", "issue"]), body: random.pick(noteBodies) },
          at,
          author: author(by),
        },
      ];
      const edits = random.chance(0.35) ? random.int(1, 2) : 0;
      for (let edit = 1; edit <= edits; edit++) {
        revisions.push({
          change: "edit",
          data: {
            category: (revisions[0]?.data as { category: string }).category,
            body: `${random.pick(noteBodies)} (updated)`,
          },
          at: at + edit * random.between(0.2, 3) * hour,
          author: author(by),
          reason: stageIndex >= 2 ? "Clarified" : null,
        });
      }
      record(caseId, "case-note", revisions);
    }
    if (started === null) continue;

    // Time logs: set-up, monitoring shifts (the last one running while the case is monitored), take-down.
    const logCount = logCounts[index] as number;
    const studyEnd = ended ?? now;
    const recording = ended !== null;
    const setupEnd = started + random.between(0.5, 1) * hour;
    const takedownStart = recording ? studyEnd - random.between(0.25, 0.5) * hour : studyEnd;
    const shifts = logCount - (recording ? 2 : 1);
    const shiftLength = (takedownStart - setupEnd) / Math.max(1, shifts);
    const channels = random.chance(0.05) ? null : random.pick([21, 21, 21, 23, 32, 8, 16]);
    const logs: { activity: string; start: number; end: number | null; tech: Person }[] = [
      { activity: "setup", start: started, end: setupEnd, tech: techs[0] as Person },
    ];
    for (let shift = 0; shift < shifts; shift++) {
      const start = setupEnd + shift * shiftLength + (shift === 0 ? 0 : random.between(0, 2) * minute);
      const isLast = shift === shifts - 1;
      const end = isLast && !recording ? null : setupEnd + (shift + 1) * shiftLength;
      logs.push({
        activity: random.chance(0.06) ? "review" : "monitoring",
        start,
        end,
        tech: techs[(shift + 1) % techs.length] as Person,
      });
    }
    if (recording) {
      logs.push({ activity: "takedown", start: takedownStart, end: studyEnd, tech: techs[techs.length - 1] as Person });
    }
    for (const log of logs) {
      const running = log.end === null;
      const data = {
        activity: log.activity,
        mode,
        video: hasVideo,
        startedAt: new Date(log.start).toISOString(),
        endedAt: running ? null : new Date(log.end as number).toISOString(),
        billable: log.activity !== "review",
        channels,
        notes: log.activity === "setup" ? "21 electrodes, 10–20 system, collodion." : "",
      };
      const who = author(log.tech);
      const revisions: Revision[] = [
        { change: "create", data: { ...data, endedAt: null }, at: log.start, author: who },
      ];
      if (!running) revisions.push({ change: "clock-out", data, at: log.end as number, author: who });
      let finalData = data;
      if (!running && random.chance(0.03)) {
        finalData = { ...data, notes: "Clock-out time corrected from the shift sheet." };
        revisions.push({
          change: "edit",
          data: finalData,
          at: (log.end as number) + random.between(0.1, 2) * hour,
          author: who,
          reason: "Corrected from the shift sheet",
        });
      }
      const deleted = !running && random.chance(0.004);
      if (deleted) {
        revisions.push({
          change: "delete",
          data: finalData,
          at: (log.end as number) + random.between(2, 6) * hour,
          author: who,
          deleted: true,
          reason: "Entered on the wrong case",
        });
      }
      const recordId = record(caseId, "time-log", revisions);
      out.row(specs.timeLogs, [
        recordId,
        caseId,
        who.sub,
        who.username,
        who.name,
        finalData.activity,
        finalData.mode,
        finalData.video,
        finalData.billable,
        finalData.channels,
        new Date(log.start),
        running ? null : new Date(log.end as number),
        deleted,
      ]);
      summary.timeLogs++;
      if (running) summary.runningTimeLogs++;
    }

    // Impedance checks (judged by the pinned protocol's threshold), events, an interpretation, a billing note.
    const threshold = pinned?.thresholdKohm ?? 10;
    const checks = random.int(1, 3);
    for (let check = 0; check < checks; check++) {
      const at = started + 0.5 * hour + (studyEnd - started - hour) * (check / checks);
      const high = random.chance(0.15);
      record(caseId, "impedance", [
        {
          change: "create",
          data: {
            checkedAt: new Date(at).toISOString(),
            values: ["Fp1", "Fp2", "C3", "C4", "O1", "O2", "T7", "T8"].map((electrode, number) => ({
              electrode,
              kohm: high && number === 4 ? threshold + 4.5 : Math.round(random.between(1.5, 4.9) * 10) / 10,
            })),
            notes: high ? "O1 lifted during repositioning; re-gelled after the check." : "",
          },
          at,
          author: author(random.pick(techs)),
          meta: { thresholdKohm: threshold },
        },
      ]);
    }
    const events = random.int(0, 3) + (mode === "intermittent" ? random.int(1, 3) : 0);
    for (let event = 0; event < events; event++) {
      const at = started + (studyEnd - started) * random.next();
      const type =
        mode === "intermittent" && event === 0
          ? "review-check"
          : random.pick([
              "seizure",
              "clinical",
              "push-button",
              "artifact",
              "skin-check",
              "notification",
              "review-check",
            ]);
      const contact = random.pick(client.contacts);
      const data = {
        occurredAt: new Date(at).toISOString(),
        type,
        description:
          type === "seizure" ? "Electrographic seizure, left temporal onset, 45 s." : `Event of type ${type} noted.`,
        notification:
          type === "notification"
            ? {
                contactId: contact.id,
                name: contact.name,
                method: "phone",
                notifiedAt: new Date(at).toISOString(),
                acknowledgedAt: random.chance(0.8) ? new Date(at + 10 * minute).toISOString() : null,
              }
            : null,
        skinCheck: type === "skin-check" ? { condition: "intact", sites: "", actionTaken: "" } : null,
      };
      record(caseId, "event", [{ change: "create", data, at, author: author(random.pick(techs)) }]);
    }
    if (stageIndex >= 2 && ended !== null) {
      const by = reviewer ?? random.pick(reviewers);
      const data = {
        reportType: studyHours > 36 || icuHours > 36 ? "summary" : "daily",
        periodFrom: new Date(started).toISOString(),
        periodTo: new Date(ended).toISOString(),
        history: "Adult with altered mental status; seizures to be excluded.",
        technicalDescription: "21 electrodes (10–20 system); video recorded throughout.",
        background: {
          continuity: "continuous",
          symmetry: "symmetric",
          predominantFrequency: "alpha",
          pdrHz: 9.5,
          voltage: "normal",
          reactivity: "present",
          stateChanges: "present-normal",
          notes: "",
        },
        findings: [],
        seizures: { classification: "none", count: null, description: "" },
        impression: stageIndex >= 3 ? "Normal continuous EEG. No epileptiform discharges; no seizures." : "",
        clinicalCorrelation: stageIndex >= 3 ? "A normal study does not exclude epilepsy." : "",
      };
      const drafted = ended + random.between(1, 4) * hour;
      const revisions: Revision[] = [
        {
          change: "create",
          data: { ...data, impression: "", clinicalCorrelation: "" },
          at: drafted,
          author: author(by),
          meta: { status: "draft", signedBy: null, signedAt: null, addenda: [] },
        },
      ];
      if (reviewedAt !== null) {
        revisions.push({ change: "edit", data, at: reviewedAt - 0.5 * hour, author: author(by) });
        revisions.push({
          change: "sign",
          data,
          at: reviewedAt,
          author: author(by),
          meta: { status: "final", signedBy: author(by), signedAt: new Date(reviewedAt).toISOString() },
        });
      }
      record(caseId, "interpretation", revisions);
    }
    if (reviewedAt !== null && (closedAt !== null || random.chance(0.5))) {
      const biller = random.pick(billers);
      const at = reviewedAt + random.between(1, 20) * hour;
      const data = {
        body: "Continuous video-EEG with real-time monitoring; summary report signed.",
        cptCodes: [
          { code: "95700", units: 1, modifiers: [] },
          { code: "95716", units: 1, modifiers: [] },
        ],
        adjustments: "",
        acknowledgedWarnings: [],
      };
      const revisions: Revision[] = [{ change: "create", data, at, author: author(biller) }];
      if (random.chance(0.3)) {
        revisions.push({
          change: "edit",
          data: { ...data, cptCodes: [...data.cptCodes, { code: "95720", units: 1, modifiers: [] }] },
          at: at + hour,
          author: author(biller),
        });
      }
      record(caseId, "billing-note", revisions);
    }

    if (index % 500 === 499) {
      await sink.drain();
      if (index % 5000 === 4999) options.progress?.(index + 1, plannedCases.length);
    }
  }
  options.progress?.(plannedCases.length, plannedCases.length);

  return {
    clients: clientInfos.length,
    users: people.length,
    cases: plannedCases.length,
    byStage,
    ...summary,
    caseNumberSequence: plannedCases.length,
    rows: out.counts,
  };
}

function rateMonths(from: string, to: string): number {
  const [fromYear, fromMonth] = from.split("-").map(Number) as [number, number];
  const [toYear, toMonth] = to.split("-").map(Number) as [number, number];
  return (toYear - fromYear) * 12 + (toMonth - fromMonth);
}
