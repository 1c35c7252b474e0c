import { accessGroups } from "@vigil/contract";
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

  it("seeds nothing into a database that already has users", async () => {
    expect(await seedDemoData(harness.database.db)).toEqual([]);
    const users = await queryRows<{ total: number }>(
      harness.database.db,
      sql`select count(*)::int as total from users`,
    );
    expect(users[0]?.total).toBe(accessGroups.length);
  });
});
