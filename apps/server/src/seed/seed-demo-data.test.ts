import { accessGroups, transferFormContentSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "../db/client.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { type DemoCredential, seedDemoData } from "./seed-demo-data.js";

let harness: TestApp;
let credentials: DemoCredential[] = [];
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

describe("demo data", () => {
  it("creates one user per group with generated passwords that sign in", async () => {
    credentials = await seedDemoData(harness.database.db);
    expect(credentials.map((entry) => entry.username).sort()).toEqual([...accessGroups].sort());
    expect(new Set(credentials.map((entry) => entry.password)).size).toBe(accessGroups.length);
    for (const entry of credentials) expect(entry.password).toHaveLength(16);
    const coordinator = credentials.find((entry) => entry.username === "coordinator");
    const tokens = await harness.signIn("coordinator", coordinator?.password as string);
    expect(tokens.idToken).toBeTruthy();
  });

  it("seeds clients and cases in every stage", async () => {
    const stages = await queryRows<{ stage: string }>(
      harness.database.db,
      sql`select distinct stage from cases order by stage`,
    );
    expect(stages.map((row) => row.stage)).toEqual(["closed", "intake", "monitoring", "preview", "reviewed"]);
    const clientCount = await queryRows<{ total: number }>(
      harness.database.db,
      sql`select count(*)::int as total from clients`,
    );
    expect(clientCount[0]?.total).toBe(3);
  });

  it("gives every demo client protocol revision 1 with a transfer form, two contacts (one primary) and a link", async () => {
    const rows = await queryRows<{
      code: string;
      revisions: number;
      threshold: string;
      fields: number;
      contacts: number;
      primaries: number;
      links: number;
    }>(
      harness.database.db,
      sql`select c.code,
            (select count(*)::int from protocol_revisions p where p.client_id = c.id and p.revision = 1) as revisions,
            (select impedance_threshold_kohm::text from protocol_revisions p where p.client_id = c.id) as threshold,
            (select jsonb_array_length(transfer_form->'fields') from protocol_revisions p where p.client_id = c.id)
              as fields,
            (select count(*)::int from client_contacts k where k.client_id = c.id) as contacts,
            (select count(*)::int from client_contacts k where k.client_id = c.id and k.is_primary) as primaries,
            (select count(*)::int from client_useful_links l where l.client_id = c.id) as links
          from clients c order by c.code`,
    );
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ revisions: 1, contacts: 2, primaries: 1, links: 1 });
      expect(row.fields).toBeGreaterThanOrEqual(8);
      expect(Number(row.threshold)).toBeGreaterThan(0);
    }
    const [form] = await queryRows<{ transfer_form: unknown }>(
      harness.database.db,
      sql`select transfer_form from protocol_revisions limit 1`,
    );
    expect(transferFormContentSchema.safeParse(form?.transfer_form).success).toBe(true);
  });

  it("keeps records consistent: every revision stored, time logs projected, as the API would leave them", async () => {
    const [counts] = await queryRows<{ records: number; missingRevisions: number; logs: number; projected: number }>(
      harness.database.db,
      sql`select (select count(*)::int from case_records) as "records",
            (select count(*)::int from case_records r
              where r.revision <> (select count(*) from case_record_revisions v where v.record_id = r.id))
              as "missingRevisions",
            (select count(*)::int from case_records where kind = 'time-log') as "logs",
            (select count(*)::int from case_time_logs) as "projected"`,
    );
    expect(counts?.records).toBeGreaterThan(20);
    expect(counts?.missingRevisions).toBe(0);
    expect(counts?.projected).toBe(counts?.logs);
  });

  it("gives the demo cases realistic records, readable through the API", async () => {
    const password = credentials.find((entry) => entry.username === "technologist")?.password as string;
    const { idToken } = await harness.signIn("technologist", password);
    const get = async (url: string) => {
      const response = await harness.app.inject({
        method: "GET",
        url: `/api/continuous-monitoring${url}`,
        headers: { authorization: `Bearer ${idToken}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const stages = await queryRows<{ id: string; stage: string; study_type: string }>(
      harness.database.db,
      sql`select id, stage, study_type from cases`,
    );
    const monitoring = stages.filter((row) => row.stage === "monitoring");
    for (const subject of monitoring) {
      const logs = await get(`/cases/monitoring/${subject.id}/time-logs`);
      expect(logs.summary.runningMine).not.toBeNull();
    }
    const icu = monitoring.find((row) => row.study_type === "icu-ceeg") as { id: string };
    const checks = await get(`/cases/monitoring/${icu.id}/impedances`);
    expect(checks.items.some((item: { flagged: string[] }) => item.flagged.length > 0)).toBe(true);
    const events = await get(`/cases/monitoring/${icu.id}/events`);
    const types = events.items.map((item: { data: { type: string } }) => item.data.type);
    expect(types).toEqual(expect.arrayContaining(["notification", "skin-check"]));
    expect(
      events.items.some((item: { data: { notification: { contactId: string | null } | null } }) =>
        Boolean(item.data.notification?.contactId),
      ),
    ).toBe(true);

    for (const row of stages.filter((candidate) => ["preview", "reviewed", "closed"].includes(candidate.stage))) {
      const reports = await get(`/cases/monitoring/${row.id}/interpretations`);
      expect(reports.items[0]?.status, row.stage).toBe(row.stage === "preview" ? "draft" : "final");
      expect(reports.summary.signed).toBe(row.stage !== "preview");
    }
    const reviewed = stages.find((row) => row.stage === "reviewed") as { id: string };
    expect((await get(`/cases/reviewed/${reviewed.id}/billing-notes`)).items).toHaveLength(1);
  });

  it("prices the demo months: own and inherited rates, one client flagged without any, the reviewed case billable", async () => {
    const rates = await queryRows<{ code: string; months: number; versions: number; changes: number }>(
      harness.database.db,
      sql`select c.code, count(r.month)::int as months, coalesce(max(r.version), 0)::int as versions,
            (select count(*)::int from billing_rate_changes h where h.client_id = c.id) as changes
          from clients c left join billing_rates r on r.client_id = c.id group by c.id, c.code order by c.code`,
    );
    expect(rates).toEqual([
      { code: "LCH", months: 1, versions: 1, changes: 1 },
      { code: "PNI", months: 3, versions: 2, changes: 4 },
      { code: "SMRMC", months: 1, versions: 1, changes: 1 },
    ]);

    const password = credentials.find((entry) => entry.username === "billing")?.password as string;
    const { idToken } = await harness.signIn("billing", password);
    const get = async (url: string) => {
      const response = await harness.app.inject({
        method: "GET",
        url,
        headers: { authorization: `Bearer ${idToken}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data;
    };
    const overview = await get("/api/billing/continuous-monitoring?limit=200");
    type Row = { clientName: string; rateMissing: boolean; rate: { inherited: boolean } | null; hours: string };
    const rows: Row[] = overview.items;
    expect(rows.some((row) => row.clientName.startsWith("Lakeside") && row.rateMissing)).toBe(true);
    expect(rows.some((row) => row.clientName.startsWith("St. Mary") && row.rate?.inherited)).toBe(true);
    expect(rows.some((row) => row.clientName.startsWith("Pacific") && row.rate && !row.rate.inherited)).toBe(true);
    expect(overview.totals.monthsWithoutRate).toBeGreaterThan(0);

    const [reviewed] = await queryRows<{ id: string }>(
      harness.database.db,
      sql`select id from cases where stage = 'reviewed'`,
    );
    const check = await get(`/api/continuous-monitoring/cases/${reviewed?.id}/billing-check`);
    expect(check.checks.filter((item: { passed: boolean }) => !item.passed)).toEqual([]);
    expect(check.passed).toBe(true);
  });

  it("gives St. Mary's an interface profile (EPIC / SMRMC, MRNs of SMRMC-MRN) that the API serves", async () => {
    const admin = credentials.find((entry) => entry.username === "admin");
    const tokens = await harness.signIn("admin", admin?.password as string);
    const [client] = await queryRows<{ id: string }>(
      harness.database.db,
      sql`select id from clients where code = 'SMRMC'`,
    );
    const response = await harness.app.inject({
      method: "GET",
      url: `/api/continuous-monitoring/clients/${client?.id}/interface-profile`,
      headers: { authorization: `Bearer ${tokens.idToken}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.current).toMatchObject({
      revision: 1,
      sendingApplication: "EPIC",
      sendingFacility: "SMRMC",
      mrnAssigningAuthority: "SMRMC-MRN",
      destination: null,
      resultStyle: "ORU^R01",
      author: { username: "admin" },
    });
    const others = await queryRows<{ total: number }>(
      harness.database.db,
      sql`select count(*)::int as total from interface_profile_revisions`,
    );
    expect(others[0]?.total).toBe(1);
  });

  it("seeds nothing into a database that already has users", async () => {
    expect(await seedDemoData(harness.database.db)).toEqual([]);
    const users = await queryRows<{ total: number }>(
      harness.database.db,
      sql`select count(*)::int as total from users`,
    );
    expect(users[0]?.total).toBe(accessGroups.length);
  });
});
