import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ContactInput, CriticalFinding, FindingLinkView, RaiseCriticalFindingInput } from "@vigil/contract";
import type { LightMyRequestResponse } from "fastify";
import { SMTPServer } from "smtp-server";
import { expect } from "vitest";
import { type AppOptions, buildApp } from "../../app.js";
import type { Config } from "../../config.js";
import type { FindingWorkPass } from "../../modules/findings/finding-jobs.js";
import { runFindingWork } from "../../modules/findings/finding-jobs.js";
import type { TestApp } from "../test-app.js";
import { base, type Caller, caseIn, type Team } from "./cases-kit.js";

/**
 * Shared by the critical findings' tests: sample input, a case with contacts and a reviewer to tell, the worker's
 * pass at a chosen moment, the links found in sent messages, and real peers to send to (an SMTP server, an SMS
 * gateway answering what it is told to).
 */

export const findingsPath = (caseId: string) => `${base}/cases/${caseId}/critical-findings`;

export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

export function sampleFinding(overrides: Partial<RaiseCriticalFindingInput> = {}): RaiseCriticalFindingInput {
  return {
    kind: "electrographic-seizure",
    onsetAt: new Date(Date.now() - 12 * 60_000).toISOString(),
    description: "Rhythmic 3 Hz spike-wave, left temporal, evolving over 40 s.",
    ...overrides,
  };
}

export async function raiseFinding(
  caller: Caller,
  caseId: string,
  input: RaiseCriticalFindingInput = sampleFinding(),
): Promise<CriticalFinding> {
  const response = await caller("POST", findingsPath(caseId), { body: input });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

export async function listFindings(caller: Caller, caseId: string): Promise<CriticalFinding[]> {
  const response = await caller("GET", findingsPath(caseId));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items;
}

export async function findingOf(caller: Caller, caseId: string, findingId: string): Promise<CriticalFinding> {
  const found = (await listFindings(caller, caseId)).find((finding) => finding.id === findingId);
  if (!found) throw new Error(`no finding ${findingId} on ${caseId}`);
  return found;
}

let contactCounter = 0;

/** Adds a contact to the client (as `caller`, a coordinator); flagged for critical findings unless told otherwise. */
export async function addContact(caller: Caller, clientId: string, overrides: Partial<ContactInput> = {}) {
  contactCounter += 1;
  const response = await caller("POST", `/clients/${clientId}/contacts`, {
    body: {
      name: `Contact ${String(contactCounter).padStart(3, "0")}`,
      role: "Charge nurse",
      email: `contact-${contactCounter}@hospital.test`,
      notifyOnCritical: true,
      ...overrides,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { _id: string; name: string; email: string | null; phone: string | null };
}

/** A case in monitoring (its protocol pinned) with `reviewer` assigned when given. */
export async function monitoredCase(
  harness: TestApp,
  team: Team,
  clientId: string,
  options: { reviewer?: Caller } = {},
) {
  const subject = await caseIn(harness, team, clientId, "monitoring");
  if (options.reviewer) {
    const assigned = await team.coordinator("POST", `/cases/${subject.id}/actions`, {
      body: { action: "assign-reviewer", reviewerId: options.reviewer.sub },
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
  }
  return subject;
}

/** One pass of the findings' worker at `now` (escalations, then messages), as the server runs it on its timer. */
export function workAt(harness: TestApp, now: Date = new Date()): Promise<FindingWorkPass> {
  return runFindingWork(harness.app.findings, now);
}

/** The acknowledgement tokens in messages' bodies (`…/#/acknowledge/<token>`), in the order given. */
export function tokensIn(bodies: string[]): string[] {
  return bodies.flatMap((body) =>
    [...body.matchAll(/#\/acknowledge\/([A-Za-z0-9._-]+)/g)].map((match) => match[1] ?? ""),
  );
}

/** The messages kept in the outbox for `recipient`, oldest first. */
export async function outboxFor(harness: TestApp, recipient: string) {
  return (await harness.app.messages.listOutbox({ recipient, limit: 200 })).reverse();
}

/** One of the link's public calls, anonymous, from `ip`. */
export function linkCall(
  harness: TestApp,
  call: "lookup" | "acknowledgement",
  body: Record<string, unknown>,
  ip = "203.0.113.7",
): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method: "POST",
    url: `/api/finding-links/${call}`,
    payload: body,
    remoteAddress: ip,
  });
}

export async function lookUp(harness: TestApp, token: string): Promise<FindingLinkView> {
  const response = await linkCall(harness, "lookup", { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/**
 * A second app on the harness's database, with the options a test needs (its own job runner, extra transports) and the
 * configuration changed by `configure`; callers made with the returned harness reach this app. Close it first.
 */
export async function appOnSameDatabase(
  harness: TestApp,
  options: Pick<AppOptions, "transports" | "runJobs"> & { configure?: (config: Config) => Config } = {},
): Promise<TestApp> {
  const config = options.configure ? options.configure(harness.config) : harness.config;
  const app = await buildApp({
    config,
    database: harness.database,
    logger: false,
    transports: options.transports,
    runJobs: options.runJobs,
  });
  await app.ready();
  return { ...harness, app, config, close: () => app.close() };
}

export type SmsGateway = {
  url: string;
  /** What the gateway was sent, in order. */
  received: { to: string; body: string }[];
  /** The status it answers from now on. */
  answer: (status: number) => void;
  close: () => Promise<void>;
};

/** A real HTTP server standing in for the SMS provider: it keeps what it is sent and answers the status it is told. */
export async function startSmsGateway(status = 200): Promise<SmsGateway> {
  let answerStatus = status;
  const received: SmsGateway["received"] = [];
  const server = http.createServer((request, response) => {
    let text = "";
    request.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    request.on("end", () => {
      received.push(JSON.parse(text) as { to: string; body: string });
      response.writeHead(answerStatus, { "content-type": "application/json" }).end("{}");
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`,
    received,
    answer: (next) => {
      answerStatus = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export type MailServer = {
  url: string;
  /** Every accepted message's envelope recipients and text (quoted-printable decoded), in order. */
  received: { to: string[]; data: string }[];
  /** Refuse recipients from now on (550), as a mail server that will not relay does. */
  refuse: (refusing: boolean) => void;
  close: () => Promise<void>;
};

/** Quoted-printable as nodemailer writes long lines: soft breaks joined, `=XX` escapes decoded. */
function decodeQuoted(data: string): string {
  return data
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** A real SMTP server (the `smtp-server` package) that keeps what it accepts. */
export async function startMailServer(): Promise<MailServer> {
  let refusing = false;
  const received: MailServer["received"] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(_address, _session, callback) {
      callback(refusing ? Object.assign(new Error("Relay access denied"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk: Buffer) => {
        data += chunk.toString("utf8");
      });
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((address) => address.address), data: decodeQuoted(data) });
        callback();
      });
    },
  });
  // A sender killed mid-message (the crash tests' SIGKILL) resets its socket inside a transaction; smtp-server
  // re-emits that on the server, and an EventEmitter's unheard "error" would end the test process.
  server.on("error", () => undefined);
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    refuse: (next) => {
      refusing = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
