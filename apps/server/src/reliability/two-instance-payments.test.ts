import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { createUser } from "../identity/user-directory.js";
import { sampleClient } from "../testing/kits/clients-kit.js";
import { insertLedgerInvoice } from "../testing/kits/receivables-kit.js";
import { killAllServers, type ServerProcess, startServer } from "../testing/server-process.js";

/**
 * Two server processes on one PostgreSQL database allocating one payment at the same moment (BILLING.md
 * "Allocation under concurrency"): the payment's row lock (SELECT … FOR UPDATE) lives in the database, so
 * allocations sent to both instances queue on it and never add up to more than the payment. Needs DATABASE_URL.
 */
const postgresUrl = loadConfig().databaseUrl;
const password = `pw-${randomUUID()}`;

let databaseName: string;
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;

async function adminQuery(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresUrl)("two instances allocating one payment (skipped without DATABASE_URL)", () => {
  beforeAll(async () => {
    const url = postgresUrl as string;
    databaseName = `vigil_pay_${process.pid}_${randomUUID().slice(0, 8)}`;
    await adminQuery(url, `create database ${databaseName}`);
    const target = new URL(url);
    target.pathname = `/${databaseName}`;
    databaseUrl = target.toString();
    const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
    try {
      await createUser(
        database.db,
        {
          username: "tp-billing",
          email: "tp-billing@vigil.test",
          name: "Billing",
          groups: ["admin", "billing"],
          password,
        },
        { username: "test" },
      );
    } finally {
      await database.close();
    }
    const env = { DATABASE_URL: databaseUrl, PUBLIC_URL: "http://vigil.test" };
    a = await startServer({ label: "instance A", env, readyTimeoutMs: 240_000 });
    b = await startServer({ label: "instance B", env, readyTimeoutMs: 240_000 });
  }, 540_000);

  afterAll(async () => {
    await killAllServers();
    if (databaseName) await adminQuery(postgresUrl as string, `drop database if exists ${databaseName} with (force)`);
  });

  it("accept exactly as many allocations as the payment covers, whichever instance each reaches", async () => {
    const token = (await a.signIn("tp-billing", password)).idToken;
    const created = await a.request("POST", "/api/continuous-monitoring/clients", { token, body: sampleClient() });
    expect(created.status, created.body).toBe(201);
    const clientId: string = created.json().data.id;
    const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
    const invoiceIds: string[] = [];
    try {
      for (let index = 0; index < 8; index += 1) {
        const invoice = await insertLedgerInvoice(database.db, {
          clientId,
          totalCents: 40_000,
          issueDate: "2026-01-05",
          dueDate: "2026-02-04",
        });
        invoiceIds.push(invoice.id);
      }
    } finally {
      await database.close();
    }
    const recorded = await b.request("POST", "/api/billing/payments", {
      token,
      body: { clientId, receivedOn: "2026-02-10", amount: "1000.00", method: "wire" },
    });
    expect(recorded.status, recorded.body).toBe(201);
    const paymentId: string = recorded.json().data.id;

    // Eight allocations of 400.00 from a 1000.00 payment, alternately to A and B, all at once: two fit.
    const answers = await Promise.all(
      invoiceIds.map((invoiceId, index) =>
        (index % 2 === 0 ? a : b).request("POST", `/api/billing/payments/${paymentId}/allocations`, {
          token,
          body: { allocations: [{ invoiceId, amount: "400.00" }] },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 409, 409, 409, 409, 409, 409]);
    const after = await a.request("GET", `/api/billing/payments/${paymentId}`, { token });
    expect(after.json().data).toMatchObject({ allocated: "800.00", unallocated: "200.00" });
  });
});
