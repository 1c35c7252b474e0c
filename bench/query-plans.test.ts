import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aggregateScenarios, checkPlans, type PlanCheck } from "./check-plans.js";
import { generatePostgresDataset } from "./generate-data.js";

/*
 * Every list and detail read the server makes, explained on a database of 100,000 cases and 1,000,000 time logs
 * (the benchmark's data set, generated afresh): none may read `cases`, `case_time_logs`, `case_records`,
 * `audit_events` or the kept billable figures sequentially. A full scan costs nothing on a test database of a few rows, so only a data set of
 * production size shows a missing index or a condition no index can serve. PostgreSQL only (the plans are its
 * planner's); without DATABASE_URL the check is skipped.
 */

const databaseUrl = process.env.DATABASE_URL;
const name = `vigil_plans_${process.pid}`;
let url = "";
let checks: PlanCheck[] = [];

describe.skipIf(!databaseUrl)("query plans at 100,000 cases (PostgreSQL; set DATABASE_URL)", () => {
  beforeAll(async () => {
    const target = new URL(databaseUrl as string);
    target.pathname = `/${name}`;
    url = target.toString();
    const summary = await generatePostgresDataset({ name, url, adminUrl: databaseUrl as string, scale: 1 });
    expect(summary.cases).toBe(100_000);
    expect(summary.timeLogs).toBe(1_000_000);
    checks = await checkPlans(url);
  });

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    // The generator's and the plan check's pools may still be closing their connections: a forced drop would end
    // them mid-close, an error no test awaits. Give them a few seconds to leave first.
    for (let waited = 0; waited < 10_000; waited += 200) {
      const open = await admin.query("select 1 from pg_stat_activity where datname = $1", [name]);
      if (open.rowCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  });

  it("explains the statements of every list, detail and report read", () => {
    const scenarios = new Set(checks.map((check) => check.scenario));
    for (const expected of ["clients list", "closed queue, patient search", "assignments", "case detail"]) {
      expect(scenarios).toContain(expected);
    }
    for (const expected of [
      "closed queue, second word of a family name",
      "closed queue, case-number digits",
      "monitoring queue, MRN digits",
      "intake queue, accented name",
    ]) {
      expect(scenarios).toContain(expected);
    }
    for (const expected of [
      "time-log tab (monitoring case)",
      "audit log, client filter",
      "users list",
      "watch board",
      "receivables aging",
      "statement of account",
    ]) {
      expect(scenarios).toContain(expected);
    }
    expect(scenarios.size).toBeGreaterThanOrEqual(40);
  });

  it("reads no large table sequentially in any list or detail read", () => {
    const scans = checks
      .filter((check) => !aggregateScenarios.has(check.scenario))
      .flatMap((check) =>
        check.seqScans.map((scan) => `${check.scenario}: Seq Scan on ${scan.relation} — ${scan.why}\n  ${check.sql}`),
      );
    expect(scans).toEqual([]);
  });

  it("reads the statement of account and each invoice's allocations in aging through their indexes", () => {
    // The ledger grows with clients × months, not with cases, so a full read of it is no defect by itself (aging
    // sums every open invoice); what must hold is that one client's entries and one invoice's allocations are
    // found by index, so a dropped index fails here.
    const indexesOf = (scenario: string) =>
      checks.filter((check) => check.scenario === scenario).flatMap((check) => check.indexes);
    const statement = indexesOf("statement of account");
    for (const index of [
      "invoices_client_issue_idx",
      "payments_client_received_idx",
      "payment_allocations_client_idx",
    ]) {
      expect(statement).toContain(index);
    }
    expect(indexesOf("receivables aging")).toContain("payment_allocations_invoice_idx");
  });

  it("reads the board through the kept clocks' due-order index and each row's case by its key", () => {
    const board = checks.filter((check) => check.scenario.startsWith("watch board"));
    expect(board.length).toBeGreaterThanOrEqual(5);
    // The page itself (not its count) joins cases: never by reading them all.
    const pages = board.filter((check) => /join "?cases"?/i.test(check.sql));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    for (const check of pages) {
      expect(check.seqScans, check.sql).toEqual([]);
      expect(check.indexes, check.sql).toContain("cases_pkey");
      expect(
        check.indexes.some((name) => name.startsWith("case_clocks_")),
        `${check.sql}\nindexes: ${check.indexes.join(", ")}`,
      ).toBe(true);
    }
  });
});
