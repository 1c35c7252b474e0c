import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AccessGroup } from "@vigil/contract";
import { accessGroups, type ProtocolContent, protocolContentSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { generatePassword, hashPassword } from "../identity/passwords.js";
import { normaliseUsername } from "../identity/users-repository.js";
import { addMonths, currentMonth } from "../modules/billing/billing-calendar.js";
import type { Db } from "./client.js";
import {
  billingRateChanges,
  billingRates,
  caseActions,
  caseAssignments,
  casePatientDetails,
  cases,
  caseTransitions,
  clientContacts,
  clients,
  clientUsefulLinks,
  protocolRevisions,
  users,
} from "./schema.js";
import { type SeededCase, seedDemoRecords } from "./seed-records.js";

const demoClients = [
  {
    name: "St. Mary's Regional Medical Center",
    code: "SMRMC",
    timezone: "America/New_York",
    phone: "+16175550100",
    city: "Boston",
    region: "MA",
  },
  {
    name: "Lakeside Children's Hospital",
    code: "LCH",
    timezone: "America/Chicago",
    phone: "+13125550100",
    city: "Chicago",
    region: "IL",
  },
  {
    name: "Pacific Neurology Institute",
    code: "PNI",
    timezone: "America/Los_Angeles",
    phone: "+15035550100",
    city: "Portland",
    region: "OR",
  },
];

/**
 * The transfer form a referring ICU fills in to send a patient into monitoring: the same questions at every
 * demo client, so the differences between their protocols stay in the thresholds and instructions.
 */
const demoTransferFields: ProtocolContent["transferForm"]["fields"] = [
  { key: "patientName", label: "Patient name (last, first)", type: "text", required: true },
  { key: "mrn", label: "Medical record number (MRN)", type: "text", required: true },
  { key: "dateOfBirth", label: "Date of birth", type: "date", required: true },
  { key: "referringPhysician", label: "Referring physician", type: "text", required: true },
  {
    key: "referringPhysicianPhone",
    label: "Referring physician phone",
    type: "phone",
    required: true,
    help: "A number that reaches the physician 24/7, in international form (+1…).",
  },
  {
    key: "indication",
    label: "Indication for monitoring",
    type: "select",
    required: true,
    options: [
      "Seizures / suspected non-convulsive seizures",
      "Altered mental status of unclear cause",
      "Post-cardiac arrest (prognostication)",
      "Status epilepticus (treatment monitoring)",
      "Subarachnoid hemorrhage (vasospasm)",
      "Traumatic brain injury",
      "Characterisation of spells",
      "Other (describe in notes)",
    ],
  },
  {
    key: "anticonvulsants",
    label: "Current anticonvulsants and sedation (drug, dose, last given)",
    type: "textarea",
    required: false,
  },
  {
    key: "isolationPrecautions",
    label: "Isolation precautions",
    type: "select",
    required: true,
    options: ["None", "Contact", "Droplet", "Airborne", "Contact + droplet", "Enteric / C. difficile"],
  },
  { key: "bedUnit", label: "Unit and bed", type: "text", required: true, help: "e.g. Neuro ICU, bed 12" },
];

type DemoClientExtras = {
  protocol: Omit<ProtocolContent, "transferForm" | "criticalNotification"> & { notify: string; withinMinutes: number };
  contacts: {
    name: string;
    role: string;
    email: string;
    phone: string;
    isPrimary: boolean;
    notifyOnCritical: boolean;
  }[];
  link: { title: string; url: string; description: string };
};

/** Protocol revision 1, two contacts and a useful link for each demo client (same order as demoClients). */
const demoClientExtras: DemoClientExtras[] = [
  {
    protocol: {
      instructions:
        "Adult neuro ICU. Apply a full 10–20 montage with collodion for studies expected to last over 24 hours. " +
        "Check impedances at set-up and every 12 hours; re-gel or re-apply any electrode above threshold. " +
        "Push-button events are reviewed within the hour. Skin checks under the electrodes every 24 hours.",
      impedanceThresholdKohm: 10,
      impedanceCheckIntervalHours: 12,
      reviewTurnaroundHours: 12,
      notify: "Neuro ICU charge nurse, then the on-call neurologist",
      withinMinutes: 15,
    },
    contacts: [
      {
        name: "Dr. Maria Alvarez",
        role: "Director, Neurocritical Care",
        email: "malvarez@smrmc.example",
        phone: "+16175550142",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "James O'Connor, RN",
        role: "Neuro ICU charge nurse",
        email: "joconnor@smrmc.example",
        phone: "+16175550187",
        isPrimary: false,
        notifyOnCritical: true,
      },
    ],
    link: {
      title: "Neuro ICU bed board",
      url: "https://intranet.smrmc.example/neuro-icu/bed-board",
      description: "Current bed assignments; check before calling the unit.",
    },
  },
  {
    protocol: {
      instructions:
        "Pediatric ICU and epilepsy monitoring unit. Use age-appropriate electrode placement and paste, not " +
        "collodion, for patients under 2 years. Impedances every 8 hours; fragile skin: skin check every 12 " +
        "hours. Parents may press the event button; ask the bedside nurse to annotate.",
      impedanceThresholdKohm: 5,
      impedanceCheckIntervalHours: 8,
      reviewTurnaroundHours: 8,
      notify: "PICU fellow on call",
      withinMinutes: 10,
    },
    contacts: [
      {
        name: "Dr. Kenji Watanabe",
        role: "Pediatric epileptologist",
        email: "kwatanabe@lakeside-childrens.example",
        phone: "+13125550123",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "Priya Natarajan",
        role: "EEG lab manager",
        email: "pnatarajan@lakeside-childrens.example",
        phone: "+13125550168",
        isPrimary: false,
        notifyOnCritical: false,
      },
    ],
    link: {
      title: "PICU admission guidelines",
      url: "https://policies.lakeside-childrens.example/picu/admission",
      description: "Who may be admitted to cEEG from the PICU and the EMU.",
    },
  },
  {
    protocol: {
      instructions:
        "Ambulatory and EMU studies. Ambulatory patients keep a paper event diary; scan it into the case notes " +
        "at takedown. EMU video studies: confirm the camera covers the whole bed at every shift change. " +
        "Impedances at set-up and daily.",
      impedanceThresholdKohm: 10,
      impedanceCheckIntervalHours: 24,
      reviewTurnaroundHours: 24,
      notify: "Attending neurologist of record",
      withinMinutes: 30,
    },
    contacts: [
      {
        name: "Dr. Samuel Reyes",
        role: "Medical director, EMU",
        email: "sreyes@pacificneuro.example",
        phone: "+15035550110",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "Helen Park",
        role: "Scheduling coordinator",
        email: "hpark@pacificneuro.example",
        phone: "+15035550135",
        isPrimary: false,
        notifyOnCritical: false,
      },
    ],
    link: {
      title: "EMU scheduling calendar",
      url: "https://calendar.pacificneuro.example/emu",
      description: "Book and move EMU admissions.",
    },
  },
];

/** Validated by the contract's own schema, so the seed can never hold a protocol the API would refuse. */
function demoProtocol(extras: DemoClientExtras["protocol"]): ProtocolContent {
  return protocolContentSchema.parse({
    instructions: extras.instructions,
    impedanceThresholdKohm: extras.impedanceThresholdKohm,
    impedanceCheckIntervalHours: extras.impedanceCheckIntervalHours,
    reviewTurnaroundHours: extras.reviewTurnaroundHours,
    criticalNotification: { notify: extras.notify, withinMinutes: extras.withinMinutes },
    transferForm: {
      title: "Transfer into continuous EEG monitoring",
      instructions:
        "Complete every required field and send it with the order. A technologist calls the unit within one hour " +
        "to arrange set-up. For a STAT study, also page the on-call EEG technologist.",
      fields: demoTransferFields,
    },
  });
}

type DemoCase = {
  client: number;
  studyType: string;
  hasVideo: boolean;
  priority: string;
  stage: "intake" | "monitoring" | "preview" | "reviewed" | "closed";
  /** Hours before now the case was opened; the workflow's steps follow at fixed offsets. */
  openedHoursAgo: number;
  technologistAssigned: boolean;
  patient: {
    mrn: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    sex: "female" | "male";
    unit: string;
    room: string;
    bed: string;
    referringPhysician: string;
    indication: string;
    medications: string;
  };
};

const demoCases: DemoCase[] = [
  {
    client: 0,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "stat",
    stage: "intake",
    openedHoursAgo: 1,
    technologistAssigned: false,
    patient: {
      mrn: "SM-448120",
      firstName: "Margaret",
      lastName: "Okafor",
      dateOfBirth: "1957-03-14",
      sex: "female",
      unit: "Neuro ICU",
      room: "4",
      bed: "A",
      referringPhysician: "Dr. Alan Pierce (Neurocritical Care)",
      indication: "Altered mental status after cardiac arrest; rule out non-convulsive seizures.",
      medications: "Propofol infusion; levetiracetam 1 g IV q12h",
    },
  },
  {
    client: 1,
    studyType: "emu-video",
    hasVideo: true,
    priority: "routine",
    stage: "intake",
    openedHoursAgo: 20,
    technologistAssigned: true,
    patient: {
      mrn: "LCH-0093381",
      firstName: "Ethan",
      lastName: "Morales",
      dateOfBirth: "2014-09-02",
      sex: "male",
      unit: "Epilepsy Monitoring Unit",
      room: "12",
      bed: "1",
      referringPhysician: "Dr. Priya Natarajan (Pediatric Neurology)",
      indication: "Characterise staring spells; pre-surgical evaluation.",
      medications: "Lamotrigine 75 mg BID",
    },
  },
  {
    client: 0,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "routine",
    stage: "monitoring",
    openedHoursAgo: 30,
    technologistAssigned: true,
    patient: {
      mrn: "SM-447902",
      firstName: "Robert",
      lastName: "Lindqvist",
      dateOfBirth: "1949-11-27",
      sex: "male",
      unit: "Surgical ICU",
      room: "9",
      bed: "B",
      referringPhysician: "Dr. Alan Pierce (Neurocritical Care)",
      indication: "Subarachnoid haemorrhage day 5; monitor for delayed cerebral ischaemia and seizures.",
      medications: "Nimodipine 60 mg q4h; levetiracetam 500 mg BID",
    },
  },
  {
    client: 2,
    studyType: "ambulatory",
    hasVideo: false,
    priority: "routine",
    stage: "monitoring",
    openedHoursAgo: 50,
    technologistAssigned: true,
    patient: {
      mrn: "HV-220871",
      firstName: "Aisha",
      lastName: "Rahman",
      dateOfBirth: "1991-06-18",
      sex: "female",
      unit: "Home",
      room: "",
      bed: "",
      referringPhysician: "Dr. Mark Ellison (Neurology clinic)",
      indication: "Differentiate epileptic from non-epileptic events; routine EEG non-diagnostic.",
      medications: "None",
    },
  },
  {
    client: 1,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "stat",
    stage: "preview",
    openedHoursAgo: 60,
    technologistAssigned: true,
    patient: {
      mrn: "LCH-0091127",
      firstName: "Sofia",
      lastName: "Kowalski",
      dateOfBirth: "2019-01-30",
      sex: "female",
      unit: "PICU",
      room: "3",
      bed: "A",
      referringPhysician: "Dr. Priya Natarajan (Pediatric Neurology)",
      indication: "Febrile status epilepticus; monitor response to treatment.",
      medications: "Fosphenytoin; midazolam infusion weaned",
    },
  },
  {
    client: 2,
    studyType: "emu-video",
    hasVideo: true,
    priority: "routine",
    stage: "reviewed",
    openedHoursAgo: 120,
    technologistAssigned: true,
    patient: {
      mrn: "HV-219554",
      firstName: "Daniel",
      lastName: "Brooks",
      dateOfBirth: "1978-08-09",
      sex: "male",
      unit: "Epilepsy Monitoring Unit",
      room: "2",
      bed: "1",
      referringPhysician: "Dr. Mark Ellison (Neurology clinic)",
      indication: "Medication withdrawal to capture typical events for classification.",
      medications: "Carbamazepine tapered per protocol",
    },
  },
  {
    client: 0,
    studyType: "ambulatory",
    hasVideo: false,
    priority: "routine",
    stage: "closed",
    openedHoursAgo: 240,
    technologistAssigned: true,
    patient: {
      mrn: "SM-440315",
      firstName: "Helen",
      lastName: "Nakamura",
      dateOfBirth: "1966-04-21",
      sex: "female",
      unit: "Home",
      room: "",
      bed: "",
      referringPhysician: "Dr. Alan Pierce (Neurology clinic)",
      indication: "Quantify seizure frequency before medication change.",
      medications: "Valproate 500 mg BID",
    },
  },
];

const demoNames: Record<AccessGroup, string> = {
  admin: "Avery Admin",
  coordinator: "Casey Coordinator",
  technologist: "Taylor Technologist",
  reviewer: "Dr. Riley Reviewer",
  billing: "Blake Billing",
  developer: "Devon Developer",
};

export type DemoCredential = { username: string; password: string; groups: AccessGroup[] };

/**
 * Demo data for a first look: three clients, cases in every stage, one user per access group. Runs only on an
 * empty database (no users), inside one transaction holding an advisory lock so that two instances starting
 * on a fresh PostgreSQL seed once. Passwords are generated, printed once and saved beside the data.
 */
export async function seedIfEmpty(db: Db, config: Config, log: FastifyBaseLogger): Promise<DemoCredential[]> {
  const credentials = await seedDemoData(db);
  if (credentials.length === 0) return credentials;
  const file = path.join(config.dataDir, "demo-credentials.txt");
  mkdirSync(config.dataDir, { recursive: true });
  const lines = credentials.map((entry) => `${entry.username}\t${entry.password}\t${entry.groups.join(",")}`);
  writeFileSync(
    file,
    `# username\tpassword\tgroups (demo users; change or disable them before real use)\n${lines.join("\n")}\n`,
  );
  chmodSync(file, 0o600);
  log.info(
    { demoUsers: credentials.map(({ username, groups }) => ({ username, groups })), credentialsFile: file },
    "Seeded demo data",
  );
  // Printed plainly as well: this is how a new user learns how to sign in.
  console.log(
    [
      "",
      `Demo users were created. Sign in at ${config.publicUrl} with one of these (shown once; also saved to`,
      `${file}):`,
      ...credentials.map((entry) => `  ${entry.username.padEnd(14)} ${entry.password}   (${entry.groups.join(", ")})`),
      "",
    ].join("\n"),
  );
  return credentials;
}

export async function seedDemoData(db: Db): Promise<DemoCredential[]> {
  const prepared = await Promise.all(
    accessGroups.map(async (group) => {
      const password = generatePassword();
      return { group, password, passwordHash: await hashPassword(password) };
    }),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7347002)`);
    const [existing] = await tx.select({ total: sql<number>`count(*)::int` }).from(users);
    if ((existing?.total ?? 0) > 0) return [];

    const insertedClients = await tx
      .insert(clients)
      .values(demoClients.map((client) => ({ ...client, country: "US", status: "active" })))
      .returning({ id: clients.id });
    const insertedUsers = await tx
      .insert(users)
      .values(
        prepared.map(({ group, passwordHash }) => ({
          username: group,
          usernameKey: normaliseUsername(group),
          email: `${group}@vigil.example`,
          emailVerified: true,
          name: demoNames[group],
          passwordHash,
          status: "CONFIRMED",
          groups: [group],
        })),
      )
      .returning({ sub: users.sub, username: users.username, name: users.name });
    const author = insertedUsers.find((user) => user.username === "coordinator");
    await seedClientDetails(
      tx,
      insertedClients.map((client) => client.id),
      author,
    );
    const seeded = await seedCases(
      tx,
      insertedClients.map((client) => client.id),
      insertedUsers,
    );
    const person = (username: string) => {
      const user = insertedUsers.find((candidate) => candidate.username === username) as SeedUser;
      return { sub: user.sub, username: user.username, name: user.name };
    };
    await seedDemoRecords(tx, seeded, {
      coordinator: person("coordinator"),
      technologist: person("technologist"),
      reviewer: person("reviewer"),
      billing: person("billing"),
    });
    await seedDemoRates(
      tx,
      insertedClients.map((client) => client.id),
      person("billing"),
    );
    return prepared.map(({ group, password }) => ({ username: group, password, groups: [group] }));
  });
}

/** Each demo client's protocol revision 1 (written by the demo coordinator), two contacts and a useful link. */
async function seedClientDetails(
  tx: Db,
  clientIds: string[],
  author: { sub: string; username: string; name: string } | undefined,
): Promise<void> {
  const details = clientIds.map((clientId, index) => ({
    clientId,
    extras: demoClientExtras[index % demoClientExtras.length] as DemoClientExtras,
  }));
  await tx.insert(protocolRevisions).values(
    details.map(({ clientId, extras }) => {
      const protocol = demoProtocol(extras.protocol);
      return {
        clientId,
        revision: 1,
        instructions: protocol.instructions,
        impedanceThresholdKohm: protocol.impedanceThresholdKohm.toFixed(2),
        impedanceCheckIntervalHours: protocol.impedanceCheckIntervalHours,
        reviewTurnaroundHours: protocol.reviewTurnaroundHours,
        criticalNotify: protocol.criticalNotification.notify,
        criticalNotifyWithinMinutes: protocol.criticalNotification.withinMinutes,
        transferForm: protocol.transferForm,
        changeNote: "Initial protocol",
        authorSub: author?.sub ?? null,
        authorUsername: author?.username ?? "seed",
        authorName: author?.name ?? null,
      };
    }),
  );
  await tx
    .insert(clientContacts)
    .values(details.flatMap(({ clientId, extras }) => extras.contacts.map((contact) => ({ clientId, ...contact }))));
  await tx.insert(clientUsefulLinks).values(details.map(({ clientId, extras }) => ({ clientId, ...extras.link })));
}

type SeedUser = { sub: string; username: string; name: string };

/**
 * The demo cases with the workflow they went through: patient details (revision 1), technologist assignments,
 * the reviewer, the pinned protocol revision, recording times and the transitions that brought each one to its
 * stage. Numbers come from the case-number sequence, so cases opened later continue after them.
 */
async function seedCases(tx: Db, clientIds: string[], people: SeedUser[]): Promise<SeededCase[]> {
  const seeded: SeededCase[] = [];
  const byName = (username: string) => people.find((user) => user.username === username) as SeedUser;
  const coordinator = byName("coordinator");
  const technologist = byName("technologist");
  const reviewer = byName("reviewer");
  const billing = byName("billing");
  const year = new Date().getUTCFullYear();
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  const order = ["intake", "monitoring", "preview", "reviewed", "closed"];

  for (const demo of demoCases) {
    const clientId = clientIds[demo.client] as string;
    const [pinned] = await tx
      .select({ id: protocolRevisions.id })
      .from(protocolRevisions)
      .where(sql`${protocolRevisions.clientId} = ${clientId} and ${protocolRevisions.revision} = 1`);
    const number = await tx.execute(sql`select nextval('case_number_seq')::bigint as value`);
    const numberRows = (Array.isArray(number) ? number : (number as { rows: unknown[] }).rows) as { value: string }[];
    const stageIndex = order.indexOf(demo.stage);
    const opened = hoursAgo(demo.openedHoursAgo);
    const started = stageIndex >= 1 ? hoursAgo(demo.openedHoursAgo - 2) : null;
    const ended = stageIndex >= 2 ? hoursAgo(demo.openedHoursAgo - 26) : null;
    const reviewed = stageIndex >= 3 ? hoursAgo(demo.openedHoursAgo - 40) : null;
    const closed = stageIndex >= 4 ? hoursAgo(demo.openedHoursAgo - 60) : null;
    const hasReviewer = stageIndex >= 2 || demo.priority === "stat";
    const acknowledged = demo.priority === "stat" && stageIndex >= 1;

    const [row] = await tx
      .insert(cases)
      .values({
        caseNumber: `CM-${year}-${String(numberRows[0]?.value).padStart(6, "0")}`,
        clientId,
        studyType: demo.studyType,
        hasVideo: demo.hasVideo,
        priority: demo.priority,
        stage: demo.stage,
        protocolRevisionId: stageIndex >= 1 ? (pinned?.id ?? null) : null,
        recordingStartedAt: started,
        recordingEndedAt: ended,
        ...(hasReviewer
          ? { reviewerSub: reviewer.sub, reviewerUsername: reviewer.username, reviewerName: reviewer.name }
          : {}),
        ...(acknowledged
          ? {
              acknowledgedAt: hoursAgo(demo.openedHoursAgo - 1),
              acknowledgedBySub: reviewer.sub,
              acknowledgedByUsername: reviewer.username,
              acknowledgedByName: reviewer.name,
            }
          : {}),
        patientMrn: demo.patient.mrn,
        patientFirstName: demo.patient.firstName,
        patientLastName: demo.patient.lastName,
        createdBySub: coordinator.sub,
        createdByUsername: coordinator.username,
        createdByName: coordinator.name,
        version: 1 + stageIndex + (demo.technologistAssigned ? 1 : 0) + (hasReviewer ? 1 : 0),
        createdAt: opened,
        updatedAt: closed ?? reviewed ?? ended ?? started ?? opened,
      })
      .returning({ id: cases.id });
    const caseId = (row as { id: string }).id;
    // ICU and EMU studies are watched continuously; the ambulatory one still recording is reviewed every 2 h
    // (intermittent), the finished one was recorded unmonitored at home.
    const mode =
      demo.studyType !== "ambulatory" ? "continuous" : demo.stage === "monitoring" ? "intermittent" : "unmonitored";
    seeded.push({
      id: caseId,
      clientId,
      stage: demo.stage,
      started,
      ended,
      reviewed,
      hasVideo: demo.hasVideo,
      mode,
      thresholdKohm: (demoClientExtras[demo.client] as DemoClientExtras).protocol.impedanceThresholdKohm,
    });
    const { patient } = demo;
    await tx.insert(casePatientDetails).values({
      caseId,
      revision: 1,
      mrn: patient.mrn,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: patient.dateOfBirth,
      sex: patient.sex,
      locationUnit: patient.unit,
      locationRoom: patient.room || null,
      locationBed: patient.bed || null,
      referringPhysician: patient.referringPhysician,
      indication: patient.indication,
      medications: patient.medications,
      authorSub: coordinator.sub,
      authorUsername: coordinator.username,
      authorName: coordinator.name,
      createdAt: opened,
    });

    const by = (user: SeedUser) => ({ actorSub: user.sub, actorUsername: user.username, actorName: user.name });
    const actions: (typeof caseActions.$inferInsert)[] = [
      {
        caseId,
        action: "create",
        details: { clientId, studyType: demo.studyType, priority: demo.priority, patientDetailsRevision: 1 },
        ...by(coordinator),
        createdAt: opened,
      },
    ];
    if (demo.technologistAssigned) {
      const assignedAt = hoursAgo(demo.openedHoursAgo - 0.5);
      const [assignment] = await tx
        .insert(caseAssignments)
        .values({
          caseId,
          technologistSub: technologist.sub,
          technologistUsername: technologist.username,
          technologistName: technologist.name,
          startedAt: assignedAt,
          endedAt: closed,
          assignedBySub: coordinator.sub,
          assignedByUsername: coordinator.username,
          assignedByName: coordinator.name,
        })
        .returning({ id: caseAssignments.id });
      actions.push({
        caseId,
        action: "assign-technologist",
        details: {
          assignmentId: assignment?.id,
          technologist: { sub: technologist.sub, username: technologist.username, name: technologist.name },
        },
        ...by(coordinator),
        createdAt: assignedAt,
      });
    }
    if (hasReviewer) {
      actions.push({
        caseId,
        action: "assign-reviewer",
        details: { reviewer: { sub: reviewer.sub, username: reviewer.username, name: reviewer.name }, previous: null },
        ...by(coordinator),
        createdAt: hoursAgo(demo.openedHoursAgo - 0.75),
      });
    }
    if (acknowledged) {
      actions.push({
        caseId,
        action: "acknowledge",
        details: { becameReviewer: false },
        ...by(reviewer),
        createdAt: hoursAgo(demo.openedHoursAgo - 1),
      });
    }
    await tx.insert(caseActions).values(actions);

    const moves = [
      { ruleId: "start-monitoring", from: "intake", to: "monitoring", at: started, user: technologist },
      { ruleId: "end-monitoring", from: "monitoring", to: "preview", at: ended, user: technologist },
      { ruleId: "sign-off", from: "preview", to: "reviewed", at: reviewed, user: reviewer },
      { ruleId: "close", from: "reviewed", to: "closed", at: closed, user: billing },
    ].filter((move) => move.at !== null);
    if (moves.length > 0) {
      await tx.insert(caseTransitions).values(
        moves.map((move) => ({
          caseId,
          ruleId: move.ruleId,
          fromStage: move.from,
          toStage: move.to,
          status: "completed",
          requestedBySub: move.user.sub,
          requestedByUsername: move.user.username,
          requestedByName: move.user.name,
          decidedBySub: move.user.sub,
          decidedByUsername: move.user.username,
          decidedByName: move.user.name,
          decidedAt: move.at,
          createdAt: move.at as Date,
        })),
      );
    }
  }
  return seeded;
}

/**
 * Hourly rates, by month of each client's own calendar counted back from now: St. Mary's set one rate
 * three months ago that every later month inherits; Pacific Neurology has its own rate for each recent month, the
 * current one raised once (a second version, with its reason); Lakeside has only next month's rate, set ahead, so
 * the months with its hours have no rate at all and are flagged on the billing overview.
 */
async function seedDemoRates(
  tx: Db,
  clientIds: string[],
  billing: { sub: string; username: string; name: string | null },
) {
  const now = new Date();
  const [stMarys, lakeside, pacific] = clientIds.map((id, index) => ({
    id,
    month: currentMonth((demoClients[index] as { timezone: string }).timezone, now),
  })) as [{ id: string; month: string }, { id: string; month: string }, { id: string; month: string }];
  const changes: { clientId: string; month: string; rates: { hourlyRate: string; reason: string | null }[] }[] = [
    { clientId: stMarys.id, month: addMonths(stMarys.month, -3), rates: [{ hourlyRate: "145.00", reason: null }] },
    { clientId: lakeside.id, month: addMonths(lakeside.month, 1), rates: [{ hourlyRate: "152.50", reason: null }] },
    ...[-2, -1].map((offset) => ({
      clientId: pacific.id,
      month: addMonths(pacific.month, offset),
      rates: [{ hourlyRate: "160.00", reason: null }],
    })),
    {
      clientId: pacific.id,
      month: pacific.month,
      rates: [
        { hourlyRate: "160.00", reason: null },
        { hourlyRate: "165.00", reason: "Annual increase agreed in the service contract" },
      ],
    },
  ];
  const by = { setBySub: billing.sub, setByUsername: billing.username, setByName: billing.name };
  for (const change of changes) {
    const last = change.rates.length - 1;
    const latest = change.rates[last] as { hourlyRate: string; reason: string | null };
    await tx.insert(billingRates).values({
      clientId: change.clientId,
      month: change.month,
      hourlyRate: latest.hourlyRate,
      version: change.rates.length,
      setAt: now,
      reason: latest.reason,
      ...by,
    });
    await tx.insert(billingRateChanges).values(
      change.rates.map((rate, index) => ({
        clientId: change.clientId,
        month: change.month,
        hourlyRate: rate.hourlyRate,
        previousRate: index === 0 ? null : (change.rates[index - 1]?.hourlyRate ?? null),
        version: index + 1,
        invoiced: false,
        reason: rate.reason,
        changedAt: new Date(now.getTime() - (last - index) * 86_400_000),
        changedBySub: billing.sub,
        changedByUsername: billing.username,
        changedByName: billing.name,
      })),
    );
  }
}
