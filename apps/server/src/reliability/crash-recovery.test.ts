import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadConfig } from "../config.js";
import { compareBillableFigures } from "../db/billable-figures.js";
import { type Database, type Db, openDatabase, queryRows } from "../db/client.js";
import { compareConcurrentPeaks } from "../db/concurrent-peaks.js";
import { createUser } from "../identity/user-directory.js";
import { findFreePort } from "../testing/free-port.js";
import { sampleCase } from "../testing/kits/cases-kit.js";
import { sampleClient } from "../testing/kits/clients-kit.js";
import {
  type HttpAnswer,
  killAllServers,
  type RequestOptions,
  type ServerProcess,
  ServerUnreachableError,
  sleep,
  startServer,
} from "../testing/server-process.js";

/**
 * Crashes: the real server, under a load of concurrent writers, is killed with SIGKILL (tsx and node at once, no
 * shutdown code runs) at a random moment, then restarted on the same data, several times over. Whatever a writer
 * was told had succeeded (a 2xx) must be there after every restart, whole; the embedded database's folder must
 * reopen each time (its lock file names a dead process); tokens signed before a crash still work, their keys and
 * sessions being in the database. Writes in flight when the process died were never acknowledged: they may or may
 * not have landed, but whatever landed must be whole. After a final graceful stop the database is read directly:
 * every row has the audit event written in its transaction, and every such event its row.
 *
 * The writes, all with their own audit events: clients created, cases created (case row, patient-details revision 1
 * and the timeline's "create" action in one transaction), patient-details revisions of one case and updates of one
 * client by writers racing each other with If-Match (a refused writer reads again and retries). Readers of one case
 * run beside them: a read of patient data is answered only once its audit row is committed (rows of reads answered
 * together share a statement, audit/audit-batches.ts), so every answered read must have exactly one row.
 *
 * Runs on the engine of the test run: PGlite in a temporary DATA_DIR, or, with DATABASE_URL, a PostgreSQL database
 * created for this file and dropped afterwards. `CRASH_ROUNDS` (default 4) and `CRASH_SEED` (the kill moments; the
 * one used is printed) tune it.
 */
const base = "/api/continuous-monitoring";
const postgresUrl = loadConfig().databaseUrl;
const engine = postgresUrl ? "PostgreSQL" : "PGlite";
const rounds = Number(process.env.CRASH_ROUNDS ?? 4);
const seed = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const random = mulberry32(seed);
/** Writes each round must have had acknowledged before the kill may fall, so the kill always lands mid-load. */
const acknowledgedBeforeKill = 8;
/** The kill falls at a random moment up to this long after that. */
const killWindowMs = 2_000;
const adminName = "crash-admin";
const adminPassword = `pw-crash-${randomUUID()}`;

/** The data the server runs on: what it is given in its environment, and how the test opens and removes it. */
type Store = { env: Record<string, string>; open: () => Promise<Database>; remove: () => Promise<void>; lock?: string };

async function prepareStore(): Promise<Store> {
  if (!postgresUrl) {
    const dir = mkdtempSync(path.join(tmpdir(), "vigil-crash-"));
    const dataDir = path.join(dir, "data");
    mkdirSync(dataDir);
    // The run's migrated template (testing/pglite-template.ts) spares PGlite's initdb, as in backup-round-trips.test.ts.
    const templateFile = inject("pgliteTemplate");
    if (templateFile && existsSync(templateFile)) {
      try {
        const template = await PGlite.create({
          dataDir: path.join(dataDir, "pglite"),
          loadDataDir: new Blob([readFileSync(templateFile)]),
        });
        await template.close();
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir }),
      remove: async () => rmSync(dir, { recursive: true, force: true }),
      lock: path.join(dataDir, "vigil.lock"),
    };
  }
  const name = `vigil_crash_${process.pid}_${randomUUID().slice(0, 8)}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 }),
    remove: () => admin(`drop database if exists ${name} with (force)`),
  };
}

/** What the server acknowledged with a 2xx, and so must never lose. */
const acknowledged = {
  clients: new Map<string, string>(),
  cases: new Set<string>(),
  /** Patient-details revision of the watched case → the last name it set. */
  patientDetails: new Map<number, string>(),
  /** Version of the watched client → the notes it set. */
  clientVersions: new Map<number, string>(),
  /** The URLs of answered reads of the watched case, each read with a tag of its own. */
  reads: new Set<string>(),
};
const tally = {
  acknowledged: 0,
  /** Requests the kill cut off: sent, maybe applied, never answered. */
  cutOff: 0,
  refusedAsStale: 0,
  kills: 0,
  /** Rows found after the crashes that no 2xx had announced: writes committed just before the kill. */
  landedUnanswered: 0,
  startMs: [] as number[],
};

let store: Store | undefined;
let port: number;
let server: ServerProcess | undefined;
let watchedClient: { id: string; name: string; code: string; timezone: string };
let watchedCaseId: string;
/** The first ID token: it must outlive every crash. */
let firstToken: string;
let token: string;
let startedAt = 0;
let crashesSurvived = false;

type Api = (method: string, url: string, options?: RequestOptions) => Promise<HttpAnswer>;
const api: Api = (method, url, options = {}) => {
  if (!server) throw new Error("no server is running");
  return server.request(method, url, { token, ...options });
};

function expectStatus(answer: HttpAnswer, status: number, what: string) {
  expect(answer.status, `${what}: ${answer.body}\n${server?.logTail()}`).toBe(status);
}

const detailsPath = () => `${base}/cases/monitoring/${watchedCaseId}/patient-details`;

beforeAll(async () => {
  startedAt = Date.now();
  store = await prepareStore();
  // The administrator exists before the first start. PGlite admits one process at a time, so the folder is opened
  // here, then closed (releasing its lock) before the server opens it.
  const database = await store.open();
  try {
    await createUser(
      database.db,
      {
        username: adminName,
        email: `${adminName}@vigil.test`,
        name: "Crash Admin",
        groups: ["admin"],
        password: adminPassword,
      },
      { username: "test" },
    );
  } finally {
    await database.close();
  }
  port = await findFreePort();
}, 180_000);

afterAll(async () => {
  await killAllServers();
  await store?.remove();
  console.info(
    `crash recovery (${engine}, CRASH_SEED=${seed}): ${tally.kills} SIGKILLs under load, ${tally.acknowledged} writes ` +
      `and reads (${acknowledged.reads.size} reads) ` +
      `acknowledged and all found again, ${tally.cutOff} cut off by the kills (${tally.landedUnanswered} of ` +
      `which had landed, whole), ${tally.refusedAsStale} refused as stale and retried; starts took ${tally.startMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s; ` +
      `${((Date.now() - startedAt) / 1000).toFixed(1)} s in all`,
  );
});

async function start(label: string): Promise<void> {
  if (!store) throw new Error("no store");
  const began = Date.now();
  // The same port each time: PUBLIC_URL, the issuer of the tokens signed before the crash, stays the same.
  server = await startServer({ label, env: store.env, port, readyTimeoutMs: 180_000 });
  tally.startMs.push(Date.now() - began);
}

// ─── The writes ──────────────────────────────────────────────────────────────────────────────────────────────────

/** One write, retried on 409/412 until applied; throws ServerUnreachableError once the server is gone. */
type Write = (tag: string) => Promise<void>;

const createClientWrite: Write = async (tag) => {
  const code = `C${tag}`;
  const answer = await api("POST", `${base}/clients`, { body: sampleClient({ name: `Crash ${tag}`, code }) });
  expectStatus(answer, 201, `create client ${code}`);
  acknowledged.clients.set(answer.json().data.id, code);
};

const createCaseWrite: Write = async () => {
  const answer = await api("POST", `${base}/cases`, { body: sampleCase(watchedClient.id) });
  expectStatus(answer, 201, "create case");
  acknowledged.cases.add(answer.json().data.id);
};

const revisePatientDetailsWrite: Write = async (tag) => {
  const lastName = `Crash-${tag}`;
  for (;;) {
    const view = await api("GET", detailsPath());
    expectStatus(view, 200, "read patient details");
    const { revision, mrn, firstName, dateOfBirth, sex, location, referringPhysician, indication, medications } =
      view.json().data.current;
    const body = { mrn, firstName, lastName, dateOfBirth, sex, location, referringPhysician, indication, medications };
    const answer = await api("PUT", detailsPath(), { ifMatch: `"${revision}"`, body });
    // Another writer appended first: read the new revision and try again.
    if (answer.status === 412 || answer.status === 409) {
      tally.refusedAsStale += 1;
      continue;
    }
    expectStatus(answer, 200, `revise patient details on revision ${revision}`);
    acknowledged.patientDetails.set(answer.json().data.revision, lastName);
    return;
  }
};

const updateClientWrite: Write = async (tag) => {
  const notes = `crash ${tag}`;
  for (;;) {
    const current = await api("GET", `${base}/clients/${watchedClient.id}`);
    expectStatus(current, 200, "read the watched client");
    const { version } = current.json().data;
    const { name, code, timezone } = watchedClient;
    const answer = await api("PUT", `${base}/clients/${watchedClient.id}`, {
      ifMatch: `"${version}"`,
      body: sampleClient({ name, code, timezone, notes }),
    });
    if (answer.status === 412 || answer.status === 409) {
      tally.refusedAsStale += 1;
      continue;
    }
    expectStatus(answer, 200, `update the watched client on version ${version}`);
    acknowledged.clientVersions.set(answer.json().data.version, notes);
    return;
  }
};

const readCaseWrite: Write = async (tag) => {
  const url = `${base}/cases/${watchedCaseId}?read=${tag}`;
  const answer = await api("GET", url);
  expectStatus(answer, 200, "read the watched case");
  acknowledged.reads.add(url);
};

/** Two writers of each kind, so the If-Match writers really race each other; two readers beside them. */
const writers: Write[] = [
  readCaseWrite,
  readCaseWrite,
  createClientWrite,
  createClientWrite,
  createCaseWrite,
  createCaseWrite,
  revisePatientDetailsWrite,
  revisePatientDetailsWrite,
  updateClientWrite,
  updateClientWrite,
];

/** Writes one after another until the server stops answering; an unexpected answer fails the test. */
async function keepWriting(write: Write, round: number, writer: number): Promise<void> {
  for (let n = 1; ; n += 1) {
    try {
      await write(`${round}-${writer}-${n}`);
      tally.acknowledged += 1;
    } catch (error) {
      if (!(error instanceof ServerUnreachableError)) throw error;
      if (error.mayHaveReached) tally.cutOff += 1;
      return;
    }
  }
}

// ─── What must hold after a restart ───────────────────────────────────────────────────────────────────────────────

type AuditEvent = { action: string; target: { id: string } | null; details: Record<string, unknown> | null };

/** Every event matching the query, through the API's paging. */
async function auditEvents(query: Record<string, string>): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  for (;;) {
    const search = new URLSearchParams({ ...query, limit: "200", offset: String(events.length) });
    const answer = await api("GET", `/api/audit?${search}`);
    expectStatus(answer, 200, "read the audit log");
    const page = answer.json().data;
    events.push(...page.items);
    if (page.items.length === 0 || events.length >= page.total) return events;
  }
}

async function inBatches<T>(items: T[], size: number, check: (item: T) => Promise<void>): Promise<void> {
  for (let index = 0; index < items.length; index += size)
    await Promise.all(items.slice(index, index + size).map(check));
}

const consecutive = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** Every acknowledged write, read back through the API; with its audit event. */
async function expectAcknowledgedWrites(after: string): Promise<void> {
  await inBatches([...acknowledged.clients], 8, async ([id, code]) => {
    const answer = await api("GET", `${base}/clients/${id}`);
    expectStatus(answer, 200, `${after}: client ${code}, acknowledged`);
    expect(answer.json().data.code).toBe(code);
  });
  await inBatches([...acknowledged.cases], 8, async (id) => {
    const answer = await api("GET", `${base}/cases/${id}`);
    expectStatus(answer, 200, `${after}: case ${id}, acknowledged`);
    expect(answer.json().data.patient?.revision, `${after}: case ${id} without patient details`).toBeGreaterThanOrEqual(
      1,
    );
  });

  // The watched case's revisions: no gap, every acknowledged one with what it set, the case row showing the latest.
  const history = await api("GET", `${detailsPath()}/revisions`);
  expectStatus(history, 200, `${after}: patient-details history`);
  const revisions: { revision: number; lastName: string }[] = history.json().data.revisions;
  const latest = revisions.length;
  expect(
    revisions.map((entry) => entry.revision),
    `${after}: patient-details revisions`,
  ).toEqual(consecutive(1, latest));
  for (const [revision, lastName] of acknowledged.patientDetails) {
    expect(revisions[revision - 1]?.lastName, `${after}: acknowledged patient-details revision ${revision}`).toBe(
      lastName,
    );
  }
  const watchedCase = await api("GET", `${base}/cases/${watchedCaseId}`);
  expectStatus(watchedCase, 200, `${after}: the watched case`);
  expect(watchedCase.json().data.patient, `${after}: the case row's copy of the latest patient details`).toMatchObject({
    revision: latest,
    lastName: revisions[latest - 1]?.lastName,
  });
  const detailsAudit = await auditEvents({ action: "case.patient-details.update", targetId: watchedCaseId });
  expect(
    detailsAudit.map((event) => Number(event.details?.revision)).sort((a, b) => a - b),
    `${after}: one audit event per patient-details revision after the first`,
  ).toEqual(consecutive(2, latest));

  // The watched client: its version never behind an acknowledged one, one audit event per version, in a chain.
  const client = await api("GET", `${base}/clients/${watchedClient.id}`);
  expectStatus(client, 200, `${after}: the watched client`);
  const { version, notes } = client.json().data;
  const updates = (await auditEvents({ action: "client.update", targetId: watchedClient.id }))
    .map(
      (event) => event.details as { version: number; changes: { notes?: { from: string | null; to: string | null } } },
    )
    .sort((a, b) => a.version - b.version);
  expect(
    updates.map((update) => update.version),
    `${after}: one client.update event per version`,
  ).toEqual(consecutive(2, version));
  for (const [acknowledgedVersion, acknowledgedNotes] of acknowledged.clientVersions) {
    expect(
      updates[acknowledgedVersion - 2]?.changes.notes?.to,
      `${after}: acknowledged version ${acknowledgedVersion}`,
    ).toBe(acknowledgedNotes);
  }
  let previous: string | null = null;
  for (const update of updates) {
    // Each update replaced what the one before it wrote: none was lost between them.
    expect(update.changes.notes?.from ?? null, `${after}: what version ${update.version} replaced`).toBe(previous);
    previous = update.changes.notes?.to ?? null;
  }
  expect(notes ?? null, `${after}: the client holds what its latest version wrote`).toBe(previous);

  // Every acknowledged creation has its audit event.
  const clientEvents = new Set((await auditEvents({ action: "client.create" })).map((event) => event.target?.id));
  const missingClients = [...acknowledged.clients].filter(([id]) => !clientEvents.has(id)).map(([, code]) => code);
  expect(missingClients, `${after}: acknowledged clients without a client.create event`).toEqual([]);
  const caseEvents = new Set((await auditEvents({ action: "case.create" })).map((event) => event.target?.id));
  expect(
    [...acknowledged.cases].filter((id) => !caseEvents.has(id)),
    `${after}: acknowledged cases without a case.create event`,
  ).toEqual([]);
}

// ─── The test ────────────────────────────────────────────────────────────────────────────────────────────────────

describe(`crash recovery on ${engine}`, () => {
  it(`keeps every acknowledged write, whole and audited, and every answered read's audit row, through ${rounds} SIGKILLs under load`, async () => {
    await start("server (first start)");
    const first = await (server as ServerProcess).signIn(adminName, adminPassword);
    firstToken = first.idToken;
    token = first.idToken;
    const created = await api("POST", `${base}/clients`, { body: sampleClient({ name: "Watched", code: "WATCHED" }) });
    expectStatus(created, 201, "create the watched client");
    watchedClient = created.json().data;
    acknowledged.clients.set(watchedClient.id, watchedClient.code);
    const opened = await api("POST", `${base}/cases`, { body: sampleCase(watchedClient.id) });
    expectStatus(opened, 201, "open the watched case");
    watchedCaseId = opened.json().data.id;
    acknowledged.cases.add(watchedCaseId);

    for (let round = 1; round <= rounds; round += 1) {
      const before = tally.acknowledged;
      const load = Promise.all(writers.map((write, writer) => keepWriting(write, round, writer)));
      // An assertion failing in a writer ends the wait at once; the kill and `await load` then report it.
      let failed = false;
      load.catch(() => {
        failed = true;
      });
      const deadline = Date.now() + 120_000;
      while (tally.acknowledged - before < acknowledgedBeforeKill && !failed) {
        if (Date.now() > deadline) throw new Error(`round ${round}: the load made no progress\n${server?.logTail()}`);
        await sleep(20);
      }
      await sleep(random() * killWindowMs);
      await (server as ServerProcess).kill();
      tally.kills += 1;
      await load;

      // The same data, a new process: the folder (or database) opens, the old tokens still work.
      await start(`server (restart ${round})`);
      const old = await api("GET", `${base}/clients/${watchedClient.id}`, { token: firstToken });
      expectStatus(old, 200, `after crash ${round}: a token signed before the first crash`);
      const previousRound = await api("GET", `${base}/clients/${watchedClient.id}`);
      expectStatus(previousRound, 200, `after crash ${round}: the token used when the process was killed`);
      token = (await (server as ServerProcess).signIn(adminName, adminPassword)).idToken;
      await expectAcknowledgedWrites(`after crash ${round}`);
    }
    expect(tally.kills).toBe(rounds);
    // Eight writers never pause, so the kills fell on requests in flight, not between them.
    expect(tally.cutOff, "requests cut off by the kills").toBeGreaterThan(0);
    crashesSurvived = true;
  }, 600_000);

  it("stops gracefully afterwards, and every row has its audit event and every event its row", async () => {
    expect(crashesSurvived, "the crash rounds ended with a running server").toBe(true);
    expect(await (server as ServerProcess).stop(), (server as ServerProcess).logTail()).toBe(0);
    // A graceful stop releases the folder: nothing is left for the next start to take over.
    if (store?.lock) expect(existsSync(store.lock)).toBe(false);
    const database = await (store as Store).open();
    try {
      expect(await halfWrittenRows(database.db)).toEqual([]);
      expect(await compareBillableFigures(database.db)).toEqual([]);
      expect(await compareConcurrentPeaks(database.db)).toEqual([]);
      const count = async (query: string) =>
        Number((await queryRows<{ n: number }>(database.db, sql.raw(query)))[0]?.n);
      // At least what was acknowledged; more only by writes whose answer the kill cut off, each at most once.
      const landed = {
        clients: (await count("select count(*)::int as n from clients")) - acknowledged.clients.size,
        cases: (await count("select count(*)::int as n from cases")) - acknowledged.cases.size,
        patientDetails:
          (await count("select count(*)::int as n from case_patient_details where revision > 1")) -
          acknowledged.patientDetails.size,
        clientUpdates:
          (await count("select coalesce(sum(version - 1), 0)::int as n from clients")) -
          acknowledged.clientVersions.size,
      };
      for (const [what, extra] of Object.entries(landed)) expect(extra, what).toBeGreaterThanOrEqual(0);
      tally.landedUnanswered = Object.values(landed).reduce((sum, extra) => sum + extra, 0);
      expect(tally.landedUnanswered, JSON.stringify(landed)).toBeLessThanOrEqual(tally.cutOff);

      // Every answered read of patient data left one row; a read the kill cut off may have left one, never two.
      const readRows = await queryRows<{ url: string; rows: number }>(
        database.db,
        sql`select details->>'url' as url, count(*)::int as rows from audit_events
             where action = 'patient-data.read' and target_id = ${watchedCaseId} and details->>'url' like '%?read=%'
             group by 1`,
      );
      const rowsOf = new Map(readRows.map((row) => [row.url, row.rows]));
      expect(acknowledged.reads.size, "answered reads").toBeGreaterThan(0);
      expect(
        [...acknowledged.reads].filter((url) => rowsOf.get(url) !== 1),
        "answered reads without exactly one audit row",
      ).toEqual([]);
      expect(readRows.filter((row) => row.rows > 1)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 180_000);
});

/**
 * Read from the tables themselves, for every row (acknowledged or not): what a transaction cut in half would
 * leave. Described in words, so a failure names the row.
 */
async function halfWrittenRows(db: Db): Promise<string[]> {
  const problems: string[] = [];
  const events = await queryRows<{ action: string; targetId: string | null; details: Record<string, unknown> | null }>(
    db,
    sql`select action, target_id as "targetId", details from audit_events
         where outcome = 'success'
           and action in ('client.create', 'client.update', 'case.create', 'case.patient-details.update')`,
  );
  const eventsOf = (action: string, targetId: string) =>
    events.filter((event) => event.action === action && event.targetId === targetId);

  const clients = await queryRows<{ id: string; code: string; version: number }>(
    db,
    sql`select id::text as id, code, version from clients`,
  );
  for (const client of clients) {
    const creations = eventsOf("client.create", client.id).length;
    if (creations !== 1) problems.push(`client ${client.code}: ${creations} client.create events`);
    const versions = eventsOf("client.update", client.id)
      .map((event) => Number(event.details?.version))
      .sort((a, b) => a - b);
    if (JSON.stringify(versions) !== JSON.stringify(consecutive(2, client.version))) {
      problems.push(`client ${client.code} at version ${client.version}: client.update events for ${versions}`);
    }
  }

  const cases = await queryRows<{ id: string; caseNumber: string; mrn: string; first: string; last: string }>(
    db,
    sql`select id::text as id, case_number as "caseNumber", patient_mrn as mrn, patient_first_name as first,
               patient_last_name as last
          from cases`,
  );
  const details = await queryRows<{ caseId: string; revision: number; mrn: string; first: string; last: string }>(
    db,
    sql`select case_id::text as "caseId", revision, mrn, first_name as first, last_name as last
          from case_patient_details order by case_id, revision`,
  );
  const createActions = new Set(
    (
      await queryRows<{ caseId: string }>(
        db,
        sql`select case_id::text as "caseId" from case_actions where action = 'create'`,
      )
    ).map((row) => row.caseId),
  );
  for (const row of cases) {
    const creations = eventsOf("case.create", row.id).length;
    if (creations !== 1) problems.push(`case ${row.caseNumber}: ${creations} case.create events`);
    if (!createActions.has(row.id)) problems.push(`case ${row.caseNumber}: no "create" on its timeline`);
    const revisions = details.filter((detail) => detail.caseId === row.id);
    const numbers = revisions.map((detail) => detail.revision);
    if (JSON.stringify(numbers) !== JSON.stringify(consecutive(1, numbers.length))) {
      problems.push(`case ${row.caseNumber}: patient-details revisions ${numbers}`);
    }
    const latest = revisions.at(-1);
    if (!latest || latest.mrn !== row.mrn || latest.first !== row.first || latest.last !== row.last) {
      problems.push(`case ${row.caseNumber}: its row shows ${row.last}, its latest patient details ${latest?.last}`);
    }
    const audited = eventsOf("case.patient-details.update", row.id)
      .map((event) => Number(event.details?.revision))
      .sort((a, b) => a - b);
    if (JSON.stringify(audited) !== JSON.stringify(consecutive(2, numbers.length))) {
      problems.push(`case ${row.caseNumber}: ${numbers.length} revisions, audit events for ${audited}`);
    }
  }

  // And the other way round: no event of a write whose rows are missing.
  const clientIds = new Set(clients.map((client) => client.id));
  const caseIds = new Set(cases.map((row) => row.id));
  for (const event of events) {
    const known = event.action.startsWith("client.") ? clientIds : caseIds;
    if (!event.targetId || !known.has(event.targetId)) problems.push(`${event.action} of a missing ${event.targetId}`);
  }
  return problems;
}

/** A small seeded generator, so a failing run's kill moments can be replayed with CRASH_SEED. */
function mulberry32(state: number): () => number {
  let value = state >>> 0;
  return () => {
    value = (value + 0x6d2b79f5) >>> 0;
    let t = value;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
