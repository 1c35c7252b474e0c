import { randomUUID } from "node:crypto";
import type { CaseEvent } from "@vigil/contract";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { readEventStream, type SseFrame } from "../events/event-stream-reader.js";
import { createUser } from "../identity/user-directory.js";
import { sampleCase } from "../testing/kits/cases-kit.js";
import { sampleClient, sampleProtocol } from "../testing/kits/clients-kit.js";
import { killAllServers, type ServerProcess, startServer } from "../testing/server-process.js";

/**
 * The live event stream behind a load balancer: a write made through instance A reaches a stream open on instance
 * B within 2 s (PRODUCT.md §10), through PostgreSQL's LISTEN/NOTIFY and nothing else; a stream whose user signs out
 * everywhere, is disabled or loses their groups through the other instance ends (or stops hearing cases) within a
 * second, through the same session-change notification that ends their next request; B's listener survives its
 * connection being cut, telling its streams to re-read; and an open stream does not hold up B's shutdown.
 * Needs DATABASE_URL (PGlite serves one process).
 */
const postgresUrl = loadConfig().databaseUrl;
const base = "/api/continuous-monitoring";
const users = {
  "te-admin": { groups: ["admin" as const], password: `pw-${randomUUID()}` },
  "te-coordinator": { groups: ["coordinator" as const], password: `pw-${randomUUID()}` },
  "te-everywhere": { groups: ["coordinator" as const], password: `pw-${randomUUID()}` },
  "te-disabled": { groups: ["coordinator" as const], password: `pw-${randomUUID()}` },
  "te-demoted": { groups: ["coordinator" as const], password: `pw-${randomUUID()}` },
};

let databaseName: string;
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;

async function adminQuery(url: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows;
  } finally {
    await client.end();
  }
}

type OpenStream = { frames: SseFrame[]; ended: Promise<void>; hasEnded: () => boolean; close: () => void };

/** Opens `GET /api/events` over real HTTP, as the web app's fetch-based client does. */
async function openStream(server: ServerProcess, token: string): Promise<OpenStream> {
  const abort = new AbortController();
  const response = await fetch(`${server.baseUrl}/api/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  const frames: SseFrame[] = [];
  let hasEnded = false;
  const ended = readEventStream(response.body as AsyncIterable<Uint8Array>, (frame) => frames.push(frame))
    .catch(() => undefined)
    .finally(() => {
      hasEnded = true;
    });
  return { frames, ended, hasEnded: () => hasEnded, close: () => abort.abort() };
}

async function until<T>(read: () => T | undefined, timeoutMs: number): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`nothing within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const caseEventsOf = (stream: OpenStream): CaseEvent[] =>
  stream.frames.filter((frame) => frame.event === "case").map((frame) => JSON.parse(frame.data) as CaseEvent);

describe.skipIf(!postgresUrl)(
  "the event stream across two instances on one PostgreSQL (skipped without DATABASE_URL)",
  () => {
    let adminToken: string;
    let clientId: string;

    beforeAll(async () => {
      const url = postgresUrl as string;
      databaseName = `vigil_events_${process.pid}_${randomUUID().slice(0, 8)}`;
      await adminQuery(url, `create database ${databaseName}`);
      const target = new URL(url);
      target.pathname = `/${databaseName}`;
      databaseUrl = target.toString();
      const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
      try {
        for (const [username, { groups, password }] of Object.entries(users)) {
          await createUser(
            database.db,
            { username, email: `${username}@vigil.test`, name: username, groups, password },
            { username: "test" },
          );
        }
      } finally {
        await database.close();
      }
      const env = { DATABASE_URL: databaseUrl, PUBLIC_URL: "http://vigil.test" };
      a = await startServer({ label: "instance A", env, readyTimeoutMs: 180_000 });
      b = await startServer({ label: "instance B", env, readyTimeoutMs: 180_000 });
      adminToken = (await a.signIn("te-admin", users["te-admin"].password)).idToken;
      const client = await a.request("POST", `${base}/clients`, { token: adminToken, body: sampleClient() });
      expect(client.status, client.body).toBe(201);
      clientId = client.json().data.id;
      const protocol = await a.request("POST", `${base}/clients/${clientId}/protocol/revisions`, {
        token: adminToken,
        body: sampleProtocol(),
      });
      expect(protocol.status, protocol.body).toBe(201);
    }, 420_000);

    afterAll(async () => {
      await killAllServers();
      if (databaseName) await adminQuery(postgresUrl as string, `drop database if exists ${databaseName} with (force)`);
    });

    const openCaseOn = async (server: ServerProcess): Promise<string> => {
      const created = await server.request("POST", `${base}/cases`, { token: adminToken, body: sampleCase(clientId) });
      expect(created.status, created.body).toBe(201);
      return created.json().data.id;
    };

    it("delivers a write made through instance A to a stream open on instance B within 2 s", async () => {
      const watcher = (await b.signIn("te-coordinator", users["te-coordinator"].password)).idToken;
      const stream = await openStream(b, watcher);
      await until(() => stream.frames[0], 5000);
      const started = Date.now();
      const caseId = await openCaseOn(a);
      await until(() => caseEventsOf(stream).find((event) => event.caseId === caseId), 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      stream.close();
    });

    /** An administrator's change of `username` through `server` (If-Match from the user's ETag). */
    const changeUser = async (
      server: ServerProcess,
      username: string,
      what: "toggle" | "access-groups",
      body: object,
    ) => {
      const user = await server.request("GET", `/api/users/${username}`, { token: adminToken });
      expect(user.status, user.body).toBe(200);
      const changed = await server.request("PUT", `/api/users/${username}/${what}`, {
        token: adminToken,
        ifMatch: user.headers.etag as string,
        body,
      });
      expect(changed.status, changed.body).toBe(200);
    };

    it("ends a stream open on A within a second when its user signs out everywhere through B", async () => {
      const tokens = await a.signIn("te-everywhere", users["te-everywhere"].password);
      const stream = await openStream(a, tokens.idToken);
      await until(() => stream.frames[0], 5000);
      const started = Date.now();
      const signOut = await b.cognito("GlobalSignOut", { AccessToken: tokens.accessToken });
      expect(signOut.status, signOut.body).toBe(200);
      await until(() => (stream.hasEnded() ? true : undefined), 1000);
      expect(Date.now() - started).toBeLessThan(1500);
    });

    it("ends a stream open on B within a second when an administrator disables its user through A", async () => {
      const token = (await b.signIn("te-disabled", users["te-disabled"].password)).idToken;
      const stream = await openStream(b, token);
      await until(() => stream.frames[0], 5000);
      await changeUser(a, "te-disabled", "toggle", { isEnabled: false });
      await until(() => (stream.hasEnded() ? true : undefined), 1000);
    });

    it("sends no more case events to a stream on A once its user's groups are removed through B", async () => {
      const token = (await a.signIn("te-demoted", users["te-demoted"].password)).idToken;
      const demoted = await openStream(a, token);
      const control = await openStream(a, (await a.signIn("te-coordinator", users["te-coordinator"].password)).idToken);
      await until(() => demoted.frames[0] && control.frames[0], 5000);
      await changeUser(b, "te-demoted", "access-groups", { groups: [] });
      // A re-checks the stream's caller on hearing the change: one database read.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const caseId = await openCaseOn(b);
      await until(() => caseEventsOf(control).find((event) => event.caseId === caseId), 2000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(caseEventsOf(demoted)).toEqual([]);
      expect(demoted.hasEnded(), "filtered, not ended: the user is still signed in").toBe(false);
      demoted.close();
      control.close();
    });

    it("listens again after its database connection is cut, telling open streams to re-read", async () => {
      const watcher = (await b.signIn("te-coordinator", users["te-coordinator"].password)).idToken;
      const stream = await openStream(b, watcher);
      await until(() => stream.frames[0], 5000);
      // Both instances' listeners lose their connection (a restart or failover looks the same to them).
      const cut = await adminQuery(
        postgresUrl as string,
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'listen %'",
        [databaseName],
      );
      expect(cut.length).toBeGreaterThanOrEqual(2);
      const reset = await until(() => stream.frames.find((frame) => frame.event === "reset"), 10_000);
      expect(JSON.parse(reset.data)).toEqual({ reason: "listener-gap" });
      const caseId = await openCaseOn(a);
      await until(() => caseEventsOf(stream).find((event) => event.caseId === caseId), 2000);
      stream.close();
    }, 30_000);

    it("ends open streams when the instance shuts down, and stops cleanly", async () => {
      const watcher = (await b.signIn("te-coordinator", users["te-coordinator"].password)).idToken;
      const stream = await openStream(b, watcher);
      await until(() => stream.frames[0], 5000);
      const started = Date.now();
      expect(await b.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(8000);
      await stream.ended;
    }, 30_000);
  },
);
