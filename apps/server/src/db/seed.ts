import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AccessGroup } from "@vigil/contract";
import { accessGroups, type ProtocolContent, protocolContentSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { generatePassword, hashPassword } from "../identity/passwords.js";
import { normaliseUsername } from "../identity/users-repository.js";
import type { Db } from "./client.js";
import { cases, clientContacts, clients, clientUsefulLinks, protocolRevisions, users } from "./schema.js";

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

const demoCases = [
  { client: 0, studyType: "icu-ceeg", hasVideo: true, priority: "stat", stage: "intake" },
  { client: 1, studyType: "emu-video", hasVideo: true, priority: "routine", stage: "intake" },
  { client: 0, studyType: "icu-ceeg", hasVideo: true, priority: "routine", stage: "monitoring" },
  { client: 2, studyType: "ambulatory", hasVideo: false, priority: "routine", stage: "monitoring" },
  { client: 1, studyType: "icu-ceeg", hasVideo: true, priority: "stat", stage: "preview" },
  { client: 2, studyType: "emu-video", hasVideo: true, priority: "routine", stage: "reviewed" },
  { client: 0, studyType: "ambulatory", hasVideo: false, priority: "routine", stage: "closed" },
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
    const year = new Date().getUTCFullYear();
    await tx.insert(cases).values(
      demoCases.map((demo, index) => ({
        caseNumber: `CM-${year}-${String(index + 1).padStart(6, "0")}`,
        clientId: (insertedClients[demo.client] as { id: string }).id,
        studyType: demo.studyType,
        hasVideo: demo.hasVideo,
        priority: demo.priority,
        stage: demo.stage,
      })),
    );
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
