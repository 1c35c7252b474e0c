import {
  agingQuerySchema,
  assignmentsQuerySchema,
  auditQuerySchema,
  billableHoursQuerySchema,
  billingOverviewQuerySchema,
  caseQueueQuerySchema,
  clientCasesQuerySchema,
  clientListQuerySchema,
  permissionsOf,
  type RecordKind,
  recordListQuerySchema,
  statementOfAccountQuerySchema,
  watchBoardQuerySchema,
} from "@vigil/contract";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { caseDependenciesOf } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import type { Db } from "../apps/server/src/db/client.js";
import * as schema from "../apps/server/src/db/schema.js";
import { findLiveSessionUser } from "../apps/server/src/identity/sessions-repository.js";
import { listAllUsers } from "../apps/server/src/identity/user-directory.js";
import { listAuditEvents } from "../apps/server/src/modules/audit/audit-service.js";
import { billingSettingsOf, listBillingMonths } from "../apps/server/src/modules/billing/billing-service.js";
import { getBillingStatement } from "../apps/server/src/modules/billing/billing-statements-service.js";
import { getAgingReport, getStatementOfAccount } from "../apps/server/src/modules/billing/receivables-service.js";
import { getBillableHoursReport } from "../apps/server/src/modules/billing/reporting-service.js";
import {
  getCaseTimeline,
  listAssignments,
  listCaseQueue,
  listClientCases,
} from "../apps/server/src/modules/cases/case-lists-service.js";
import { getCase } from "../apps/server/src/modules/cases/cases-service.js";
import { getPatientDetailsHistory } from "../apps/server/src/modules/cases/patient-details-service.js";
import { listClients } from "../apps/server/src/modules/clients/clients-service.js";
import { getRecordHistory, listRecords } from "../apps/server/src/modules/records/records-service.js";
import { getWatchBoard } from "../apps/server/src/modules/watch/board-service.js";
import { benchUser, fullDatabaseUrl, runSettings } from "./config.js";

/**
 * `tsx bench/check-plans.ts`: EXPLAIN (FORMAT JSON) of every statement the list endpoints (and the reads a case
 * page makes) send, on the 100,000-case database, and every sequential scan of a large table in those plans.
 *
 * How the SQL is captured: the endpoints' own service functions (what the routes' handlers call) run against a
 * pg pool that records each statement with its parameters and duration, so the plans are those of the exact SQL
 * the server sends — every query a page of a list makes (the page, its count, the rows it joins in), with the
 * parameters of a realistic request — without parsing a statement log, and without the audit insert and session
 * lookup that every request adds (the session lookup is checked on its own). Each distinct statement is then
 * explained with the same parameters.
 */

export const largeTables = [
  "cases",
  "case_time_logs",
  "case_records",
  "audit_events",
  "billable_seconds_daily",
  "billable_second_carries",
  "billable_seconds_monthly",
];

/**
 * The reads that total a period's time logs by nature touch a share of the tables, and a hash join over it can beat
 * an index; the bench measures them by latency. The statement, the overview and the billable-hours reports without
 * a technologist read the kept figures through their (client, month) and (client, day) indexes, so they are held to
 * the index rule like every list and detail read; a technologist's report (summed over the logs) stays measured by
 * latency.
 */
export const aggregateScenarios = new Set(["billable-hours report by technologist"]);

type Captured = { scenario: string; sql: string; params: unknown[]; ms: number };

class CapturingPool extends pg.Pool {
  scenario = "";
  readonly captured: Captured[] = [];

  // biome-ignore lint/suspicious/noExplicitAny: pg's query overloads; this only observes them.
  override query(...args: any[]): any {
    const [config, values] = args;
    const sql = typeof config === "string" ? config : (config?.text as string);
    const params = (typeof config === "string" ? values : (config?.values ?? values)) ?? [];
    const started = performance.now();
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const result = (super.query as any)(...args);
    if (result && typeof result.then === "function") {
      return result.then((answer: unknown) => {
        this.captured.push({ scenario: this.scenario, sql, params, ms: performance.now() - started });
        return answer;
      });
    }
    return result;
  }
}

export type SeqScan = { relation: string; filter: string | null; planRows: number; tableRows: number; why: string };
export type PlanCheck = {
  scenario: string;
  sql: string;
  ms: number;
  totalCost: number;
  seqScans: SeqScan[];
  /** The indexes the plan reads (index, index-only and bitmap scans). */
  indexes: string[];
};

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  Alias?: string;
  Filter?: string;
  "Join Filter"?: string;
  "Hash Cond"?: string;
  "Merge Cond"?: string;
  "Index Cond"?: string;
  "Plan Rows": number;
  "Total Cost": number;
  Plans?: PlanNode[];
};

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Why the planner reads the whole table, in words a reader can act on: read from the scan's own filter and from
 * every join condition of the plan that names the table's columns (a time window applied in a join is where a
 * missing lower bound shows).
 */
function explainScan(
  node: PlanNode,
  plan: PlanNode,
  tableRows: number,
  indexed: Map<string, string[]>,
  columnsOf: Map<string, string[]>,
): string {
  const relation = node["Relation Name"] as string;
  const alias = node.Alias ?? relation;
  const conditions: string[] = [];
  walk(plan, (other) => {
    for (const key of ["Filter", "Join Filter", "Hash Cond", "Merge Cond", "Index Cond"] as const) {
      const text = other[key];
      if (text && (other === node || text.includes(`${alias}.`))) conditions.push(text);
    }
  });
  const all = conditions.join(" AND ");
  const reasons: string[] = [];
  const leading = indexed.get(relation) ?? [];
  for (const column of columnsOf.get(relation) ?? []) {
    const name = `(?:${escapeRegExp(alias)}\\.)?${escapeRegExp(column)}`;
    if (!new RegExp(`\\b${name}\\b`).test(all)) continue;
    const below = new RegExp(`\\b${name}\\)? <=? |>=? \\(?${name}\\b`).test(all);
    const above = new RegExp(`\\b${name}\\)? >=? |<=? \\(?${name}\\b`).test(all);
    const computed = new RegExp(`(?:COALESCE|LEAST|GREATEST)\\([^()]*\\b${name}\\b`, "i").test(all);
    if (below && !above) {
      reasons.push(
        `${column} is bounded only from above (${column} < …)${
          computed ? `; its other bound is an expression (COALESCE/LEAST/GREATEST of ${column})` : ""
        }, so no index range can skip the older rows`,
      );
    } else if (computed && !below && !above) {
      reasons.push(`${column} is compared only through an expression (COALESCE/LEAST/GREATEST), which no index serves`);
    }
    if (new RegExp(`\\b${name} <> `).test(all)) reasons.push(`${column} <> … cannot use an index`);
    const wrapped = new RegExp(`\\b(lower|upper)\\(${name}\\)`, "i").exec(all);
    if (wrapped) reasons.push(`${wrapped[1]}(${column}) has no expression index`);
    const inList = new RegExp(`\\b${name} = ANY \\('\\{([^}]*)\\}'`).exec(all);
    if (inList && (inList[1] as string).split(",").length > 20) {
      reasons.push(`${column} = ANY(${(inList[1] as string).split(",").length} values) matches most of the table`);
    }
  }
  if (/->>|->/.test(all)) reasons.push("it filters on a JSON field (details/data ->> …) that no index covers");
  const share = tableRows > 0 ? node["Plan Rows"] / tableRows : 0;
  if (share > 0.05) {
    reasons.push(`the planner expects ${(share * 100).toFixed(0)}% of the rows to qualify, so an index would not pay`);
  }
  if (!node.Filter && conditions.length === 0) {
    reasons.push("no condition on this table at this step: every row is read");
  }
  if (reasons.length === 0) {
    const columns = (columnsOf.get(relation) ?? []).filter((column) =>
      new RegExp(`\\b${escapeRegExp(column)}\\b`).test(node.Filter ?? ""),
    );
    const unindexed = columns.filter((column) => !leading.includes(column));
    reasons.push(
      unindexed.length === columns.length && columns.length > 0
        ? `no index leads with any of ${columns.join(", ")}`
        : `an index on ${columns.filter((column) => leading.includes(column)).join(", ") || "the joined column"} exists, ` +
            "but the planner judged a full scan cheaper (the indexed part is not selective, or it runs once per outer row)",
    );
  }
  return [...new Set(reasons)].join("; ");
}

/** Realistic parameters from the data: the largest client, cases with records, people of each kind. */
async function fixtures(client: pg.Client) {
  const one = async <T>(sql: string): Promise<T> => {
    const { rows } = await client.query(sql);
    if (!rows[0]) throw new Error(`No fixture for: ${sql} (is the bench database generated?)`);
    return rows[0] as T;
  };
  const bigClient = await one<{ id: string }>(
    "select client_id as id from cases group by client_id order by count(*) desc limit 1",
  );
  const monitoring = await one<{ id: string }>(
    `select c.id from cases c where c.stage = 'monitoring' and c.client_id = '${bigClient.id}'
      and exists (select 1 from case_time_logs l where l.case_id = c.id and l.ended_at is null) limit 1`,
  );
  const closed = await one<{ id: string }>(
    `select id from cases where stage = 'closed' and client_id = '${bigClient.id}' order by created_at desc limit 1`,
  );
  const timeLog = await one<{ id: string }>(
    `select record_id as id from case_time_logs where case_id = '${monitoring.id}' limit 1`,
  );
  const technologist = await one<{ sub: string; username: string }>(
    "select sub, username from users where 'technologist' = any(groups) order by username limit 1",
  );
  const reviewer = await one<{ sub: string }>("select sub from users where 'reviewer' = any(groups) limit 1");
  const bench = await one<{ sub: string }>(`select sub from users where username = '${benchUser.username}'`);
  const patient = await one<{ last: string; first: string; fullLast: string; caseDigits: string; mrnDigits: string }>(
    `select lower(substr(patient_last_name, 1, 3)) as last, patient_first_name as first,
            patient_last_name as "fullLast", right(case_number, 6) as "caseDigits",
            substr(regexp_replace(patient_mrn, '[^0-9]', '', 'g'), 3, 4) as "mrnDigits"
       from cases where id = '${closed.id}'`,
  );
  // A hyphenated (corrected) family name: its second word is what a caller may give.
  const laterWord = await one<{ word: string }>(
    `select split_part(patient_last_name, '-', 2) as word from cases
      where stage = 'closed' and patient_last_name like '%-%' limit 1`,
  );
  return { bigClient, monitoring, closed, timeLog, technologist, reviewer, bench, patient, laterWord };
}

function months(now: Date) {
  const month = (date: Date) => date.toISOString().slice(0, 7);
  const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const yearBack = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), 1));
  return {
    yearAgo: yearBack.toISOString().slice(0, 10),
    previousMonth: month(previous),
    monthStart: `${month(now)}-01`,
    today: now.toISOString().slice(0, 10),
  };
}

export async function checkPlans(url = fullDatabaseUrl): Promise<PlanCheck[]> {
  const pool = new CapturingPool({ connectionString: url, max: runSettings.poolSize });
  const db = drizzle(pool, { schema }) as unknown as Db;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const config = loadConfig({ DATABASE_URL: url, SEED: "none" });
    const settings = billingSettingsOf(config);
    const caseDependencies = caseDependenciesOf(config);
    const ctx = { db, caps: config.technologistCaps };
    const f = await fixtures(admin);
    const { previousMonth, monthStart, today, yearAgo } = months(new Date());
    const permissions = permissionsOf(["admin"]);
    const reader = { username: benchUser.username, permissions };
    const user = { sub: f.bench.sub, username: benchUser.username, permissions };

    const scenarios: [string, () => Promise<unknown>][] = [
      [
        "session lookup (every request)",
        () => findLiveSessionUser(db, "00000000-0000-4000-8000-000000000000", f.bench.sub),
      ],
      ["clients list", () => listClients(db, clientListQuerySchema.parse({}))],
      ["client's cases", () => listClientCases(db, f.bigClient.id, clientCasesQuerySchema.parse({}))],
      ...(["intake", "monitoring", "preview", "reviewed", "closed"] as const).map(
        (stage): [string, () => Promise<unknown>] => [
          `${stage} queue`,
          () => listCaseQueue(db, stage, caseQueueQuerySchema.parse({})),
        ],
      ),
      [
        "monitoring queue, client filter",
        () => listCaseQueue(db, "monitoring", caseQueueQuerySchema.parse({ clientId: f.bigClient.id })),
      ],
      [
        "closed queue, client filter",
        () => listCaseQueue(db, "closed", caseQueueQuerySchema.parse({ clientId: f.bigClient.id })),
      ],
      [
        "closed queue, patient search",
        () => listCaseQueue(db, "closed", caseQueueQuerySchema.parse({ search: f.patient.last })),
      ],
      // The search looks for every typed word at the start of any word, and for digits anywhere: each through
      // the trigram index on search_text, never by reading the queue.
      [
        "closed queue, second word of a family name",
        () => listCaseQueue(db, "closed", caseQueueQuerySchema.parse({ search: f.laterWord.word })),
      ],
      [
        "closed queue, first and last name in any order",
        () =>
          listCaseQueue(
            db,
            "closed",
            caseQueueQuerySchema.parse({ search: `${f.patient.fullLast} ${f.patient.first}` }),
          ),
      ],
      [
        "closed queue, case-number digits",
        () => listCaseQueue(db, "closed", caseQueueQuerySchema.parse({ search: f.patient.caseDigits })),
      ],
      [
        "monitoring queue, MRN digits",
        () => listCaseQueue(db, "monitoring", caseQueueQuerySchema.parse({ search: f.patient.mrnDigits })),
      ],
      ["intake queue, accented name", () => listCaseQueue(db, "intake", caseQueueQuerySchema.parse({ search: "Zoë" }))],
      [
        "closed queue, technologist filter",
        () => listCaseQueue(db, "closed", caseQueueQuerySchema.parse({ technologistId: f.technologist.sub })),
      ],
      [
        "closed queue, reviewer filter, newest updated first",
        () =>
          listCaseQueue(
            db,
            "closed",
            caseQueueQuerySchema.parse({ reviewerId: f.reviewer.sub, sort: "updatedAt", order: "desc" }),
          ),
      ],
      ["assignments", () => listAssignments(db, assignmentsQuerySchema.parse({}))],
      // The board reads the kept clocks (case_clocks, open cases only) in due order, then each row's case by its key.
      ["watch board", () => getWatchBoard(db, watchBoardQuerySchema.parse({}), reader, config.watch)],
      [
        "watch board, client filter",
        () => getWatchBoard(db, watchBoardQuerySchema.parse({ clientId: f.bigClient.id }), reader, config.watch),
      ],
      [
        "watch board, a technologist's own",
        () => getWatchBoard(db, watchBoardQuerySchema.parse({ mine: "true" }), f.technologist, config.watch),
      ],
      [
        "watch board, impedance checks",
        () => getWatchBoard(db, watchBoardQuerySchema.parse({ kind: "impedance-check" }), reader, config.watch),
      ],
      [
        "watch board, coordinators' desk",
        () =>
          getWatchBoard(
            db,
            watchBoardQuerySchema.parse({ owner: "coordinators", alsoDueSoon: "true" }),
            reader,
            config.watch,
          ),
      ],
      ["case detail", () => getCase(db, f.monitoring.id, user, caseDependencies)],
      ["case timeline", () => getCaseTimeline(db, f.monitoring.id)],
      ["patient details history", () => getPatientDetailsHistory(db, f.closed.id)],
      ...(["time-log", "impedance", "event", "case-note", "interpretation", "billing-note"] as RecordKind[]).flatMap(
        (kind): [string, () => Promise<unknown>][] => [
          [
            `${kind} tab (monitoring case)`,
            () => listRecords(ctx, kind, f.monitoring.id, recordListQuerySchema.parse({}), reader),
          ],
          [
            `${kind} tab (closed case)`,
            () => listRecords(ctx, kind, f.closed.id, recordListQuerySchema.parse({}), reader),
          ],
        ],
      ),
      ["time-log revisions", () => getRecordHistory(ctx, "time-log", f.monitoring.id, f.timeLog.id)],
      ["billing overview", () => listBillingMonths(db, billingOverviewQuerySchema.parse({}), settings.currency)],
      ["billing statement", () => getBillingStatement(db, f.bigClient.id, previousMonth, settings)],
      [
        "billable-hours report by day",
        () =>
          getBillableHoursReport(db, billableHoursQuerySchema.parse({ from: monthStart, to: today, groupBy: "day" })),
      ],
      [
        "billable-hours report by technologist",
        () =>
          getBillableHoursReport(
            db,
            billableHoursQuerySchema.parse({ from: monthStart, to: today, groupBy: "technologist" }),
          ),
      ],
      [
        "billable-hours report, one client by month",
        () =>
          getBillableHoursReport(
            db,
            billableHoursQuerySchema.parse({
              from: `${previousMonth}-01`,
              to: today,
              groupBy: "month",
              clientId: f.bigClient.id,
            }),
          ),
      ],
      // Three years of every client's invoices and payments (generate-receivables.ts): query-plans.test.ts holds
      // both reads to the ledger's client and invoice indexes.
      ["receivables aging", () => getAgingReport(db, agingQuerySchema.parse({ asOf: today }), settings)],
      [
        "statement of account",
        () =>
          getStatementOfAccount(
            db,
            f.bigClient.id,
            statementOfAccountQuerySchema.parse({ from: yearAgo, to: today }),
            settings,
          ),
      ],
      ["audit log", () => listAuditEvents(db, auditQuerySchema.parse({}))],
      ["audit log, case filter", () => listAuditEvents(db, auditQuerySchema.parse({ caseId: f.closed.id }))],
      ["audit log, client filter", () => listAuditEvents(db, auditQuerySchema.parse({ clientId: f.bigClient.id }))],
      ["audit log, user filter", () => listAuditEvents(db, auditQuerySchema.parse({ user: f.technologist.username }))],
      ["audit log, action filter", () => listAuditEvents(db, auditQuerySchema.parse({ action: "case.create" }))],
      ["users list", () => listAllUsers(db, { limit: 50, offset: 0 })],
    ];
    for (const [name, run] of scenarios) {
      pool.scenario = name;
      await run();
    }

    const { rows: sizes } = await admin.query(
      `select relname as name, greatest(reltuples, 0)::float8 as rows from pg_class
        where relkind = 'r' and relnamespace = 'public'::regnamespace`,
    );
    const tableRows = new Map(sizes.map((row: { name: string; rows: number }) => [row.name, Number(row.rows)]));
    const { rows: indexRows } = await admin.query(
      `select t.relname as "table", a.attname as "column" from pg_index i
        join pg_class t on t.oid = i.indrelid join pg_attribute a on a.attrelid = t.oid and a.attnum = i.indkey[0]
        where t.relnamespace = 'public'::regnamespace`,
    );
    const { rows: columnRows } = await admin.query(
      `select c.relname as "table", a.attname as "column" from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped`,
    );
    const columnsOf = new Map<string, string[]>();
    for (const row of columnRows as { table: string; column: string }[]) {
      columnsOf.set(row.table, [...(columnsOf.get(row.table) ?? []), row.column]);
    }
    const indexed = new Map<string, string[]>();
    for (const row of indexRows as { table: string; column: string }[]) {
      indexed.set(row.table, [...(indexed.get(row.table) ?? []), row.column]);
    }

    const seen = new Set<string>();
    const checks: PlanCheck[] = [];
    for (const statement of pool.captured) {
      const key = `${statement.scenario}\n${statement.sql}`;
      if (seen.has(key) || !/^\s*(select|with)/i.test(statement.sql)) continue;
      seen.add(key);
      const { rows } = await admin.query(`explain (format json) ${statement.sql}`, statement.params as unknown[]);
      const plan = (rows[0] as { "QUERY PLAN": { Plan: PlanNode }[] })["QUERY PLAN"][0]?.Plan as PlanNode;
      const seqScans: SeqScan[] = [];
      const indexes: string[] = [];
      walk(plan, (node) => {
        if (node["Index Name"]) indexes.push(node["Index Name"]);
        const relation = node["Relation Name"];
        if (node["Node Type"] === "Seq Scan" && relation && largeTables.includes(relation)) {
          const rowsInTable = tableRows.get(relation) ?? 0;
          seqScans.push({
            relation,
            filter: node.Filter ?? null,
            planRows: node["Plan Rows"],
            tableRows: rowsInTable,
            why: explainScan(node, plan, rowsInTable, indexed, columnsOf),
          });
        }
      });
      checks.push({
        scenario: statement.scenario,
        sql: statement.sql.replace(/\s+/g, " ").trim(),
        ms: Math.round(statement.ms * 10) / 10,
        totalCost: plan["Total Cost"],
        seqScans,
        indexes,
      });
    }
    return checks;
  } finally {
    await admin.end();
    await pool.end();
  }
}

export function printPlanChecks(checks: PlanCheck[]): void {
  const scenarios = new Set(checks.map((check) => check.scenario));
  const flagged = checks.filter((check) => check.seqScans.length > 0);
  console.log(
    `\nQuery plans: ${checks.length} distinct statements of ${scenarios.size} list and detail reads explained; ` +
      `${flagged.length} scan a large table (${largeTables.join(", ")}) sequentially.`,
  );
  for (const check of flagged) {
    console.log(`\n  ✗ ${check.scenario} (${check.ms} ms when captured, cost ${check.totalCost.toFixed(0)})`);
    console.log(`    ${check.sql.length > 400 ? `${check.sql.slice(0, 400)}…` : check.sql}`);
    for (const scan of check.seqScans) {
      console.log(
        `    Seq Scan on ${scan.relation} (${Math.round(scan.tableRows).toLocaleString("en-US")} rows; ` +
          `expects ${Math.round(scan.planRows).toLocaleString("en-US")})${scan.filter ? ` filter: ${scan.filter}` : ""}`,
      );
      console.log(`      why: ${scan.why}`);
    }
  }
  const clean = [...scenarios].filter((scenario) => !flagged.some((check) => check.scenario === scenario));
  console.log(`\n  ✓ no sequential scan of a large table: ${clean.join("; ")}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  checkPlans().then(
    (checks) => {
      printPlanChecks(checks);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
