import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

/** The server's log lines, as JSON, for checking that a response's request id is the one logged. */
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

const target = (operation: string) => `AWSCognitoIdentityProviderService.${operation}`;

function post(url: string, payload: string, headers: Record<string, string> = {}) {
  return harness.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-amz-json-1.1", "x-amz-target": target("InitiateAuth"), ...headers },
    payload,
  });
}

const signInBody = JSON.stringify({
  AuthFlow: "USER_PASSWORD_AUTH",
  ClientId: testClientId,
  AuthParameters: { USERNAME: "nobody-at-all", PASSWORD: "not-the-password" },
});

describe("the identity endpoint", () => {
  it("answers at /cognito/ (the AWS SDK's path) as at /cognito", async () => {
    const withSlash = await post("/cognito/", signInBody);
    const without = await post("/cognito", signInBody);
    expect(withSlash.statusCode).toBe(400);
    expect(withSlash.json()).toEqual({ __type: "NotAuthorizedException", message: "Incorrect username or password." });
    expect(withSlash.json()).toEqual(without.json());
  });

  it("keeps the status of what the framework refuses, with a Cognito-style error type", async () => {
    const tooLarge = await post("/cognito", JSON.stringify({ padding: "x".repeat(1_100_000) }));
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.headers["x-amzn-errortype"]).toBe("RequestEntityTooLargeException");
    expect(tooLarge.json()).toEqual({
      __type: "RequestEntityTooLargeException",
      message: "The request body is larger than the 1 MB the identity endpoint accepts.",
    });

    const wrongType = await post("/cognito", signInBody, { "content-type": "text/csv" });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().__type).toBe("UnsupportedMediaTypeException");

    const emptyJson = await post("/cognito", "", { "content-type": "application/json" });
    expect(emptyJson.statusCode).toBe(400);
    expect(emptyJson.json().__type).toBe("SerializationException");
  });

  it("sends every answer with x-amzn-requestid, the id its log lines carry", async () => {
    const answers = [
      await post("/cognito/", signInBody),
      await post("/cognito", JSON.stringify({ padding: "x".repeat(1_100_000) })),
      await post("/cognito", "{}", { "x-amz-target": target("ListUsers") }),
      await harness.app.inject({ method: "GET", url: "/.well-known/jwks.json" }),
    ];
    const ids = answers.map((answer) => answer.headers["x-amzn-requestid"]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      const completed = logLines.find((line) => line.reqId === id && line.msg === "request completed");
      expect(completed, `a log line for ${id}`).toBeDefined();
    }
  });
});
