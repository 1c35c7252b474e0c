import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CaseEventHub, startCaseEventHub } from "../../events/case-event-hub.js";
import { publishCaseEvent } from "../../events/case-events.js";
import { readEventStream, type SseFrame } from "../../events/event-stream-reader.js";
import type { Principal } from "../../http/principal.js";
import { findUserByUsername, updateUser } from "../../identity/users-repository.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { defaultEventStreamSettings, type EventStreams, openEventStream } from "./events-service.js";

/**
 * What the stream does over time, with the checks made often (every 50 ms instead of 30 s): a user whose groups
 * no longer allow cases:read stops getting case events; a disabled user's stream ends.
 */
let harness: TestApp;
let hub: CaseEventHub;
const quiet = { warn: () => {}, info: () => {} };
const caseId = "11111111-1111-4111-8111-111111111111";
const clientId = "22222222-2222-4222-8222-222222222222";

beforeAll(async () => {
  harness = await createTestApp();
  hub = await startCaseEventHub(harness.database, quiet);
});
afterAll(async () => {
  await hub.close();
  await harness.close();
});

async function until<T>(read: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function openAs(username: string) {
  const token = await harness.tokenFor(username, ["coordinator"]);
  const request = { headers: { authorization: `Bearer ${token}` } } as FastifyRequest;
  const principal = (await harness.app.authenticate(request)) as Principal;
  const streams: EventStreams = {
    db: harness.database.db,
    hub,
    settings: { ...defaultEventStreamSettings, principalRefreshMs: 50 },
    open: new Map(),
    lastPrunedAt: Date.now(),
    log: quiet,
  };
  const stream = await openEventStream(streams, principal, undefined, () => harness.app.authenticate(request));
  const frames: SseFrame[] = [];
  let ended = false;
  // Destroying the stream (the test hanging up) ends the read with a premature close: that is the expected end.
  readEventStream(stream, (frame) => frames.push(frame)).then(
    () => {
      ended = true;
    },
    () => undefined,
  );
  await until(() => frames[0]);
  const sub = (await findUserByUsername(harness.database.db, username))?.sub as string;
  return { frames, sub, ended: () => ended, close: () => stream.destroy() };
}

const publish = (change: "case" | "stage") =>
  harness.database.db.transaction((tx) => publishCaseEvent(tx, { caseId, clientId, change }));
const changes = (frames: SseFrame[]) =>
  frames.filter((frame) => frame.event === "case").map((frame) => JSON.parse(frame.data).change as string);

describe("an open event stream", () => {
  it("stops sending case events once the user's groups no longer allow cases:read", async () => {
    const demoted = await openAs("evs-demoted");
    const control = await openAs("evs-control");
    await publish("case");
    await until(() => (changes(demoted.frames).length === 1 ? true : undefined));
    await updateUser(harness.database.db, demoted.sub, { groups: ["developer"] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await publish("stage");
    await until(() => (changes(control.frames).includes("stage") ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changes(demoted.frames)).toEqual(["case"]);
    demoted.close();
    control.close();
  });

  it("ends when the user is disabled", async () => {
    const disabled = await openAs("evs-disabled");
    await updateUser(harness.database.db, disabled.sub, { enabled: false });
    await until(() => (disabled.ended() ? true : undefined));
  });
});
