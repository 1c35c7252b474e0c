import { accessGroups, transferFormContentSchema } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.js";
import { queryRows } from "./client.js";
import { seedDemoData } from "./seed.js";

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

describe("demo data", () => {
  it("creates one user per group with generated passwords that sign in", async () => {
    const credentials = await seedDemoData(harness.database.db);
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

  it("seeds nothing into a database that already has users", async () => {
    expect(await seedDemoData(harness.database.db)).toEqual([]);
    const users = await queryRows<{ total: number }>(
      harness.database.db,
      sql`select count(*)::int as total from users`,
    );
    expect(users[0]?.total).toBe(accessGroups.length);
  });
});
