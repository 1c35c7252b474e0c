import type { Readable } from "node:stream";
import { type CaseEvent, eventStreamFrameSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishCaseEvent } from "../../events/case-events.js";
import { readEventStream, type SseFrame } from "../../events/event-stream-reader.js";
import { caseIn, createClient, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { collectionOf, sampleCaseNote } from "../../testing/kits/records-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;
let caseId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "ev");
  clientId = (await createClient(team.admin)).id;
  caseId = (await caseIn(harness, team, clientId, "monitoring")).id;
});
afterAll(() => harness.close());

type Stream = { frames: SseFrame[]; status: number; headers: Record<string, unknown>; close: () => void };

/** Opens the stream as a browser would (headers arrive at once) and collects its frames until closed. */
async function openStream(token: string, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await harness.app.inject({
    method: "GET",
    url: "/api/events",
    headers: {
      authorization: `Bearer ${token}`,
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    },
    payloadAsStream: true,
    signal: abort.signal,
  });
  const frames: SseFrame[] = [];
  const body = response.stream() as Readable;
  readEventStream(body, (frame) => frames.push(frame)).catch(() => undefined);
  return { frames, status: response.statusCode, headers: response.headers, close: () => abort.abort() };
}

async function until<T>(read: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const caseEvents = (stream: Stream): CaseEvent[] =>
  stream.frames
    .filter((frame) => frame.event === "case")
    .map((frame) => eventStreamFrameSchema.parse({ event: "case", data: JSON.parse(frame.data) }).data as CaseEvent);

const tokenOf = async (username: string, groups: Parameters<TestApp["tokenFor"]>[1]) =>
  harness.tokenFor(username, groups);

async function writeCaseNote(): Promise<void> {
  const created = await team.technologist("POST", collectionOf("case-note", caseId), { body: sampleCaseNote() });
  expect(created.statusCode, created.body).toBe(201);
}

describe("GET /api/events", () => {
  it("answers a text/event-stream, uncached, with a retry hint and a ready frame first", async () => {
    const stream = await openStream(await tokenOf("ev-ready", ["coordinator"]));
    expect(stream.status).toBe(200);
    expect(stream.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(stream.headers["cache-control"]).toBe("no-store");
    expect(stream.headers["x-accel-buffering"]).toBe("no");
    const ready = await until(() => stream.frames[0]);
    expect(ready.event).toBe("ready");
    expect(JSON.parse(ready.data)).toHaveProperty("lastEventId");
    stream.close();
  });

  it("sends a subscriber the event of a record written by someone else, naming the case", async () => {
    const stream = await openStream(await tokenOf("ev-watcher", ["coordinator"]));
    await until(() => stream.frames[0]);
    await writeCaseNote();
    const event = await until(() => caseEvents(stream).find((candidate) => candidate.caseId === caseId));
    expect(event).toMatchObject({ caseId, clientId, change: "record" });
    const frame = stream.frames.find((candidate) => candidate.event === "case");
    expect(frame?.id).toBe(String(event.id));
    stream.close();
  });

  it("sends nothing for a write that was rolled back", async () => {
    const stream = await openStream(await tokenOf("ev-rollback", ["coordinator"]));
    await until(() => stream.frames[0]);
    await harness.database.db
      .transaction(async (tx) => {
        await publishCaseEvent(tx, { caseId, clientId, change: "case" });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    // A committed event after it proves the stream is live, and that the rolled-back one never came before it.
    await harness.database.db.transaction((tx) => publishCaseEvent(tx, { caseId, clientId, change: "stage" }));
    await until(() => caseEvents(stream).find((event) => event.change === "stage"));
    expect(caseEvents(stream).map((event) => event.change)).toEqual(["stage"]);
    stream.close();
  });

  it("sends no case events to a signed-in user without cases:read", async () => {
    const outsider = await openStream(await tokenOf("ev-nogroups", []));
    const developer = await openStream(await tokenOf("ev-developer-watcher", ["developer"]));
    const watcher = await openStream(await tokenOf("ev-allowed", ["technologist"]));
    await until(() => outsider.frames[0] && developer.frames[0] && watcher.frames[0]);
    await writeCaseNote();
    await until(() => caseEvents(watcher)[0]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outsider.frames.map((frame) => frame.event)).toEqual(["ready"]);
    expect(caseEvents(developer)).toEqual([]);
    for (const stream of [outsider, developer, watcher]) stream.close();
  });

  it("replays the events after Last-Event-ID to a client that reconnects", async () => {
    const token = await tokenOf("ev-replay", ["reviewer"]);
    const first = await openStream(token);
    const ready = JSON.parse((await until(() => first.frames[0])).data) as { lastEventId: number };
    first.close();
    await writeCaseNote();
    await writeCaseNote();
    const second = await openStream(token, String(ready.lastEventId));
    // The replay may repeat events written just before the one named (ids are taken before commit; see
    // listEventsAfter): repeats are harmless, a miss is not.
    // An event can arrive twice, in the replay and live (the replay may also repeat events just before the one
    // named): what counts is each id once.
    const missed = () => [
      ...new Map(
        caseEvents(second)
          .filter((event) => event.id > ready.lastEventId)
          .map((event) => [event.id, event]),
      ).values(),
    ];
    const replayed = await until(() => (missed().length >= 2 ? missed() : undefined));
    expect(replayed.map((event) => [event.caseId, event.change])).toEqual([
      [caseId, "record"],
      [caseId, "record"],
    ]);
    expect(second.frames[0]?.event).toBe("ready");
    // And the stream goes on live after the replay.
    await writeCaseNote();
    await until(() => (missed().length >= 3 ? true : undefined));
    second.close();
  });

  it("tells a client whose Last-Event-ID is unknown or no longer kept to re-read (reset)", async () => {
    const token = await tokenOf("ev-reset", ["coordinator"]);
    for (const [lastEventId, reason] of [
      ["999999999", "unknown-id"],
      ["not-a-number", "unknown-id"],
    ] as const) {
      const stream = await openStream(token, lastEventId);
      const first = await until(() => stream.frames[0]);
      expect(first.event).toBe("reset");
      expect(JSON.parse(first.data)).toEqual({ reason });
      stream.close();
    }
    // Events older than what is kept: prune everything but the newest, then ask for one before it.
    await writeCaseNote();
    const rows = await harness.database.db.execute(sql`select min(id) as min, max(id) as max from case_events`);
    const { min, max } = (rows as unknown as { rows: { min: string; max: string }[] }).rows[0] as {
      min: string;
      max: string;
    };
    await harness.database.db.execute(sql`delete from case_events where id < ${Number(max)}`);
    const stream = await openStream(token, String(Number(min)));
    const first = await until(() => stream.frames[0]);
    expect(first.event).toBe("reset");
    expect(JSON.parse(first.data)).toEqual({ reason: "too-old" });
    expect(first.id).toBe(String(Number(max)));
    stream.close();
  });

  it("refuses anonymous callers with 401 before any stream opens", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/events" });
    expect(response.statusCode).toBe(401);
  });

  it("is described in the OpenAPI document with its text/event-stream answer", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const answer = document.paths["/api/events"].get.responses["200"];
    expect(Object.keys(answer.content)).toEqual(["text/event-stream"]);
    expect(JSON.stringify(answer.content["text/event-stream"].schema)).toContain("reset");
  });
});
