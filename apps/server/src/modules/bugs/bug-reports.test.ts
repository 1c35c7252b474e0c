import type { AccessGroup, BugReport, BugReportSummary, CreateBugReportRequest } from "@vigil/contract";
import { and, asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents } from "../../db/schema.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

const reports = "/api/bugs/reports";
const unknownId = "00000000-0000-4000-8000-000000000000";

type Caller = (
  method: "GET" | "POST" | "PATCH",
  url: string,
  options?: { body?: unknown; ifMatch?: string | number },
) => Promise<LightMyRequestResponse>;

let harness: TestApp;
let technologist: Caller;
let newcomer: Caller;
let developer: Caller;
let admin: Caller;

async function callerFor(username: string, groups: AccessGroup[]): Promise<Caller> {
  const token = await harness.tokenFor(username, groups);
  return (method, url, options = {}) =>
    harness.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(options.ifMatch === undefined ? {} : { "if-match": String(options.ifMatch) }),
      },
      ...(options.body === undefined ? {} : { payload: options.body as object }),
    });
}

beforeAll(async () => {
  harness = await createTestApp();
  technologist = await callerFor("bugs-technologist", ["technologist"]);
  newcomer = await callerFor("bugs-newcomer", []);
  developer = await callerFor("bugs-developer", ["developer"]);
  admin = await callerFor("Bugs-Admin", ["admin"]);
});
afterAll(() => harness.close());

function sampleReport(overrides: Partial<CreateBugReportRequest> = {}): CreateBugReportRequest {
  return {
    title: "The impedance chart does not redraw",
    description: "After saving an impedance check the chart keeps the old values.",
    stepsToReproduce: "1. Open a case\n2. Add an impedance check",
    severity: "medium",
    context: {
      pageUrl: "http://vigil.test/#/continuous-monitoring/cases/123/impedances",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130",
      screen: { width: 1920, height: 1080, devicePixelRatio: 1 },
      viewport: { width: 1366, height: 900 },
      appVersion: { enoch: "test-release", buildId: "build-42" },
    },
    ...overrides,
  };
}

async function file(caller: Caller, overrides: Partial<CreateBugReportRequest> = {}): Promise<BugReport> {
  const response = await caller("POST", reports, { body: sampleReport(overrides) });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data;
}

function withPage(pageUrl: string): Partial<CreateBugReportRequest> {
  return { context: { ...sampleReport().context, pageUrl } };
}

async function auditRows(action: string, targetId: string) {
  return harness.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.targetId, targetId)))
    .orderBy(asc(auditEvents.at));
}

async function list(query: string): Promise<{ items: BugReportSummary[]; total: number }> {
  const response = await developer("GET", `${reports}?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

const numbersOf = (page: { items: BugReportSummary[] }) => page.items.map((item) => item.number);

describe("filing a bug report", () => {
  it("files a technologist's report with a BUG number, the captured context and a first history event", async () => {
    const response = await technologist("POST", reports, { body: sampleReport({ title: "  Chart stuck  " }) });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers.etag).toBe('"1"');
    const report: BugReport = response.json().data;
    expect(report).toMatchObject({
      title: "Chart stuck",
      severity: "medium",
      status: "open",
      version: 1,
      reporter: { username: "bugs-technologist", name: "bugs-technologist Tester" },
      pageUrl: sampleReport().context.pageUrl,
      context: sampleReport().context,
      stepsToReproduce: "1. Open a case\n2. Add an impedance check",
    });
    expect(report.number).toMatch(/^BUG-\d+$/);
    expect(report.reporter.sub).toMatch(/^[0-9a-f-]{36}$/);
    expect(report.history).toEqual([
      {
        id: expect.any(String),
        at: report.createdAt,
        by: report.reporter,
        fromStatus: null,
        toStatus: "open",
        comment: "Filed",
      },
    ]);
  });

  it("records bug.report in the audit log in the same transaction, without the report's words", async () => {
    const report = await file(technologist, { title: "Patient Jane Doe's chart", severity: "high" });
    const [row] = await auditRows("bug.report", report.id);
    expect(row).toMatchObject({
      outcome: "success",
      actorUsername: "bugs-technologist",
      targetType: "bug-report",
      details: { number: report.number, severity: "high", pageUrl: report.pageUrl },
    });
    // now() is the transaction's start: the same instant means the same transaction.
    expect(row?.at.toISOString()).toBe(report.createdAt);
    expect(JSON.stringify(row?.details)).not.toContain("Jane Doe");
  });

  it("lets a user without groups file a report", async () => {
    const report = await file(newcomer, { title: "I see no menu after signing in" });
    expect(report.reporter.username).toBe("bugs-newcomer");
    expect(report.status).toBe("open");
  });

  it("numbers reports in filing order", async () => {
    const first = await file(technologist);
    const second = await file(newcomer);
    const numberOf = (report: BugReport) => Number(report.number.slice("BUG-".length));
    expect(numberOf(second)).toBeGreaterThan(numberOf(first));
  });

  it("keeps the steps empty when none are given", async () => {
    const { stepsToReproduce: _omitted, ...withoutSteps } = sampleReport();
    const response = await technologist("POST", reports, { body: withoutSteps });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.stepsToReproduce).toBe("");
  });

  it("answers 400 naming each missing field, and files nothing", async () => {
    const response = await technologist("POST", reports, {
      body: { ...sampleReport(), title: " ", context: { ...sampleReport().context, pageUrl: "" } },
    });
    expect(response.statusCode).toBe(400);
    const paths = response.json().error.details.issues.map((issue: { path: string }) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["body.title", "body.context.pageUrl"]));
  });
});

describe("listing bug reports", () => {
  // Reports of one reporter, so the other tests' reports do not count here.
  let lister: Caller;
  const filed: BugReport[] = [];
  const mine = "reporter=bugs-lister";

  beforeAll(async () => {
    lister = await callerFor("bugs-lister", ["coordinator"]);
    const bodies: Partial<CreateBugReportRequest>[] = [
      { title: "Login button misaligned", severity: "low", ...withPage("http://vigil.test/#/signin") },
      { title: "Billing statement shows 100% twice", severity: "critical" },
      { title: "Case list slow", severity: "high", description: "The queue_name column takes seconds to sort." },
      { title: "Typo on the reporting page", severity: "low", ...withPage("http://vigil.test/#/reporting/monthly") },
      { title: "Interpretation lost on save", severity: "critical" },
    ];
    for (const body of bodies) filed.push(await file(lister, body));
  });

  const numberOfIndex = (index: number) => filed[index]?.number;

  it("lists a reporter's reports newest first with the total, page by page", async () => {
    const first = await list(`${mine}&limit=2&offset=0`);
    expect(first.total).toBe(5);
    expect(numbersOf(first)).toEqual([numberOfIndex(4), numberOfIndex(3)]);
    const last = await list(`${mine}&limit=2&offset=4`);
    expect(last.total).toBe(5);
    expect(numbersOf(last)).toEqual([numberOfIndex(0)]);
    const beyond = await list(`${mine}&limit=2&offset=10`);
    expect(beyond).toMatchObject({ items: [], total: 5 });
  });

  it("answers summaries: no description, steps, context or history", async () => {
    const [item] = (await list(`${mine}&limit=1`)).items;
    expect(item).toMatchObject({ number: numberOfIndex(4), reporter: { username: "bugs-lister" }, version: 1 });
    expect(item).not.toHaveProperty("description");
    expect(item).not.toHaveProperty("context");
    expect(item).not.toHaveProperty("history");
  });

  it("finds the reporter whatever the case of the name", async () => {
    expect((await list("reporter=BUGS-Lister")).total).toBe(5);
    expect((await list("reporter=bugs-list")).total).toBe(0);
  });

  it("filters by severity and by status", async () => {
    expect(numbersOf(await list(`${mine}&severity=critical`))).toEqual([numberOfIndex(4), numberOfIndex(1)]);
    const moved = filed[2] as BugReport;
    const patched = await developer("PATCH", `${reports}/${moved.id}`, {
      ifMatch: 1,
      body: { status: "triaged", comment: "Seen it" },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(numbersOf(await list(`${mine}&status=triaged`))).toEqual([moved.number]);
    expect((await list(`${mine}&status=open`)).total).toBe(4);
    expect((await list(`${mine}&status=open&severity=low`)).total).toBe(2);
  });

  it("finds a report by its number, written BUG-12, bug12 or 12", async () => {
    const target = filed[1] as BugReport;
    const digits = target.number.slice("BUG-".length);
    for (const search of [target.number, target.number.toLowerCase().replace("-", ""), digits]) {
      const page = await list(`${mine}&search=${encodeURIComponent(search)}`);
      expect(numbersOf(page), search).toContain(target.number);
    }
    expect(numbersOf(await list(`search=${encodeURIComponent(target.number)}`))).toEqual([target.number]);
  });

  it("finds words in the title, description and page address, whatever their case", async () => {
    expect(numbersOf(await list(`${mine}&search=MISALIGNED`))).toEqual([numberOfIndex(0)]);
    expect(numbersOf(await list(`${mine}&search=seconds`))).toEqual([numberOfIndex(2)]);
    expect(numbersOf(await list(`${mine}&search=${encodeURIComponent("#/reporting")}`))).toEqual([numberOfIndex(3)]);
    // Every word must match somewhere.
    expect(numbersOf(await list(`${mine}&search=${encodeURIComponent("typo monthly")}`))).toEqual([numberOfIndex(3)]);
    expect((await list(`${mine}&search=${encodeURIComponent("typo billing")}`)).total).toBe(0);
  });

  it("treats % and _ in the search as the characters themselves", async () => {
    expect(numbersOf(await list(`${mine}&search=${encodeURIComponent("100%")}`))).toEqual([numberOfIndex(1)]);
    expect(numbersOf(await list(`${mine}&search=${encodeURIComponent("queue_name")}`))).toEqual([numberOfIndex(2)]);
    expect((await list(`${mine}&search=${encodeURIComponent("%")}`)).total).toBe(1);
    expect((await list(`${mine}&search=_`)).total).toBe(1);
  });

  it("sorts oldest first, by severity with critical first, and by last change", async () => {
    expect(numbersOf(await list(`${mine}&sort=oldest`))).toEqual(filed.map((report) => report.number));
    expect(numbersOf(await list(`${mine}&sort=severity`))).toEqual(
      [4, 1, 2, 3, 0].map((index) => numberOfIndex(index)),
    );
    const touched = filed[0] as BugReport;
    const current = await developer("GET", `${reports}/${touched.id}`);
    const patched = await developer("PATCH", `${reports}/${touched.id}`, {
      ifMatch: current.json().data.version,
      body: { status: "in-progress", comment: "Looking" },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(numbersOf(await list(`${mine}&sort=updated&limit=1`))).toEqual([touched.number]);
  });

  it("answers 400 for an unknown sort or status", async () => {
    expect((await developer("GET", `${reports}?sort=random`)).statusCode).toBe(400);
    expect((await developer("GET", `${reports}?status=done`)).statusCode).toBe(400);
  });
});

describe("reading a bug report", () => {
  it("returns the report with its context, its history oldest first and its version as ETag", async () => {
    const report = await file(technologist);
    await developer("PATCH", `${reports}/${report.id}`, { ifMatch: 1, body: { status: "triaged", comment: "One" } });
    await developer("PATCH", `${reports}/${report.id}`, { ifMatch: 2, body: { status: "fixed", comment: "Two" } });
    const response = await admin("GET", `${reports}/${report.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"3"');
    const read: BugReport = response.json().data;
    expect(read.context).toEqual(sampleReport().context);
    expect(read.history.map((event) => [event.fromStatus, event.toStatus, event.comment])).toEqual([
      [null, "open", "Filed"],
      ["open", "triaged", "One"],
      ["triaged", "fixed", "Two"],
    ]);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    const missing = await developer("GET", `${reports}/${unknownId}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toContain(unknownId);
    expect((await developer("GET", `${reports}/not-an-id`)).statusCode).toBe(400);
  });
});

describe("triaging a bug report", () => {
  it("moves the report with If-Match, grows its history, bumps its version and audits from and to", async () => {
    const report = await file(technologist);
    const response = await developer("PATCH", `${reports}/${report.id}`, {
      ifMatch: '"1"',
      body: { status: "triaged", comment: "Reproduced on Chrome 130" },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"2"');
    const moved: BugReport = response.json().data;
    expect(moved).toMatchObject({ status: "triaged", version: 2 });
    expect(Date.parse(moved.updatedAt)).toBeGreaterThan(Date.parse(report.updatedAt));
    expect(moved.history).toHaveLength(2);
    expect(moved.history[1]).toMatchObject({
      at: moved.updatedAt,
      by: { username: "bugs-developer", name: "bugs-developer Tester" },
      fromStatus: "open",
      toStatus: "triaged",
      comment: "Reproduced on Chrome 130",
    });
    const [row] = await auditRows("bug.status-change", report.id);
    expect(row).toMatchObject({
      outcome: "success",
      actorUsername: "bugs-developer",
      targetType: "bug-report",
      details: { number: report.number, from: "open", to: "triaged", version: 2 },
    });
    expect(row?.at.toISOString()).toBe(moved.updatedAt);
  });

  it("answers 428 without If-Match and changes nothing", async () => {
    const report = await file(technologist);
    const response = await developer("PATCH", `${reports}/${report.id}`, {
      body: { status: "triaged", comment: "No version" },
    });
    expect(response.statusCode).toBe(428);
    expect(response.json().error.code).toBe("precondition_required");
    const read: BugReport = (await developer("GET", `${reports}/${report.id}`)).json().data;
    expect(read).toMatchObject({ status: "open", version: 1 });
    expect(read.history).toHaveLength(1);
  });

  it("answers 412 with the current report when the version is stale, and changes nothing", async () => {
    const report = await file(technologist);
    const first = await developer("PATCH", `${reports}/${report.id}`, {
      ifMatch: 1,
      body: { status: "triaged", comment: "First" },
    });
    expect(first.statusCode).toBe(200);
    const second = await admin("PATCH", `${reports}/${report.id}`, {
      ifMatch: 1,
      body: { status: "wont-fix", comment: "Second, on an old read" },
    });
    expect(second.statusCode).toBe(412);
    expect(second.headers.etag).toBe('"2"');
    const error = second.json().error;
    expect(error.details.currentVersion).toBe(2);
    expect(error.details.current).toMatchObject({ id: report.id, status: "triaged", version: 2 });
    expect(error.details.current.history).toHaveLength(2);
    expect(await auditRows("bug.status-change", report.id)).toHaveLength(1);
  });

  it("lets only one of two triagers who read the same version move the report", async () => {
    const report = await file(technologist);
    const answers = await Promise.all([
      developer("PATCH", `${reports}/${report.id}`, { ifMatch: 1, body: { status: "triaged", comment: "A" } }),
      admin("PATCH", `${reports}/${report.id}`, { ifMatch: 1, body: { status: "closed", comment: "B" } }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 412]);
    const read: BugReport = (await developer("GET", `${reports}/${report.id}`)).json().data;
    expect(read.history).toHaveLength(2);
    expect(read.version).toBe(2);
  });

  it("answers 409 when the report already has that status, and writes nothing", async () => {
    const report = await file(technologist);
    const response = await developer("PATCH", `${reports}/${report.id}`, {
      ifMatch: 1,
      body: { status: "open", comment: "Still open" },
    });
    expect(response.statusCode).toBe(409);
    const error = response.json().error;
    expect(error.code).toBe("conflict");
    expect(error.message).toBe(`${report.number} is already Open; nothing to change. Choose another status.`);
    expect(await auditRows("bug.status-change", report.id)).toEqual([]);
    expect((await developer("GET", `${reports}/${report.id}`)).json().data.version).toBe(1);
  });

  it("answers 404 for an unknown report and 400 without a comment", async () => {
    const missing = await developer("PATCH", `${reports}/${unknownId}`, {
      ifMatch: 1,
      body: { status: "closed", comment: "Gone" },
    });
    expect(missing.statusCode).toBe(404);
    const report = await file(technologist);
    const noComment = await developer("PATCH", `${reports}/${report.id}`, {
      ifMatch: 1,
      body: { status: "closed", comment: "  " },
    });
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().error.details.issues[0].path).toBe("body.comment");
  });
});

describe("who may see and triage reports", () => {
  // Users may paste patient details into a report, so only triagers read them, not everyone who may file.
  it("refuses a technologist the list, a report and a status change (403)", async () => {
    const report = await file(technologist);
    for (const response of [
      await technologist("GET", reports),
      await technologist("GET", `${reports}/${report.id}`),
      await technologist("PATCH", `${reports}/${report.id}`, { ifMatch: 1, body: { status: "closed", comment: "x" } }),
      await newcomer("GET", reports),
    ]) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error.message).toBe("Access denied");
    }
    expect((await developer("GET", `${reports}/${report.id}`)).json().data.status).toBe("open");
  });

  it("lets developers and administrators list reports", async () => {
    expect((await developer("GET", reports)).statusCode).toBe(200);
    expect((await admin("GET", reports)).statusCode).toBe(200);
  });
});
