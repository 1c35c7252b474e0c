import { connect } from "node:net";
import { errorEnvelopeSchema } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * A client that starts a request and never finishes it is answered 408 and disconnected within
 * REQUEST_TIMEOUT_SECONDS (here 1 s), over a real socket to the listening app: before, Node held such a connection
 * open with no answer for minutes.
 */
let harness: TestApp;
let port: number;
let token: string;

beforeAll(async () => {
  harness = await createTestApp({ REQUEST_TIMEOUT_SECONDS: "1" });
  await harness.app.listen({ port: 0, host: "127.0.0.1" });
  const address = harness.app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
  // Signed in, so the route waits for the body instead of refusing the request from its headers alone.
  token = await harness.tokenFor("slow-client", []);
});
afterAll(() => harness.close());

/** Sends `text` and waits for the server to close the connection; returns what it answered and when. */
function sendAndWait(text: string): Promise<{ answer: string; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({ port, host: "127.0.0.1" }, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "ECONNRESET") reject(error);
    });
    socket.on("close", () =>
      resolve({ answer: Buffer.concat(chunks).toString("utf8"), elapsedMs: Date.now() - started }),
    );
    // Should the server never close it, fail here rather than at the test's time-out, with what was received.
    setTimeout(() => socket.destroy(), 10_000).unref();
  });
}

function expectTimedOut({ answer, elapsedMs }: { answer: string; elapsedMs: number }): void {
  expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  const envelope = errorEnvelopeSchema.parse(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)));
  expect(envelope.error).toMatchObject({ status: 408, code: "request_timeout" });
  // The limit is 1 s and expired requests are looked for every 250 ms; well under Node's 300 s either way.
  expect(elapsedMs).toBeGreaterThanOrEqual(900);
  expect(elapsedMs).toBeLessThan(3000);
}

describe("a request the client never finishes", () => {
  it("is answered 408 in the envelope and closed when the body stops halfway", async () => {
    const body = JSON.stringify({ title: "Half a report", description: "never finished" });
    expectTimedOut(
      await sendAndWait(
        `POST /api/bugs/reports HTTP/1.1\r\nHost: vigil.test\r\nAuthorization: Bearer ${token}\r\n` +
          "Content-Type: application/json\r\n" +
          `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
      ),
    );
  });

  it("is answered 408 and closed when the headers never end", async () => {
    expectTimedOut(await sendAndWait("GET /api/health HTTP/1.1\r\nHost: vigil.test\r\nX-Slow: 1\r\n"));
  });

  it("does not cut short a request that arrives in time", async () => {
    const { answer } = await sendAndWait("GET /api/health HTTP/1.1\r\nHost: vigil.test\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
});
