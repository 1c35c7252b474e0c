import { spawnSync } from "node:child_process";
import type { Case } from "@vigil/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import { type Caller, callerFor } from "../testing/kits/caller-kit.js";
import { createClient, openCase, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { openEventStreamAs } from "../testing/kits/event-stream-kit.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

const token = "metrics-token-0123456789abcdef0123456789abcdef";
const scraper = { authorization: `Bearer ${token}` };

/** A patient whose every identifier is distinctive, so a label holding any of them is found. */
const patient = { mrn: "MRN-4417-ZQ", firstName: "Ottoline", lastName: "Quarrington" };

let harness: TestApp;
let team: Team;
let admin: Caller;
let openedCase: Case;

async function scrape(): Promise<string> {
  const response = await harness.app.inject({ method: "GET", url: "/metrics", headers: scraper });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
}

/** Every label value of every sample line, with the line it came from. */
function labelValues(text: string): { value: string; line: string }[] {
  const values: { value: string; line: string }[] = [];
  for (const line of text.split("\n")) {
    if (line.startsWith("#") || !line.includes("{")) continue;
    const labels = line.slice(line.indexOf("{") + 1, line.lastIndexOf("}"));
    for (const match of labels.matchAll(/[a-zA-Z_][a-zA-Z0-9_]*="((?:[^"\\]|\\.)*)"/g)) {
      values.push({ value: match[1] as string, line });
    }
  }
  return values;
}

function sample(text: string, name: string, labels: string): number | undefined {
  const head = labels === "" ? `${name} ` : `${name}{${labels}} `;
  const line = text.split("\n").find((candidate) => candidate.startsWith(head));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
}

beforeAll(async () => {
  harness = await createTestApp({ METRICS_TOKEN: token });
  team = await teamFor(harness, "metrics");
  admin = await callerFor(harness, "metrics-auditor", ["admin"]);
  const client = await createClient(team.admin);
  openedCase = await openCase(team.coordinator, client.id, {
    patient: {
      ...patient,
      dateOfBirth: "1961-02-03",
      sex: "female",
      location: { unit: "Neuro ICU", room: "12", bed: "B" },
      referringPhysician: "Dr. Pierce",
      indication: "Rule out non-convulsive seizures",
      medications: null,
      notes: null,
    },
  });

  // Routes whose paths, queries and bodies hold the case's id, its MRN and the patient's name.
  await team.coordinator("GET", `/cases/${openedCase.id}`);
  await team.coordinator("GET", `/cases/${openedCase.id}/timeline`);
  await team.coordinator("GET", `/cases/intake?search=${encodeURIComponent(patient.lastName)}`);
  await team.coordinator("GET", "/cases/00000000-0000-4000-8000-000000000000");
  await team.coordinator("PATCH", `/cases/${openedCase.id}`, {
    body: { patient: { firstName: patient.firstName } },
    ifMatch: openedCase.version,
  });
  await admin("GET", `/api/audit/disclosures?mrn=${encodeURIComponent(patient.mrn)}`);
  await admin("GET", `/api/users/${encodeURIComponent(patient.lastName)}`);
  await harness.app.inject({ method: "GET", url: `/api/no-such/${patient.mrn}/${openedCase.id}` });
  await harness.app.inject({ method: "POST", url: `/no-such/${patient.lastName}/12345`, payload: patient });
  await harness.app.inject({ method: "GET", url: `/api/continuous-monitoring/cases/%zz${patient.mrn}` });
});
afterAll(() => harness.close());

describe("GET /metrics", () => {
  it("answers 404, as an unknown path, when METRICS_TOKEN is not set", async () => {
    const off = await createTestApp();
    try {
      const response = await off.app.inject({ method: "GET", url: "/metrics", headers: scraper });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("not_found");
      expect(off.app.metrics).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it("refuses a scraper without the token, or with another, with 401 and a Bearer challenge", async () => {
    for (const authorization of [undefined, "Bearer wrong", `Bearer ${token}x`, token, `Basic ${token}`]) {
      const response = await harness.app.inject({
        method: "GET",
        url: "/metrics",
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.body).not.toContain("vigil_");
    }
  });

  it("answers the token's holder in Prometheus text format 0.0.4, never cached", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/metrics", headers: scraper });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.body).toContain("# TYPE vigil_http_requests_total counter");
  });

  it("passes Debian's promtool check metrics", async () => {
    const text = await scrape();
    const check = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    if (check.error) {
      throw new Error(
        `promtool could not be run (${check.error.message}): install Debian's prometheus package (apt-get install prometheus)`,
      );
    }
    expect(`${check.stdout}${check.stderr}`.trim(), text).toBe("");
    expect(check.status).toBe(0);
  });

  it("never holds a case id, MRN, patient name or an id-like path segment in any label", async () => {
    const values = labelValues(await scrape());
    expect(values.length).toBeGreaterThan(50);
    const forbidden = [openedCase.id, openedCase.caseNumber, patient.mrn, patient.firstName, patient.lastName, "12345"];
    for (const { value, line } of values) {
      for (const word of forbidden) expect(value.toLowerCase(), line).not.toContain(word.toLowerCase());
      expect(value, line).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
      if (value.includes("/")) {
        for (const segment of value.split("/")) expect(segment, line).not.toMatch(/\d/);
      }
    }
  });

  it("counts requests by the contract's route name, method and status class, with their latency", async () => {
    const text = await scrape();
    const getCase = 'route="getCase",method="GET",status_class="2xx"';
    expect(sample(text, "vigil_http_requests_total", getCase)).toBeGreaterThanOrEqual(1);
    expect(sample(text, "vigil_http_request_duration_seconds_count", getCase)).toBeGreaterThanOrEqual(1);
    expect(sample(text, "vigil_http_request_duration_seconds_bucket", `le="+Inf",${getCase}`)).toBeGreaterThanOrEqual(
      1,
    );
    // The unknown case is a 404 of the same route; a path no route knows is counted as `unmatched`.
    expect(
      sample(text, "vigil_http_requests_total", 'route="getCase",method="GET",status_class="4xx"'),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, "vigil_http_requests_total", 'route="unmatched",method="POST",status_class="4xx"'),
    ).toBeGreaterThanOrEqual(1);
  });

  it("reports the process's memory and event-loop lag", async () => {
    const text = await scrape();
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });

  it("counts the live event streams, and leaves their open time out of the latencies", async () => {
    const before = sample(await scrape(), "vigil_event_stream_connections", "");
    expect(before).toBe(0);
    const stream = await openEventStreamAs(harness.app, await harness.tokenFor("metrics-watcher", ["coordinator"]));
    expect(stream.status).toBe(200);
    expect(sample(await scrape(), "vigil_event_stream_connections", "")).toBe(1);
    stream.close();
    await expect
      .poll(async () => sample(await scrape(), "vigil_event_stream_connections", ""), { timeout: 10_000 })
      .toBe(0);
    const text = await scrape();
    await expect
      .poll(
        async () =>
          sample(await scrape(), "vigil_http_requests_total", 'route="streamEvents",method="GET",status_class="2xx"'),
        { timeout: 10_000 },
      )
      .toBe(1);
    expect(text).not.toMatch(/^vigil_http_request_duration_seconds_count\{[^}]*route="streamEvents"/m);
  });

  it("reports the PostgreSQL pool's use, and no pool for PGlite", async () => {
    const text = await scrape();
    if (harness.database.engine === "postgres") {
      // The test databases open a pool of 4 (testing/test-app.ts).
      expect(sample(text, "vigil_db_pool_max_connections", "")).toBe(4);
      expect(sample(text, "vigil_db_pool_connections", 'state="idle"')).toBeGreaterThanOrEqual(0);
      expect(sample(text, "vigil_db_pool_connections", 'state="in_use"')).toBeGreaterThanOrEqual(0);
      expect(sample(text, "vigil_db_pool_waiting_requests", "")).toBe(0);
    } else {
      expect(text).not.toContain("vigil_db_pool_");
    }
  });

  it("reports the job queues a reader is given for, naming kinds only from code", async () => {
    const metrics = harness.app.metrics;
    if (!metrics) throw new Error("metrics are on in this app");
    // The app hands its own job queue over (app.ts): every registered kind is a series, from the jobs table.
    const own = await scrape();
    expect(sample(own, "vigil_job_queue_depth", 'kind="clock-alert-sweep"')).toBeGreaterThanOrEqual(0);
    expect(sample(own, "vigil_job_queue_depth", 'kind="finding-messages"')).toBeGreaterThanOrEqual(0);
    expect(sample(own, "vigil_job_queue_oldest_age_seconds", 'kind="finding-escalation"')).toBeGreaterThanOrEqual(0);
    metrics.watchJobQueue(async () => [
      { kind: "finding-delivery", depth: 3, oldestAgeSeconds: 42 },
      { kind: patient.mrn, depth: 1, oldestAgeSeconds: 0 },
    ]);
    metrics.countJobFailure("finding-delivery");
    const text = await scrape();
    expect(sample(text, "vigil_job_queue_depth", 'kind="finding-delivery"')).toBe(3);
    expect(sample(text, "vigil_job_queue_oldest_age_seconds", 'kind="finding-delivery"')).toBe(42);
    expect(sample(text, "vigil_job_queue_depth", 'kind="other"')).toBe(1);
    expect(sample(text, "vigil_job_failures_total", 'kind="finding-delivery"')).toBe(1);
    expect(text).not.toContain(patient.mrn);

    // A queue that cannot be read leaves its series out; the rest of the scrape is answered.
    metrics.watchJobQueue(async () => {
      throw new Error("the jobs table is locked");
    });
    const withoutQueues = await scrape();
    expect(withoutQueues).not.toMatch(/^vigil_job_queue_depth\{/m);
    expect(withoutQueues).toContain("vigil_http_requests_total{");
  });
});

describe("METRICS_TOKEN", () => {
  it("is refused when shorter than 32 characters or holding a space, naming the variable", () => {
    for (const value of ["too-short", `${"x".repeat(32)} y`]) {
      expect(() => loadConfig({ METRICS_TOKEN: value })).toThrow(ConfigError);
      expect(() => loadConfig({ METRICS_TOKEN: value })).toThrow(/METRICS_TOKEN/);
    }
    expect(loadConfig({ METRICS_TOKEN: token }).metricsToken).toBe(token);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});
