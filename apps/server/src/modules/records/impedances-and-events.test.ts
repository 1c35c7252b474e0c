import type { Case, Contact, EventList, ImpedanceItem, ImpedanceList } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases } from "../../db/schema.js";
import { caseIn, createClient, type Team, teamFor, unknownId } from "../../testing/kits/cases-kit.js";
import { sampleProtocol } from "../../testing/kits/clients-kit.js";
import {
  collectionOf,
  createItem,
  itemPath,
  minutesAgo,
  sampleEvent,
  sampleImpedance,
} from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "checks");
  // sampleProtocol: threshold 7.5 kΩ, checks every 12 hours.
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

async function impedanceList(caseId: string): Promise<ImpedanceList> {
  return (await team.technologist("GET", collectionOf("impedance", caseId))).json().data;
}

describe("impedance thresholds", () => {
  it("flags electrodes above the pinned protocol's threshold and marks 5 kΩ up to it as caution", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const item = await createItem<ImpedanceItem>(team.technologist, "impedance", subject.id, sampleImpedance());
    expect(item).toMatchObject({ thresholdKohm: 7.5, flagged: ["O1"], caution: ["Fp2"] });
    const summary = (await impedanceList(subject.id)).summary;
    expect(summary).toMatchObject({ protocolRevision: 1, thresholdKohm: 7.5, cautionKohm: 5, intervalHours: 12 });
  });

  it("keeps judging by the pinned revision after the client's protocol changes", async () => {
    const client = await createClient(team.coordinator);
    const subject = await caseIn(harness, team, client.id, "monitoring");
    const revised = await team.coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
      body: sampleProtocol({ baseRevision: 1, impedanceThresholdKohm: 15 }),
    });
    expect(revised.statusCode, revised.body).toBe(201);
    const item = await createItem<ImpedanceItem>(team.technologist, "impedance", subject.id, sampleImpedance());
    expect(item).toMatchObject({ thresholdKohm: 7.5, flagged: ["O1"] });
  });

  it("has no caution band when the threshold is 5 kΩ or less, and uses 10 kΩ without any protocol", async () => {
    const strict = await createClient(team.coordinator, { protocol: false });
    await team.coordinator("POST", `/clients/${strict.id}/protocol/revisions`, {
      body: sampleProtocol({ impedanceThresholdKohm: 5 }),
    });
    const strictCase = await caseIn(harness, team, strict.id, "monitoring");
    const judged = await createItem<ImpedanceItem>(team.technologist, "impedance", strictCase.id, sampleImpedance());
    expect(judged).toMatchObject({ thresholdKohm: 5, flagged: ["Fp2", "O1"], caution: [] });

    const bare = await createClient(team.coordinator, { protocol: false });
    const bareCase = await caseIn(harness, team, bare.id, "intake");
    await harness.database.db.update(cases).set({ stage: "monitoring" }).where(eq(cases.id, bareCase.id));
    const item = await createItem<ImpedanceItem>(team.technologist, "impedance", bareCase.id, sampleImpedance());
    expect(item).toMatchObject({ thresholdKohm: 10, flagged: ["O1"], caution: ["Fp2"] });
    expect((await impedanceList(bareCase.id)).summary).toMatchObject({ protocolRevision: null, thresholdKohm: 10 });
  });
});

describe("impedance checks due", () => {
  it("is due one interval after the recording started, overdue past it, and counted from the last check", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const started = new Date(Date.now() - 13 * 3_600_000);
    await harness.database.db.update(cases).set({ recordingStartedAt: started }).where(eq(cases.id, subject.id));
    const overdue = (await impedanceList(subject.id)).summary;
    expect(overdue).toMatchObject({ lastCheckedAt: null, overdue: true });
    expect(Date.parse(overdue.dueAt as string)).toBe(started.getTime() + 12 * 3_600_000);

    const checkedAt = minutesAgo(30);
    const check = await createItem(team.technologist, "impedance", subject.id, sampleImpedance({ checkedAt }));
    const fresh = (await impedanceList(subject.id)).summary;
    expect(fresh).toMatchObject({ overdue: false });
    expect(Date.parse(fresh.lastCheckedAt as string)).toBe(Date.parse(checkedAt));
    expect(Date.parse(fresh.dueAt as string)).toBe(Date.parse(checkedAt) + 12 * 3_600_000);

    // A deleted check does not count.
    await team.technologist("POST", itemPath("impedance", subject.id, check.id), {
      body: { change: "delete", baseRevision: 1 },
    });
    expect((await impedanceList(subject.id)).summary.overdue).toBe(true);
  });

  it("has nothing due outside monitoring", async () => {
    const subject: Case = await caseIn(harness, team, clientId, "preview");
    expect((await impedanceList(subject.id)).summary).toMatchObject({ dueAt: null, overdue: false });
  });
});

describe("events", () => {
  async function contactOf(client: string): Promise<Contact> {
    const response = await team.coordinator("POST", `/clients/${client}/contacts`, {
      body: { name: "Dr. Ana Ortiz", role: "Neurointensivist", phone: "+13125550199", notifyOnCritical: true },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  it("records a notification to a contact of the case's client and counts it until acknowledged", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const contact = await contactOf(clientId);
    const notifiedAt = minutesAgo(15);
    const event = await createItem(
      team.technologist,
      "event",
      subject.id,
      sampleEvent({
        type: "notification",
        description: "Possible electrographic seizure, left temporal.",
        notification: { contactId: contact._id, name: contact.name, method: "phone", notifiedAt },
      }),
    );
    expect(event.data).toMatchObject({ notification: { contactId: contact._id, acknowledgedAt: null } });
    const before: EventList = (await team.reviewer("GET", collectionOf("event", subject.id))).json().data;
    expect(before.summary.unacknowledged).toBe(1);

    const acknowledged = await team.technologist("POST", itemPath("event", subject.id, event.id), {
      body: {
        change: "edit",
        baseRevision: 1,
        data: {
          ...event.data,
          notification: { ...(event.data.notification as object), acknowledgedAt: minutesAgo(5) },
        },
      },
    });
    expect(acknowledged.statusCode, acknowledged.body).toBe(201);
    const after: EventList = (await team.reviewer("GET", collectionOf("event", subject.id))).json().data;
    expect(after.summary.unacknowledged).toBe(0);
  });

  it("refuses a contact of another client, or none, naming the field", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const otherClient = await createClient(team.coordinator);
    const stranger = await contactOf(otherClient.id);
    for (const contactId of [stranger._id, unknownId]) {
      const response = await team.technologist("POST", collectionOf("event", subject.id), {
        body: sampleEvent({
          type: "notification",
          notification: { contactId, name: "Someone", method: "page", notifiedAt: minutesAgo(5) },
        }),
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.details.issues[0].path).toBe("body.notification.contactId");
    }
    // A notification to someone who is not a contact (the bedside nurse) names them without an id.
    await createItem(
      team.technologist,
      "event",
      subject.id,
      sampleEvent({
        type: "notification",
        notification: { contactId: null, name: "Bedside nurse", method: "in-person", notifiedAt: minutesAgo(5) },
      }),
    );
  });

  it("records skin checks with the skin's condition", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const missing = await team.technologist("POST", collectionOf("event", subject.id), {
      body: sampleEvent({ type: "skin-check" }),
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details.issues[0].path).toBe("body.skinCheck");
    const check = await createItem(
      team.technologist,
      "event",
      subject.id,
      sampleEvent({
        type: "skin-check",
        description: "Day 3 skin check.",
        skinCheck: { condition: "redness", sites: "Fp1, Fp2", actionTaken: "Electrodes moved 1 cm; barrier film." },
      }),
    );
    expect(check.data).toMatchObject({ type: "skin-check", skinCheck: { condition: "redness" } });
  });
});
