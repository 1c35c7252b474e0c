import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

/** The server's log lines, as JSON, in the order written. */
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split("\n").filter(Boolean)) logLines.push(JSON.parse(line));
    done();
  },
});

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp({}, { logger: { level: "info", stream: logStream } });
});
afterAll(() => harness.close());

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The lines logged from a request's arrival to its answer (inject serves one request at a time). */
function linesOf(id: unknown): Record<string, unknown>[] {
  const first = logLines.findIndex((line) => line.reqId === id && line.msg === "incoming request");
  const last = logLines.findIndex((line) => line.reqId === id && line.msg === "request completed");
  expect(first, `"incoming request" of ${id}`).toBeGreaterThanOrEqual(0);
  expect(last, `"request completed" of ${id}`).toBeGreaterThan(first);
  return logLines.slice(first, last + 1);
}

describe("the request id", () => {
  it("is on every answer, errors and refusals included, as the reqId of that request's log lines", async () => {
    const answers = {
      "a health check": await harness.app.inject({ method: "GET", url: "/api/health" }),
      "an anonymous call": await harness.app.inject({
        method: "GET",
        url: "/api/continuous-monitoring/cases/00000000-0000-4000-8000-000000000000",
      }),
      "an unknown path": await harness.app.inject({ method: "POST", url: "/api/no-such-thing" }),
      "malformed JSON": await harness.app.inject({
        method: "POST",
        url: "/api/continuous-monitoring/cases",
        headers: { "content-type": "application/json" },
        payload: '{"clientId":',
      }),
      "a malformed %-escape": await harness.app.inject({ method: "GET", url: "/api/continuous-monitoring/cases/%zz" }),
      "the identity endpoint": await harness.cognito("InitiateAuth", {}),
    };
    const ids = Object.entries(answers).map(([what, answer]) => {
      expect(answer.headers["x-request-id"], what).toMatch(uuid);
      return answer.headers["x-request-id"];
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(answers["an anonymous call"].statusCode).toBe(401);
    expect(answers["a malformed %-escape"].statusCode).toBe(400);
    // The identity endpoint's own header (the AWS SDK's requestId) is the same id.
    expect(answers["the identity endpoint"].headers["x-amzn-requestid"]).toBe(
      answers["the identity endpoint"].headers["x-request-id"],
    );
    for (const [what, answer] of Object.entries(answers)) {
      const id = answer.headers["x-request-id"];
      expect(
        logLines.some((line) => line.reqId === id),
        `a log line of ${what}`,
      ).toBe(true);
    }
    for (const answer of [answers["a health check"], answers["an anonymous call"], answers["malformed JSON"]]) {
      for (const line of linesOf(answer.headers["x-request-id"]))
        expect(line.reqId).toBe(answer.headers["x-request-id"]);
    }
  });

  it("is on the lines other parts log while serving the request, not only the request's own", async () => {
    const password = await harness.addUser("request-id-forgetful", []);
    expect(password).toBeTruthy();
    // Over a real connection, the body arriving in two parts: the line is the request's wherever its work resumes.
    const address = await harness.app.listen({ port: 0, host: "127.0.0.1" });
    const answer = await fetch(`${address}/cognito`, {
      method: "POST",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AWSCognitoIdentityProviderService.ForgotPassword",
      },
      // Sent in two parts, the second a little later, as a slow client's body arrives.
      body: new ReadableStream({
        async start(controller) {
          const body = new TextEncoder().encode(
            JSON.stringify({ ClientId: testClientId, Username: "request-id-forgetful" }),
          );
          controller.enqueue(body.slice(0, 10));
          await new Promise((resolve) => setTimeout(resolve, 50));
          controller.enqueue(body.slice(10));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(answer.status, await answer.text()).toBe(200);
    const id = answer.headers.get("x-request-id");
    const lines = linesOf(id);
    // The message service logs through the app's logger, not the request's: its line still names the request.
    const outbox = lines.find((line) => line.msg === "message kept in the outbox (no transport configured)");
    expect(outbox, JSON.stringify(lines)).toBeDefined();
    for (const line of lines) expect(line.reqId, String(line.msg)).toBe(id);
    // Outside any request, nothing is added.
    harness.app.log.info("a line outside any request");
    expect(logLines.at(-1)).not.toHaveProperty("reqId");
  });

  it("is on the outbox's line of a temporary password an administrator's invitation sends", async () => {
    const token = await harness.tokenFor("request-id-admin", ["admin"]);
    const answer = await harness.app.inject({
      method: "POST",
      url: "/api/users",
      headers: { authorization: `Bearer ${token}` },
      payload: {
        username: "request-id-invited",
        email: "request-id-invited@example.org",
        name: "Invited Example",
        groups: ["technologist"],
      },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const id = answer.headers["x-request-id"];
    const outbox = linesOf(id).find((line) => line.msg === "message kept in the outbox (no transport configured)");
    expect(outbox).toMatchObject({ reqId: id, to: "request-id-invited@example.org" });
  });

  it("is the server's own, whatever id the caller sends", async () => {
    const answer = await harness.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-request-id": "forged-id\nlevel=fatal" },
    });
    expect(answer.headers["x-request-id"]).toMatch(uuid);
  });
});
