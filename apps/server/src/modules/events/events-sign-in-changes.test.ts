import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishCaseEvent } from "../../events/case-events.js";
import { type Caller, callerFor } from "../../testing/kits/caller-kit.js";
import { caseEventsOf, type OpenedStream, openEventStreamAs, until } from "../../testing/kits/event-stream-kit.js";
import { createTestApp, type TestApp, testClientId } from "../../testing/test-app.js";
import { defaultEventStreamSettings } from "./events-service.js";

/**
 * An open live-update stream and its caller's sign-in, with the app's own settings (the periodic check every 30 s):
 * a change to the sign-in (signed out everywhere, the user disabled, their groups cut) reaches the stream through
 * the session-change notification within moments, not at the next periodic check. And one sign-in cannot hold more
 * than `maxStreamsPerSession` streams open.
 */
let harness: TestApp;
let admin: Caller;
const caseId = "11111111-1111-4111-8111-111111111111";
const clientId = "22222222-2222-4222-8222-222222222222";

beforeAll(async () => {
  harness = await createTestApp();
  admin = await callerFor(harness, "evc-admin", ["admin"]);
});
afterAll(() => harness.close());

async function signedIn(username: string) {
  const tokens = await harness.signIn(username, await harness.addUser(username, ["coordinator"]));
  const stream = await openEventStreamAs(harness.app, tokens.idToken);
  expect(stream.status).toBe(200);
  await until(() => stream.frames[0]);
  return { tokens, stream };
}

/** The stream has ended well before the 30 s periodic check could have ended it. */
async function endsWithinASecond(stream: OpenedStream): Promise<void> {
  await until(() => (stream.ended() ? true : undefined), 1000);
}

async function asAdmin(method: "PUT", path: string, body: unknown) {
  const current = await admin("GET", path.replace(/\/(toggle|access-groups)$/, ""));
  const answer = await admin(method, path, { body, ifMatch: current.headers.etag as string });
  expect(answer.statusCode, answer.body).toBe(200);
}

const publish = (change: "case" | "stage") =>
  harness.database.db.transaction((tx) => publishCaseEvent(tx, { caseId, clientId, change }));

describe("an open event stream when its sign-in changes", () => {
  it("ends at once when its user signs out everywhere", async () => {
    const { tokens, stream } = await signedIn("evc-everywhere");
    const signOut = await harness.cognito("GlobalSignOut", { AccessToken: tokens.accessToken });
    expect(signOut.statusCode, signOut.body).toBe(200);
    await endsWithinASecond(stream);
  });

  it("ends at once when an administrator disables its user", async () => {
    const { stream } = await signedIn("evc-disabled");
    await asAdmin("PUT", "/api/users/evc-disabled/toggle", { isEnabled: false });
    await endsWithinASecond(stream);
  });

  it("stops sending case events at once when an administrator removes its user's groups", async () => {
    const { stream } = await signedIn("evc-demoted");
    const { stream: control } = await signedIn("evc-kept");
    await publish("case");
    await until(() => (caseEventsOf(stream).length === 1 ? true : undefined));
    await asAdmin("PUT", "/api/users/evc-demoted/access-groups", { groups: [] });
    // The change's notification has come back to this instance before the administrator's answer (the echo), and
    // the stream's own check is one read: by the next event it no longer may read cases.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await publish("stage");
    await until(() => (caseEventsOf(control).some((event) => event.change === "stage") ? true : undefined));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(caseEventsOf(stream).map((event) => event.change)).toEqual(["case"]);
    // Filtered, not ended: the user is still signed in, and may be given groups back.
    expect(stream.ended()).toBe(false);
    stream.close();
    control.close();
  });

  it("leaves the streams of the user's other sign-ins alone when one sign-in is revoked", async () => {
    const password = await harness.addUser("evc-two-devices", ["coordinator"]);
    const phone = await harness.signIn("evc-two-devices", password);
    const desk = await harness.signIn("evc-two-devices", password);
    const phoneStream = await openEventStreamAs(harness.app, phone.idToken);
    const deskStream = await openEventStreamAs(harness.app, desk.idToken);
    await until(() => phoneStream.frames[0] && deskStream.frames[0]);
    const revoke = await harness.cognito("RevokeToken", {
      Token: phone.refreshToken,
      ClientId: testClientId,
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    await endsWithinASecond(phoneStream);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(deskStream.ended()).toBe(false);
    deskStream.close();
  });
});

describe("streams per sign-in", () => {
  it(`refuses a sign-in's stream beyond ${defaultEventStreamSettings.maxStreamsPerSession} with 429, and keeps the others open`, async () => {
    const { tokens, stream: first } = await signedIn("evc-many");
    const others: OpenedStream[] = [first];
    for (let index = 1; index < defaultEventStreamSettings.maxStreamsPerSession; index += 1) {
      const next = await openEventStreamAs(harness.app, tokens.idToken);
      expect(next.status).toBe(200);
      others.push(next);
    }
    const refused = await openEventStreamAs(harness.app, tokens.idToken);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const body = JSON.parse(await until(() => (refused.ended() ? refused.body() : undefined)));
    expect(body.error).toMatchObject({ status: 429, code: "too_many_requests" });
    expect(body.error.message).toMatch(/live update streams/);

    // Another sign-in is not counted against this one; and closing one stream makes room again.
    const { stream: someoneElse } = await signedIn("evc-someone-else");
    others[0]?.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const reopened = await openEventStreamAs(harness.app, tokens.idToken);
    expect(reopened.status).toBe(200);
    for (const stream of [...others, someoneElse, reopened]) stream.close();
  });
});
