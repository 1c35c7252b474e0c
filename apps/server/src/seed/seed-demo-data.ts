import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { AccessGroup } from "@vigil/contract";
import {
  accessGroups,
  interfaceProfileContentSchema,
  type ProtocolContent,
  protocolContentSchema,
} from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import {
  billingRateChanges,
  billingRates,
  clientContacts,
  clients,
  clientUsefulLinks,
  interfaceProfileRevisions,
  protocolRevisions,
  users,
} from "../db/schema.js";
import { generatePassword, hashPassword } from "../identity/passwords.js";
import { normaliseUsername } from "../identity/users-repository.js";
import { addMonths, currentMonth } from "../modules/billing/billing-calendar.js";
import type { ReportCompany } from "../modules/reports/report-issue.js";
import { issueMissingReports } from "../modules/reports/reports-service.js";
import { refreshCaseClocks } from "../modules/watch/watch-service.js";
import { demoNames } from "./demo-cases.js";
import {
  type DemoClientExtras,
  demoClientExtras,
  demoClients,
  demoRateChanges,
  demoTransferForm,
} from "./demo-clients.js";
import { demoInterfaceProfile } from "./demo-interfaces.js";
import { type SeedUser, seedCases } from "./seed-cases.js";
import { seedDemoRecords } from "./seed-records.js";

/** Validated by the contract's own schema, so the seed can never hold a protocol the API would refuse. */
function demoProtocol(extras: DemoClientExtras["protocol"]): ProtocolContent {
  return protocolContentSchema.parse({
    instructions: extras.instructions,
    impedanceThresholdKohm: extras.impedanceThresholdKohm,
    impedanceCheckIntervalHours: extras.impedanceCheckIntervalHours,
    reviewTurnaroundHours: extras.reviewTurnaroundHours,
    statAcknowledgeMinutes: extras.statAcknowledgeMinutes,
    criticalNotification: { notify: extras.notify, withinMinutes: extras.withinMinutes },
    transferForm: demoTransferForm,
  });
}

export type DemoCredential = { username: string; password: string; groups: AccessGroup[] };

/**
 * Demo data for a first look: three clients, cases in every stage, one user per access group. Runs only on an
 * empty database (no users), inside one transaction holding an advisory lock so that two instances starting
 * on a fresh PostgreSQL seed once. Passwords are generated, printed once and saved beside the data.
 */
export async function seedIfEmpty(db: Db, config: Config, log: FastifyBaseLogger): Promise<DemoCredential[]> {
  const credentials = await seedDemoData(db, {
    name: config.reports.companyName,
    details: config.reports.companyDetails,
  });
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

/** Who issues the demo's reports when no configuration is at hand (the default of REPORT_COMPANY_NAME). */
/** The technologist caps the records service reads with (their defaults; reading interpretations ignores them). */
const demoRecordCaps = { intermittent: 12, continuous: 4 };

const demoReportCompany: ReportCompany = { name: "Vigil Neurodiagnostics", details: "" };

export async function seedDemoData(db: Db, company: ReportCompany = demoReportCompany): Promise<DemoCredential[]> {
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
      .values(demoClients.map((client) => ({ country: "US", status: "active" as const, ...client })))
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
    await seedDemoInterface(
      tx,
      insertedClients.map((client) => client.id),
      person("admin"),
    );
    await seedDemoRates(
      tx,
      insertedClients.map((client) => client.id),
      person("billing"),
    );
    // The signed demo interpretations are stored as report versions, as signing them through the API would have
    // (not mailed: the demo protocols name no report recipients), so a reviewed demo case can be closed.
    for (const subject of seeded) {
      await issueMissingReports({ caps: demoRecordCaps, company }, tx, subject.id);
    }
    // The kept clocks the board, the home page and the bell read, as every write through the services leaves them
    // (PRODUCT.md §10): the server's start rebuilds them before it seeds, so a fresh install would otherwise show
    // no running clock until its next restart.
    for (const subject of seeded) await refreshCaseClocks(tx, subject.id);
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
        statAcknowledgeMinutes: protocol.statAcknowledgeMinutes,
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

/**
 * One client's hospital interface (`demo-interfaces.ts`), revision 1 by the demo administrator, who edits it on the
 * Interfaces tab; parsed by the contract's schema so the seed never holds a profile the API would refuse.
 */
async function seedDemoInterface(
  tx: Db,
  clientIds: string[],
  admin: { sub: string; username: string; name: string | null },
): Promise<void> {
  const clientId = clientIds[demoInterfaceProfile.client];
  if (!clientId) return;
  await tx.insert(interfaceProfileRevisions).values({
    clientId,
    revision: 1,
    ...interfaceProfileContentSchema.parse(demoInterfaceProfile.content),
    changeNote: "Epic orders by HL7 v2",
    authorSub: admin.sub,
    authorUsername: admin.username,
    authorName: admin.name,
  });
}

/** The demo rates (`demoRateChanges`), each a current rate with its history, set by the demo billing user. */
async function seedDemoRates(
  tx: Db,
  clientIds: string[],
  billing: { sub: string; username: string; name: string | null },
) {
  const now = new Date();
  const changes = demoRateChanges.map(({ client, monthOffset, rates }) => ({
    clientId: clientIds[client] as string,
    month: addMonths(currentMonth((demoClients[client] as { timezone: string }).timezone, now), monthOffset),
    rates,
  }));
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
