import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Client, InterpretationItem } from "@vigil/contract";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { queryRows } from "../db/client.js";
import { caseOrders, hl7Messages, jobs } from "../db/schema.js";
import { caseIn, createClient, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { type ResultPeer, startResultPeer } from "../testing/kits/hl7-result-peer-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * One result message sent once when the instance sending it is killed (`kill -9`) after writing it and before the
 * ACK (docs/design/HL7.md, "Outbound"): another instance takes the job over when its lease runs out and sends the
 * same message, same MSH-10, which the hospital can recognise as a resend. Two processes need a database they can
 * share: PostgreSQL (DATABASE_URL).
 */
const postgresUrl = loadConfig().databaseUrl;
const child = fileURLToPath(new URL("../testing/result-runner-child.ts", import.meta.url));
const serverDir = fileURLToPath(new URL("../../", import.meta.url));

describe.skipIf(!postgresUrl)("an instance killed while it sends a result", () => {
  let harness: TestApp;
  let team: Team;
  let url: string;
  const children: ChildProcess[] = [];
  const peers: ResultPeer[] = [];

  beforeAll(async () => {
    harness = await createTestApp();
    team = await teamFor(harness, "hl7-kill");
    const [current] = await queryRows<{ name: string }>(harness.database.db, sql`select current_database() as name`);
    const parsed = new URL(postgresUrl as string);
    parsed.pathname = `/${current?.name}`;
    url = parsed.toString();
  }, 60_000);
  afterAll(async () => {
    // Each instance is gone before the test database is dropped (a drop waits out their connections).
    await Promise.all(
      children.map(
        (running) =>
          new Promise<void>((resolve) => {
            if (running.exitCode !== null || running.signalCode !== null) return resolve();
            running.once("exit", () => resolve());
            running.kill("SIGKILL");
          }),
      ),
    );
    for (const peer of peers) await peer.stop();
    await harness?.close();
  }, 120_000);

  function startInstance() {
    const runner = spawn(process.execPath, ["--import", "tsx", child, url], {
      cwd: serverDir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(runner);
    const exited = new Promise<void>((resolve) => runner.once("exit", () => resolve()));
    const ready = new Promise<void>((resolve, reject) => {
      runner.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) resolve();
      });
      runner.once("exit", () => reject(new Error("the runner process exited before it was ready")));
    });
    return { runner, ready, exited };
  }

  it("is sent again by the other instance with the same MSH-10, and acknowledged once", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "vigil-hl7-kill-"));
    const hospital = await startResultPeer({ record: path.join(folder, "received.jsonl"), silentFirst: true });
    peers.push(hospital);
    const client: Client = await createClient(team.coordinator);
    const profile = await team.admin("POST", `/clients/${client.id}/interface-profile/revisions`, {
      body: {
        baseRevision: null,
        sendingApplication: "EPIC",
        sendingFacility: "KILLTEST",
        mrnAssigningAuthority: "KILLTEST-MRN",
        receivingApplication: "EPICCARE",
        receivingFacility: "KILLTEST",
        destination: { host: "127.0.0.1", port: hospital.port, tls: false },
      },
    });
    expect(profile.statusCode, profile.body).toBe(201);
    const subject = await caseIn(harness, team, client.id, "preview");
    await harness.database.db.insert(caseOrders).values({
      caseId: subject.id,
      clientId: client.id,
      source: "hl7",
      placerOrderNumber: "ORD-KILL",
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

    // The first instance writes the message; the hospital keeps it and does not answer; the instance dies.
    const first = startInstance();
    await first.ready;
    await expect.poll(() => hospital.received().length, { timeout: 20_000, interval: 20 }).toBe(1);
    first.runner.kill("SIGKILL");
    await first.exited;

    // The second instance takes the job over when the lease runs out and sends the same message.
    const second = startInstance();
    await second.ready;
    await expect
      .poll(
        async () =>
          (
            await harness.database.db
              .select()
              .from(hl7Messages)
              .where(eq(hl7Messages.id, row?.id as string))
          )[0]?.status,
        { timeout: 30_000 },
      )
      .toBe("acknowledged");
    const received = hospital.received();
    expect(received.map((message) => message.controlId)).toEqual([row?.controlId, row?.controlId]);
    const jobOf = async () =>
      (
        await harness.database.db
          .select()
          .from(jobs)
          .where(eq(jobs.uniqueKey, `hl7-result:${row?.id}`))
      )[0];
    await expect.poll(async () => (await jobOf())?.state, { timeout: 10_000 }).toBe("done");
    expect((await jobOf())?.attempts).toBe(2);
    // Nothing more is sent once acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(hospital.received()).toHaveLength(2);
  }, 90_000);
});
