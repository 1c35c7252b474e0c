import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AccessGroup } from "@vigil/contract";
import { accessGroups } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import { generatePassword, hashPassword } from "../identity/passwords.js";
import { normaliseUsername } from "../identity/users-repository.js";
import type { Db } from "./client.js";
import { cases, clients, users } from "./schema.js";

const demoClients = [
  {
    name: "St. Mary's Regional Medical Center",
    code: "SMRMC",
    timezone: "America/New_York",
    city: "Boston",
    region: "MA",
  },
  { name: "Lakeside Children's Hospital", code: "LCH", timezone: "America/Chicago", city: "Chicago", region: "IL" },
  { name: "Pacific Neurology Institute", code: "PNI", timezone: "America/Los_Angeles", city: "Portland", region: "OR" },
];

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
    await tx.insert(users).values(
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
    );
    return prepared.map(({ group, password }) => ({ username: group, password, groups: [group] }));
  });
}
