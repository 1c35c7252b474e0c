import type { Case, Client } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRows, type Caller, caseIn, createClient, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { sampleClient } from "../testing/kits/clients-kit.js";
import { collectionOf, createItem } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * Many writers edit the same thing at the same moment, each naming the version it read: a case note (a record item:
 * a new revision names its base revision), a case's patient details (PUT with If-Match) and a client (PUT with
 * If-Match). Fired together with Promise.all through `app.inject`; on PostgreSQL the pool runs them truly in
 * parallel, on PGlite they interleave at every await.
 *
 * - Bursts: every writer names the same base. Exactly one is applied, on top of that base; every other one is
 *   refused with 409/412 and told the version that won. Nothing else happens (no 5xx, no second winner).
 * - A chain: writers that, refused, read the current version and try again until applied. Every writer is applied
 *   exactly once; the answers' versions are consecutive, each one its base + 1; the history holds exactly the applied
 *   edits, each once, in that order; the final state is the last one; and the number of applied edits equals the
 *   number of 2xx answers.
 */
const rounds = Number(process.env.CONFLICT_ROUNDS ?? 8);
const writersPerRound = Number(process.env.CONFLICT_WRITERS ?? 40);
const chainWriters = Number(process.env.CONFLICT_CHAIN ?? 25);

let harness: TestApp;
let team: Team;
let client: Client;
let monitoring: Case;
let noteId: string;
const fired = { edits: 0, requests: 0, applied: 0, refused: 0 };
let startedAt = 0;

beforeAll(async () => {
  startedAt = Date.now();
  harness = await createTestApp();
  team = await teamFor(harness, "cc");
  client = await createClient(team.admin);
  monitoring = await caseIn(harness, team, client.id, "monitoring");
  noteId = (await createItem(team.technologist, "case-note", monitoring.id)).id;
}, 120_000);

afterAll(async () => {
  console.info(
    `concurrent edits (${harness?.database.engine}): ${fired.edits} conflicting edits fired, ${fired.requests} writes ` +
      `with retries (${fired.applied} applied, ${fired.refused} refused with 409/412) in ` +
      `${((Date.now() - startedAt) / 1000).toFixed(1)} s`,
  );
  await harness?.close();
});

/** One thing many people edit: how to read its version, write on top of a version, and read its history. */
type Target = {
  name: string;
  writers: () => Caller[];
  /** The version a writer reads before editing. */
  read: () => Promise<number>;
  write: (caller: Caller, base: number, tag: string) => Promise<LightMyRequestResponse>;
  /** The version an applied write created. */
  appliedVersion: (answer: LightMyRequestResponse) => number;
  /** The version a refusal says is current. */
  refusedCurrent: (answer: LightMyRequestResponse) => number | undefined;
  /** The current version and the tag of the edit that made it. */
  state: () => Promise<{ version: number; tag: string | null }>;
  /**
   * The edits after `since`, by version: each with its tag and, where the history records it, the tag it replaced
   * (so that "each revision's base is the previous one" can be checked on the stored history itself).
   */
  history: (since: number) => Promise<{ version: number; tag: string | null; replaced?: string | null }[]>;
};

const base = "/api/continuous-monitoring";
const notePath = () => `${collectionOf("case-note", monitoring.id)}/${noteId}/revisions`;
const detailsPath = () => `${base}/cases/monitoring/${monitoring.id}/patient-details`;

const caseNote: Target = {
  name: "case note",
  writers: () => [team.technologist, team.technologist2, team.coordinator, team.reviewer, team.admin],
  read: async () => (await team.admin("GET", notePath())).json().data.item.revision,
  write: (caller, baseRevision, tag) =>
    caller("POST", notePath(), { body: { change: "edit", baseRevision, data: { category: "handoff", body: tag } } }),
  appliedVersion: (answer) => answer.json().data.revision,
  refusedCurrent: (answer) => answer.json().error.details?.currentRevision,
  state: async () => {
    const item = (await team.admin("GET", notePath())).json().data.item;
    return { version: item.revision, tag: item.data.body };
  },
  history: async (since) =>
    (await team.admin("GET", notePath()))
      .json()
      .data.revisions.filter((revision: { revision: number }) => revision.revision > since)
      .map((revision: { revision: number; data: { body: string } }) => ({
        version: revision.revision,
        tag: revision.data.body,
      })),
};

let patient: Record<string, unknown>;
const patientDetails: Target = {
  name: "patient details",
  writers: () => [team.technologist, team.technologist2, team.coordinator, team.admin],
  read: async () => (await team.admin("GET", detailsPath())).json().data.current.revision,
  write: (caller, revision, tag) =>
    caller("PUT", detailsPath(), { ifMatch: `"${revision}"`, body: { ...patient, notes: tag } }),
  appliedVersion: (answer) => answer.json().data.revision,
  refusedCurrent: (answer) => answer.json().error.details?.currentVersion,
  state: async () => {
    const current = (await team.admin("GET", detailsPath())).json().data.current;
    return { version: current.revision, tag: current.notes };
  },
  history: async (since) =>
    (await team.admin("GET", `${detailsPath()}/revisions`))
      .json()
      .data.revisions.filter((revision: { revision: number }) => revision.revision > since)
      .map((revision: { revision: number; notes: string | null }) => ({
        version: revision.revision,
        tag: revision.notes,
      })),
};

const clientFields: Target = {
  name: "client",
  writers: () => [team.coordinator, team.admin],
  read: async () => (await team.admin("GET", `/clients/${client.id}`)).json().data.version,
  write: (caller, version, tag) =>
    caller("PUT", `/clients/${client.id}`, {
      ifMatch: `"${version}"`,
      body: sampleClient({ name: client.name, code: client.code, timezone: client.timezone, notes: tag }),
    }),
  appliedVersion: (answer) => answer.json().data.version,
  refusedCurrent: (answer) => answer.json().error.details?.currentVersion,
  state: async () => {
    const current = (await team.admin("GET", `/clients/${client.id}`)).json().data;
    return { version: current.version, tag: current.notes };
  },
  // Clients keep no revisions; their audit trail does, in the transaction of each change: version and what changed.
  history: async (since) =>
    (await auditRows(harness, "client.update", client.id))
      .map((row) => row.details as { version: number; changes: { notes?: { from: string | null; to: string | null } } })
      .filter((details) => details.version > since)
      .sort((a, b) => a.version - b.version)
      .map((details) => ({
        version: details.version,
        tag: details.changes.notes?.to ?? null,
        replaced: details.changes.notes?.from ?? null,
      })),
};

const succeeded = (answer: LightMyRequestResponse) => answer.statusCode >= 200 && answer.statusCode < 300;

function expectRefusal(target: Target, answer: LightMyRequestResponse, winningVersion: number | undefined) {
  expect([409, 412], `${target.name}: ${answer.body}`).toContain(answer.statusCode);
  fired.refused += 1;
  // The loser is told what won (the current state travels with the refusal), never a stale version.
  if (winningVersion !== undefined) expect(target.refusedCurrent(answer), answer.body).toBe(winningVersion);
}

/** Every writer names the same base version at once: exactly one wins. Returns the winner's tag. */
async function burst(target: Target, round: number): Promise<string> {
  const baseVersion = await target.read();
  const writers = target.writers();
  const tags = Array.from({ length: writersPerRound }, (_, index) => `${target.name}: round ${round}, writer ${index}`);
  const answers = await Promise.all(
    tags.map((tag, index) => target.write(writers[index % writers.length] as Caller, baseVersion, tag)),
  );
  fired.edits += answers.length;
  fired.requests += answers.length;

  const winners = answers.flatMap((answer, index) =>
    succeeded(answer) ? [{ answer, tag: tags[index] as string }] : [],
  );
  expect(
    winners.map((winner) => winner.tag),
    `${target.name} round ${round}: one winner per base`,
  ).toHaveLength(1);
  const [winner] = winners as [{ answer: LightMyRequestResponse; tag: string }];
  fired.applied += 1;
  expect(target.appliedVersion(winner.answer)).toBe(baseVersion + 1);
  for (const answer of answers) if (answer !== winner.answer) expectRefusal(target, answer, baseVersion + 1);
  expect(await target.state()).toEqual({ version: baseVersion + 1, tag: winner.tag });
  return winner.tag;
}

/** Writers that retry on the current version after each refusal, all at once, until every one is applied. */
async function chain(target: Target) {
  const start = await target.state();
  const writers = target.writers();
  let successes = 0;
  const applied = new Map<number, { tag: string; base: number }>();
  await Promise.all(
    Array.from({ length: chainWriters }, async (_, index) => {
      const tag = `${target.name}: chain writer ${index}`;
      const caller = writers[index % writers.length] as Caller;
      fired.edits += 1;
      for (let attempt = 0; attempt <= chainWriters * 3; attempt += 1) {
        const baseVersion = await target.read();
        const answer = await target.write(caller, baseVersion, tag);
        fired.requests += 1;
        if (succeeded(answer)) {
          successes += 1;
          fired.applied += 1;
          const version = target.appliedVersion(answer);
          expect(applied.has(version), `${target.name}: version ${version} was handed out twice`).toBe(false);
          applied.set(version, { tag, base: baseVersion });
          return;
        }
        // Another writer may have won between the read and the write: the refusal names a newer version.
        expectRefusal(target, answer, undefined);
        expect(target.refusedCurrent(answer) ?? Number.POSITIVE_INFINITY).toBeGreaterThan(baseVersion);
      }
      throw new Error(`${tag} was never applied`);
    }),
  );

  // Every writer applied once, each on top of the version it read, the versions consecutive.
  expect(successes).toBe(chainWriters);
  const versions = [...applied.keys()].sort((a, b) => a - b);
  expect(versions).toEqual(Array.from({ length: chainWriters }, (_, index) => start.version + 1 + index));
  for (const [version, edit] of applied) expect(version, edit.tag).toBe(edit.base + 1);
  // The history holds exactly those edits, once each, in that order, each replacing the one before it.
  const history = await target.history(start.version);
  expect(history.map((entry) => entry.version)).toEqual(versions);
  expect(history.map((entry) => entry.tag)).toEqual(versions.map((version) => applied.get(version)?.tag));
  expectUnbrokenChain(history, start.tag);
  expect(await target.state()).toEqual({
    version: start.version + chainWriters,
    tag: applied.get(start.version + chainWriters)?.tag,
  });
}

/** Where the history records what each edit replaced, it must be the edit just before it: no update was lost. */
function expectUnbrokenChain(history: { tag: string | null; replaced?: string | null }[], startTag: string | null) {
  let previous = startTag;
  for (const entry of history) {
    if (entry.replaced !== undefined) expect(entry.replaced, `${entry.tag} replaced`).toBe(previous);
    previous = entry.tag;
  }
}

describe.each([caseNote, patientDetails, clientFields])("concurrent edits of a $name", (target) => {
  let initial: { version: number; tag: string | null };
  let answered2xx = 0;

  beforeAll(async () => {
    if (target === patientDetails) {
      const current = (await team.admin("GET", detailsPath())).json().data.current;
      const { mrn, firstName, lastName, dateOfBirth, sex, location, referringPhysician, indication, medications } =
        current;
      patient = { mrn, firstName, lastName, dateOfBirth, sex, location, referringPhysician, indication, medications };
    }
    initial = await target.state();
  });

  it(`applies exactly one of ${writersPerRound} writers naming the same base, ${rounds} times over`, async () => {
    const winners: string[] = [];
    for (let round = 0; round < rounds; round += 1) winners.push(await burst(target, round));
    answered2xx += winners.length;
    const history = await target.history(initial.version);
    expect(history.map((entry) => entry.tag)).toEqual(winners);
    expect(history.map((entry) => entry.version)).toEqual(winners.map((_, index) => initial.version + 1 + index));
    expectUnbrokenChain(history, initial.tag);
  }, 180_000);

  it(`applies each of ${chainWriters} writers retrying on the current version exactly once, in a consistent order`, async () => {
    await chain(target);
    answered2xx += chainWriters;
    // Over both tests: as many new versions in the history as 2xx answers, no more, no fewer.
    expect(await target.history(initial.version)).toHaveLength(answered2xx);
  }, 180_000);
});
