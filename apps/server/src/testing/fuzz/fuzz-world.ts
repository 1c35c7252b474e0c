import {
  type CaseStage,
  type CriticalFinding,
  caseStages,
  type RecordKind,
  type RouteDefinition,
  recordKinds,
} from "@vigil/contract";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { expect } from "vitest";
import { hl7Messages } from "../../db/schema.js";
import { deliverInvoiceSending } from "../../modules/billing/invoice-sending-service.js";
import { signLinkToken } from "../../modules/findings/link-tokens.js";
import { receiveHl7Message } from "../../modules/interfaces/inbound-service.js";
import { clientIn, issueStatement, logTime, monitoredCase, setRate } from "../kits/billing-kit.js";
import { caseIn, createClient, type Team, teamFor } from "../kits/cases-kit.js";
import { sampleProtocol } from "../kits/clients-kit.js";
import { createItem, sampleCaseNote, writableStage, writerGroup } from "../kits/records-kit.js";
import { reportTokensFor, signedCase } from "../kits/reports-kit.js";
import type { TestApp } from "../test-app.js";
import type { Hints } from "./json-schema-arbitrary.js";

/**
 * What the fuzzer aims at: one of each thing a route can name (a client with a protocol, a contact and a link, a
 * client without cases, a case in every stage, an item of every record kind, a pending transition, a bug report,
 * users to administer), so that generated requests with real ids reach the handlers' deepest paths, while random
 * ids exercise the misses.
 */
export type FuzzWorld = {
  team: Team;
  /** An administrator's token (every permission) and the token of a signed-in user without groups. */
  adminToken: string;
  noGroupsToken: string;
  clientIds: string[];
  contacts: { id: string; contactId: string }[];
  links: { id: string; linkId: string }[];
  cases: Record<CaseStage, string>;
  items: Record<RecordKind, { id: string; itemId: string }[]>;
  transitions: { id: string; transitionId: string }[];
  assignmentIds: string[];
  bugIds: string[];
  /**
   * Open critical findings (on the monitoring case), three each for phone acknowledgement and for cancellation, and
   * the links of three more: each closes once, so none of the routes finds them all closed by the one before it.
   */
  findings: Record<"acknowledgement" | "cancellation", { id: string; findingId: string }[]>;
  findingTokens: string[];
  /** A signed report (its case and version) and the download link its named contact was sent. */
  reports: { id: string; reportId: string }[];
  reportTokens: string[];
  reportContactIds: string[];
  /** Users the user-administration routes may act on (never a caller of the fuzzer). */
  targetUsernames: string[];
  /** Logged HL7 messages (an order from a sender no profile owns, refused and kept), for the message log's routes. */
  hl7MessageIds: string[];
  /** An invoice issued with a month's statement. */
  invoiceIds: string[];
  /** The client that invoice was issued to, which the receivables routes read. */
  billingClientId: string;
  /** A payment of that client's, not yet allocated. */
  paymentIds: string[];
  /** The one-time link of that invoice, e-mailed once its client's profile asked for links. */
  invoiceTokens: string[];
};

const base = "/api/continuous-monitoring";

export async function buildFuzzWorld(harness: TestApp): Promise<FuzzWorld> {
  const team = await teamFor(harness, "fz");
  const adminToken = await harness.tokenFor("fz-root", ["admin"]);
  const noGroupsToken = await harness.tokenFor("fz-nobody", []);
  // The longest username the contract allows (128 characters, not all ASCII) travels in paths too.
  const longest = `fz-long-${"ü".repeat(120)}`;
  const targetUsernames = ["fz-target", "fz-target-reviewer", longest];
  await harness.addUser("fz-target", []);
  await harness.addUser("fz-target-reviewer", ["reviewer"]);
  await harness.addUser(longest, []);

  const client = await createClient(team.admin);
  const spare = await createClient(team.admin, { protocol: false });
  const contact = await team.admin("POST", `/clients/${client.id}/contacts`, {
    body: { name: "Charge nurse", role: "Nurse", email: "nurse@example.org", phone: "+13125550111" },
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const link = await team.admin("POST", `/clients/${client.id}/useful-links`, {
    body: { title: "PACS", url: "https://pacs.example.org/", description: "Images" },
  });
  expect(link.statusCode, link.body).toBe(201);

  const cases = {} as Record<CaseStage, string>;
  const assignmentIds: string[] = [];
  for (const stage of caseStages) {
    const opened = await caseIn(harness, team, client.id, stage);
    cases[stage] = opened.id;
    assignmentIds.push(...opened.technologists.map((assignment) => assignment.id));
  }

  const items = {} as Record<RecordKind, { id: string; itemId: string }[]>;
  for (const kind of recordKinds) {
    const caseId = cases[writableStage[kind]];
    const created = await createItem(team[writerGroup[kind]], kind, caseId);
    items[kind] = [{ id: caseId, itemId: created.id }];
  }
  // A second case note, in another stage, so list and history calls see more than one shape of case.
  const preview = cases.preview;
  const note = await createItem(team.reviewer, "case-note", preview, sampleCaseNote({ category: "issue" }));
  items["case-note"].push({ id: preview, itemId: note.id });

  // Re-opening a closed case waits for an administrator: a pending transition to approve, reject or cancel.
  const reopen = await team.billing("POST", `/cases/${cases.closed}/transitions`, {
    body: { to: "reviewed", reason: "A late time log was found" },
  });
  expect(reopen.statusCode, reopen.body).toBe(201);
  const transitionId: string = reopen.json().data.transition.id;

  const bug = await team.technologist("POST", "/api/bugs/reports", {
    body: {
      title: "The chart does not redraw",
      description: "After saving a check the chart keeps the old values.",
      severity: "medium",
      context: {
        pageUrl: "http://vigil.test/#/",
        userAgent: "Mozilla/5.0",
        screen: { width: 1920, height: 1080 },
        appVersion: { enoch: "test-release", buildId: null },
      },
    },
  });
  expect(bug.statusCode, bug.body).toBe(201);

  // Open findings, each acknowledged or cancelled once by the fuzzer at most: several, so every handling route and
  // both link calls meet an open one. Their links are signed as the sender would (they are never stored).
  const findings: FuzzWorld["findings"] = { acknowledgement: [], cancellation: [] };
  const findingTokens: string[] = [];
  for (const use of ["acknowledgement", "cancellation", "link"] as const) {
    for (let count = 0; count < 3; count += 1) {
      const raised = await team.technologist("POST", `${base}/cases/${cases.monitoring}/critical-findings`, {
        body: { kind: "electrographic-seizure", onsetAt: new Date().toISOString(), description: "Evolving 3 Hz." },
      });
      expect(raised.statusCode, raised.body).toBe(201);
      const finding: CriticalFinding = raised.json().data;
      if (use !== "link") findings[use].push({ id: cases.monitoring, findingId: finding.id });
      else {
        for (const recipient of finding.recipients) {
          const expiresAt = new Date(recipient.linkExpiresAt);
          findingTokens.push(signLinkToken(harness.app.findings.linkSecret, { recipientId: recipient.id, expiresAt }));
        }
      }
    }
  }

  // The client's protocol names its contact as a report recipient; a signed report then holds a delivered link.
  const contactId: string = contact.json().data._id;
  const named = await team.admin("POST", `${base}/clients/${client.id}/protocol/revisions`, {
    body: sampleProtocol({ baseRevision: 1, reportRecipients: { contactIds: [contactId] } }),
  });
  expect(named.statusCode, named.body).toBe(201);
  const signed = await signedCase(harness, team, client.id);
  const reportList = await team.admin("GET", `${base}/cases/${signed.caseId}/reports`);
  expect(reportList.statusCode, reportList.body).toBe(200);
  const reports = (reportList.json().data.items as { id: string }[]).map((item) => ({
    id: signed.caseId,
    reportId: item.id,
  }));
  const reportTokens = await reportTokensFor(harness, "nurse@example.org");

  return {
    team,
    adminToken,
    noGroupsToken,
    clientIds: [client.id, spare.id],
    contacts: [{ id: client.id, contactId: contact.json().data._id }],
    links: [{ id: client.id, linkId: link.json().data._id }],
    cases,
    items,
    transitions: [{ id: cases.closed, transitionId }],
    assignmentIds,
    bugIds: [bug.json().data.id],
    findings,
    findingTokens,
    reports,
    reportTokens,
    reportContactIds: [contactId],
    targetUsernames,
    hl7MessageIds: await loggedHl7Messages(harness),
    ...(await issuedInvoices(harness, team)),
  };
}

/**
 * A month with a rate and logged time, its statement issued: the invoice the invoice routes read; and a payment
 * received from that client, left unallocated, for the payment routes.
 */
async function issuedInvoices(
  harness: TestApp,
  team: Team,
): Promise<Pick<FuzzWorld, "invoiceIds" | "billingClientId" | "paymentIds" | "invoiceTokens">> {
  const client = await clientIn(team, "UTC", "Fuzz Billing Client");
  // A billing contact, so sending the invoice can succeed.
  const contact = await team.coordinator("POST", `/clients/${client.id}/contacts`, {
    body: { name: "Fuzz Payable", email: "ap@fuzz.example", phone: null },
  });
  const profile = await team.billing("PUT", `/api/billing/clients/${client.id}/profile`, {
    body: {
      legalName: null,
      poNumber: null,
      paymentTermsDays: 30,
      taxRatePercent: null,
      showPatientNames: false,
      billingContactIds: [contact.json().data._id],
      baseVersion: null,
    },
  });
  expect(profile.statusCode, profile.body).toBe(200);
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T11:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  const issued = await issueStatement(team.billing, client.id, "2026-06");
  expect(issued.statusCode, issued.body).toBe(201);
  // Several, since a reversal leaves a payment with nothing to allocate or refund (the path parameters keep two
  // for reversals); small, so that the invoice stays open for a write-off after credit is applied to it.
  const paymentIds: string[] = [];
  for (const reference of ["FZ-1", "FZ-2", "FZ-3", "FZ-4"]) {
    const payment = await team.billing("POST", "/api/billing/payments", {
      body: { clientId: client.id, receivedOn: "2026-07-01", amount: "10.00", method: "check", reference },
    });
    expect(payment.statusCode, payment.body).toBe(201);
    paymentIds.push(payment.json().data.id);
  }
  const invoiceId: string = issued.json().data.invoice.id;
  return {
    invoiceIds: [invoiceId],
    billingClientId: client.id,
    paymentIds,
    invoiceTokens: await invoiceLink(harness, team, client.id, invoiceId),
  };
}

/** The invoice e-mailed as a one-time link (its client's profile switched to links), so the link's download can succeed. */
async function invoiceLink(harness: TestApp, team: Team, clientId: string, invoiceId: string): Promise<string[]> {
  const profilePath = `/api/billing/clients/${clientId}/profile`;
  const { clientId: _, version, ...profile } = (await team.billing("GET", profilePath)).json().data;
  const linked = await team.billing("PUT", profilePath, {
    body: { ...profile, invoiceDelivery: "link", baseVersion: version },
  });
  expect(linked.statusCode, linked.body).toBe(200);
  const sending = await team.billing("POST", `/api/billing/invoices/${invoiceId}/sendings`, { body: {} });
  expect(sending.statusCode, sending.body).toBe(201);
  await deliverInvoiceSending(
    harness.database.db,
    { messages: harness.app.messages, publicUrl: "http://localhost", linkHours: 72 },
    sending.json().data.id,
    { final: true },
  );
  const messages = await harness.app.messages.listOutbox({ recipient: "ap@fuzz.example" });
  return messages.flatMap((message) =>
    [...message.body.matchAll(/#\/invoice\/([A-Za-z0-9._-]+)/g)].map((match) => match[1] ?? ""),
  );
}

async function loggedHl7Messages(harness: TestApp): Promise<string[]> {
  const text = [
    "MSH|^~\\&|EPIC|FUZZ|VIGIL|VIGIL|20261129060000||ORM^O01|FUZZ-1|P|2.5.1",
    "PID|1||FZ-1^^^FUZZ^MR||Fuzz^Pat||19700101|F",
    "ORC|NW|FZ-ORDER-1",
  ].join("\r");
  await receiveHl7Message(harness.database.db, text, { address: "127.0.0.1" });
  const rows = await harness.database.db
    .select({ id: hl7Messages.id })
    .from(hl7Messages)
    .where(eq(hl7Messages.controlId, "FUZZ-1"));
  expect(rows).toHaveLength(1);
  return rows.map((row) => row.id);
}

/** Stands for "the version the resource has right now", looked up just before the request is sent. */
export const currentVersion = "\u0000current-version\u0000";

function mostly<T>(values: readonly T[]) {
  return (schemaArbitrary: fc.Arbitrary<unknown>) =>
    values.length === 0
      ? schemaArbitrary
      : fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...values) }, { weight: 1, arbitrary: schemaArbitrary });
}

/** Months near now (where the time is), and the calendar's edges (0000-01, 9999-12…), which must be clean 400s. */
function monthsAround(now: Date): string[] {
  const near = [-2, -1, 0, 1].map((offset) => {
    const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    return date.toISOString().slice(0, 7);
  });
  return [...near, ...near, "0000-01", "9999-12", "1899-12", "2201-01"];
}

/**
 * Realistic values by field name: ids that exist, real zones and months, the version the resource has now. In path
 * parameters a username names an existing user; in bodies (creating a user) a new one.
 */
export function hintsFor(world: FuzzWorld): { params: Hints; input: Hints } {
  const shared = sharedHints(world);
  const freshUsername = fc
    .tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{2,20}$/), fc.nat())
    .map(([name, tag]) => `${name}${tag}`);
  return {
    params: shared,
    input: {
      ...shared,
      username: (schemaArbitrary) => fc.oneof({ weight: 4, arbitrary: freshUsername }, schemaArbitrary),
    },
  };
}

function sharedHints(world: FuzzWorld): Hints {
  const caseIds = Object.values(world.cases);
  const team = world.team;
  return {
    clientId: mostly([...world.clientIds, world.billingClientId]),
    invoiceId: mostly(world.invoiceIds),
    // A user's professional details: CMS's worked example of a valid NPI.
    npi: mostly(["1234567893", null]),
    client: mostly(world.clientIds),
    caseId: mostly(caseIds),
    technologistId: mostly([team.technologist.sub, team.technologist2.sub]),
    reviewerId: mostly([team.reviewer.sub, team.reviewer2.sub]),
    assignmentId: mostly(world.assignmentIds),
    contactId: mostly(world.contacts.map((contact) => contact.contactId)),
    username: mostly(world.targetUsernames),
    technologist: mostly([team.technologist.username]),
    timezone: mostly(["UTC", "America/Chicago", "Europe/Paris", "Asia/Kolkata", "Australia/Lord_Howe"]),
    month: mostly(monthsAround(new Date())),
    path: mostly([
      "/",
      `/continuous-monitoring/clients/${world.clientIds[0]}`,
      `/continuous-monitoring/cases/monitoring/${world.cases.monitoring}`,
      `/continuous-monitoring/cases/closed/${world.cases.closed}/interpretations`,
      "/admin/users/fz-target",
      "/billing/continuous-monitoring",
    ]),
    // Booleans in query strings (z.stringbool) have no JSON Schema form beyond "string".
    enabled: (schemaArbitrary, schema) =>
      schema.type === "string" ? mostly(["true", "false", "yes", "0"])(schemaArbitrary) : schemaArbitrary,
    // A critical finding's link, and a phone acknowledgement's time (after the world's findings were raised).
    // Any kind of one-time link: a critical finding's, a report's, an invoice's.
    token: mostly([...world.findingTokens, ...world.reportTokens, ...world.invoiceTokens]),
    // A report re-sent to the client's own contact.
    contactIds: mostly([world.reportContactIds]),
    acknowledgedAt: mostly([new Date().toISOString()]),
    baseRevision: mostly([currentVersion]),
    baseVersion: mostly([currentVersion]),
    version: mostly([currentVersion]),
    // A hospital system's registration: one key source (a JWKS address, no pasted set) and SMART v2 system scopes.
    jwksUrl: mostly(["https://ehr.example.org/.well-known/jwks.json"]),
    jwks: mostly([null]),
    // Payments: amounts of money and days around the world's invoices.
    amount: mostly(["100.00", "0.01", "600", "999999999999.99"]),
    receivedOn: mostly(["2026-01-15", "2026-06-30"]),
    reversedOn: mostly(["2026-07-01"]),
    refundedOn: mostly(["2026-07-01"]),
    writtenOffOn: mostly(["2026-12-31"]),
    asOf: mostly(["2026-06-30", "2027-01-31"]),
    scopes: mostly([["system/Patient.rs"], ["system/DiagnosticReport.rs", "system/ServiceRequest.c"]]),
    // FHIR push: the hospital's FHIR base, its token endpoint found there.
    baseUrl: mostly(["https://ehr.example.org/fhir"]),
    tokenUrl: mostly([null]),
  };
}

/** Path parameters that name things that exist, for the route's path. Empty when the route has none to offer. */
export function realParamSets(definition: RouteDefinition, world: FuzzWorld): Record<string, string>[] {
  const path = definition.path;
  const caseIds = Object.values(world.cases);
  const kind = recordKinds.find((candidate) => path.includes(`/${segmentOf(candidate)}`));
  if (path.includes(":itemId")) return kind ? world.items[kind] : [];
  if (kind) {
    // Mostly the case in the stage where the kind may be written, so that writes reach the service's checks.
    const writable = world.cases[writableStage[kind]];
    return [writable, writable, writable, ...caseIds].map((id) => ({ id }));
  }
  if (path.includes(":transitionId")) return world.transitions;
  if (path.includes(":reportId")) return world.reports;
  if (path.includes(":findingId")) {
    return path.endsWith("/cancellation") ? world.findings.cancellation : world.findings.acknowledgement;
  }
  if (path.includes(":contactId")) {
    return path.includes("/clients/:id/")
      ? world.contacts
      : world.contacts.map((contact) => ({ contactId: contact.contactId }));
  }
  if (path.includes(":linkId")) return world.links;
  if (path.includes(":username")) return world.targetUsernames.map((username) => ({ username }));
  if (path.includes(":client/:month")) {
    return world.clientIds.flatMap((client) => monthsAround(new Date()).map((month) => ({ client, month })));
  }
  if (path.includes(":client/")) {
    return [world.billingClientId, ...world.clientIds].map((client) => ({ client }));
  }
  if (path.startsWith(`${base}/clients/:id`)) return world.clientIds.map((id) => ({ id }));
  if (path.startsWith(`${base}/cases/`) && path.includes(":id")) return caseIds.map((id) => ({ id }));
  if (path.startsWith("/api/bugs/reports/:id")) return world.bugIds.map((id) => ({ id }));
  if (path.startsWith("/api/interfaces/hl7/messages/:id")) return world.hl7MessageIds.map((id) => ({ id }));
  if (path.startsWith("/api/billing/invoices/:id")) return world.invoiceIds.map((id) => ({ id }));
  if (path.startsWith("/api/billing/payments/:id")) {
    const [first, second, ...rest] = world.paymentIds;
    const reversible = path.endsWith("/reversal") ? [first, second] : rest;
    return reversible.filter((id): id is string => id !== undefined).map((id) => ({ id }));
  }
  return [];
}

function segmentOf(kind: RecordKind): string {
  return {
    interpretation: "interpretations",
    impedance: "impedances",
    event: "events",
    "time-log": "time-logs",
    "case-note": "case-notes",
    "billing-note": "billing-notes",
  }[kind];
}

type Get = (url: string) => Promise<{ statusCode: number; headers: Record<string, unknown>; json: () => unknown }>;

/**
 * The version `routeName` would have to name right now (a case's version, an item's revision, a client's version, a
 * user's ETag…), read with a GET just before the write, so "valid" writes are not all stale. Undefined when the
 * resource cannot be read (a random id): the request then goes out with version 1.
 */
export async function currentVersionOf(
  routeName: string,
  definition: RouteDefinition,
  url: string,
  params: Record<string, unknown>,
  get: Get,
): Promise<{ etag?: string; version?: number }> {
  const read = async (target: string) => {
    const response = await get(target);
    if (response.statusCode !== 200) return undefined;
    const etag = typeof response.headers.etag === "string" ? response.headers.etag : undefined;
    return { etag, data: (response.json() as { data: Record<string, unknown> }).data };
  };
  const path = url.split("?")[0] as string;
  if (definition.method === "POST" && definition.path.endsWith("/:itemId/revisions")) {
    const found = await read(path);
    return { version: (found?.data.item as { revision?: number } | undefined)?.revision };
  }
  switch (routeName) {
    case "createProtocolRevision": {
      const found = await read(path.replace(/\/revisions$/, ""));
      return { version: (found?.data.current as { revision?: number } | null | undefined)?.revision };
    }
    case "updateCase":
    case "takeCaseAction":
    case "requestTransition": {
      const found = await read(path.replace(/\/(actions|transitions)$/, ""));
      return { etag: found?.etag, version: found?.data.version as number | undefined };
    }
    case "updatePatientDetails": {
      const found = await read(path);
      return { etag: found?.etag, version: (found?.data.current as { revision?: number } | undefined)?.revision };
    }
    case "updateClient": {
      const found = await read(path);
      return { version: found?.data.version as number | undefined };
    }
    case "updateContact": {
      const found = await read(`${base}/contacts/${path.split("/").pop()}`);
      return { version: found?.data.version as number | undefined };
    }
    case "updateUsefulLink": {
      const response = await get(path.replace(/\/[^/]*$/, ""));
      if (response.statusCode !== 200) return {};
      const links = (response.json() as { data: { _id: string; version: number }[] }).data;
      return { version: links.find((link) => link._id === params.linkId)?.version };
    }
    case "setUserAccessGroups":
    case "toggleUser":
    case "setUserSmsMfa":
    case "setUserContact":
      return { etag: (await read(path.replace(/\/(access-groups|toggle|sms-mfa|contact)$/, "")))?.etag };
    case "changeBugStatus":
      return { etag: (await read(path))?.etag };
    case "issueBillingStatement":
      return { etag: (await read(path.replace(/\/statement$/, "")))?.etag };
    case "setBillingRate": {
      const found = await read(path.replace(/\/rate$/, ""));
      return { version: (found?.data.ownRate as { version?: number } | null | undefined)?.version };
    }
  }
  return {};
}

const orderedPairs = [
  ["periodFrom", "periodTo"],
  ["startedAt", "endedAt"],
  ["notifiedAt", "acknowledgedAt"],
  ["from", "to"],
  ["createdFrom", "createdTo"],
] as const;

function later(a: string, b: string): boolean {
  const [first, second] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(first) || Number.isNaN(second) ? a > b : first > second;
}

/**
 * Makes a generated value satisfy the contract's refinements that JSON Schema cannot say (a period in order, each
 * electrode once, unique form keys, a notification event with its notification), so most "valid" requests are
 * valid indeed and reach the services. Applied to most valid requests, not all: the refusals matter too.
 */
export function satisfyRefinements(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(satisfyRefinements);
    for (const key of ["electrode", "key"]) {
      if (items.every((item) => item !== null && typeof item === "object" && key in item)) {
        const seen = new Set<unknown>();
        return items.filter((item) => {
          const id = (item as Record<string, unknown>)[key];
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
      }
    }
    return items;
  }
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = satisfyRefinements(item);
  for (const [start, end] of orderedPairs) {
    const [a, b] = [copy[start], copy[end]];
    if (typeof a === "string" && typeof b === "string" && later(a, b)) [copy[start], copy[end]] = [b, a];
  }
  if (copy.type === "notification" && !copy.notification) copy.type = "clinical";
  if (copy.type === "skin-check" && !copy.skinCheck) copy.type = "other";
  if (copy.notifyOnCritical === true && !copy.phone && !copy.email) copy.notifyOnCritical = false;
  return copy;
}
