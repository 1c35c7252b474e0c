import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Hl7MessageDetail, InterpretationItem } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, caseOrders, hl7Messages, jobs } from "../../db/schema.js";
import { type JobRunner, startJobRunner } from "../../jobs/job-runner.js";
import { findFreePort } from "../../testing/free-port.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { type ResultPeer, startResultPeer } from "../../testing/kits/hl7-result-peer-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { resultJob } from "./result-job.js";

/**
 * Replaying an outbound result from the message log: sent again with the same MSH-10 once the hospital's cause is
 * fixed, against Debian's python3-hl7 playing the hospital's chart.
 */

let harness: TestApp;
let team: Team;
const peers: ResultPeer[] = [];
const runners: JobRunner[] = [];
const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-resend-"));
const messages = "/api/interfaces/hl7/messages";

beforeAll(async () => {
  harness = await createTestApp({ HL7_SENDING_FACILITY: "NORTHWIND" });
  team = await teamFor(harness, "resend");
}, 60_000);
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
  for (const peer of peers.splice(0)) await peer.stop();
});
afterAll(() => harness.close());

async function peer(port: number, code: "AA" | "AE", name: string) {
  const started = await startResultPeer({
    record: path.join(folder, `${name}.jsonl`),
    port,
    code,
    ...(code === "AE" ? { errorText: "Order ORD-RS-1 not found" } : {}),
  });
  peers.push(started);
  return started;
}

function runResults() {
  const runner = startJobRunner(
    harness.database,
    [
      resultJob(
        { sendingFacility: "NORTHWIND", connectTimeoutMs: 2_000, ackTimeoutMs: 5_000 },
        { limit: 3, backoff: { baseMs: 200, maxMs: 400 } },
      ),
    ],
    harness.app.log,
    { pollMs: 100 },
  );
  runners.push(runner);
}

/** A hospital-ordered case whose signed report's result went to `port`, and the result's log row. */
async function signedResult(port: number, placer: string) {
  const client = await createClient(team.coordinator);
  const profile = await team.admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
    body: {
      baseRevision: null,
      sendingApplication: "EPIC",
      sendingFacility: `RESEND${placer}`,
      mrnAssigningAuthority: `RESEND${placer}`,
      receivingApplication: "EPICCARE",
      receivingFacility: `RESEND${placer}`,
      destination: { host: "127.0.0.1", port, tls: false },
    },
  });
  expect(profile.statusCode, profile.body).toBe(201);
  const subject = await caseIn(harness, team, client.id, "preview");
  await harness.database.db.insert(caseOrders).values({
    caseId: subject.id,
    clientId: client.id,
    source: "hl7",
    placerOrderNumber: placer,
    fillerOrderNumber: subject.caseNumber,
  });
  const created = await team.reviewer("POST", collectionOf("interpretation", subject.id), {
    body: sampleInterpretation(),
  });
  const item = created.json().data as InterpretationItem;
  const signed = await team.reviewer("POST", itemPath("interpretation", subject.id, item.id), {
    body: { change: "sign", baseRevision: item.revision },
  });
  expect(signed.statusCode, signed.body).toBe(201);
  const [row] = await harness.database.db
    .select()
    .from(hl7Messages)
    .where(and(eq(hl7Messages.caseId, subject.id), eq(hl7Messages.direction, "outbound")));
  return row as typeof hl7Messages.$inferSelect;
}

const rowOf = async (id: string) =>
  (await harness.database.db.select().from(hl7Messages).where(eq(hl7Messages.id, id)))[0];
const jobOf = async (id: string) =>
  (
    await harness.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `hl7-result:${id}`))
  )[0];

describe("replaying an outbound result", () => {
  it("sends a result the hospital refused again with the same MSH-10 once the hospital has fixed it, then never again", async () => {
    const port = await findFreePort();
    const refusing = await peer(port, "AE", "refusing");
    const row = await signedResult(port, "ORD-RS-1");
    runResults();
    await expect.poll(async () => (await jobOf(row.id))?.state, { timeout: 15_000 }).toBe("failed");
    expect(await rowOf(row.id)).toMatchObject({ status: "failed", ackCode: "AE" });
    await refusing.stop();
    peers.splice(0);

    // The hospital's interface team fixed the order; the chart now takes it.
    const chart = await peer(port, "AA", "chart");
    const replayed = await team.admin("POST", `${messages}/${row.id}/replay`);
    expect(replayed.statusCode, replayed.body).toBe(200);
    const shown = replayed.json().data as Hl7MessageDetail;
    expect(shown).toMatchObject({ id: row.id, status: "queued", controlId: row.controlId });

    // While it waits, a second replay does not queue it twice.
    const again = await team.admin("POST", `${messages}/${row.id}/replay`);
    expect(again.statusCode).toBe(409);

    await expect.poll(async () => (await rowOf(row.id))?.status, { timeout: 15_000 }).toBe("acknowledged");
    expect(chart.received().map((message) => message.controlId)).toEqual([row.controlId]);

    const done = await team.admin("POST", `${messages}/${row.id}/replay`);
    expect(done.statusCode).toBe(409);
    expect(done.json().error.message).toMatch(/acknowledged this result \(AA\).*sent once, not again/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(chart.received()).toHaveLength(1);

    const [audit] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "hl7-message.replay"), eq(auditEvents.targetId, row.id)));
    expect(audit).toMatchObject({ actorUsername: team.admin.username, targetType: "hl7-message" });
    expect(audit?.details).toMatchObject({ previousStatus: "failed", caseId: row.caseId });
  }, 90_000);

  it("refuses to queue a result twice while its first try is still waiting", async () => {
    const port = await findFreePort();
    const row = await signedResult(port, "ORD-RS-2");
    const response = await team.admin("POST", `${messages}/${row.id}/replay`);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/already waiting to be sent/);
    expect((await jobOf(row.id))?.state).toBe("waiting");
  }, 60_000);
});
