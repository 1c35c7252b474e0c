import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import type { ReportList } from "@vigil/contract";
import { eq, inArray, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDisclosures } from "../../db/schema.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { appOnSameDatabase } from "../../testing/kits/findings-kit.js";
import { clientNamingRecipients, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/** A port nothing listens on yet: the relay that is down when the report is signed. */
async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let port: number;
let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  port = await freePort();
  harness = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
  team = await teamFor(harness, "report-jobs");
  clientId = (await clientNamingRecipients(team)).client.id;
}, 60_000);
afterAll(() => harness.close());

describe("a report signed while the SMTP relay is down", () => {
  it("arrives by itself once the relay is back, once per recipient across two instances, each disclosed", async () => {
    const { caseId } = await signedCase(harness, team, clientId);
    const listed = await team.coordinator("GET", `/cases/${caseId}/reports`);
    const deliveries = (listed.json().data as ReportList).items[0]?.deliveries ?? [];
    expect(deliveries.length).toBeGreaterThan(0);
    // The signing request's own try was refused: the deliveries wait for their jobs, saying why.
    expect(deliveries.map((delivery) => delivery.status)).toEqual(deliveries.map(() => "pending"));

    // The relay comes back on the same address, late.
    const received: { to: string[]; data: string }[] = [];
    const relay = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => {
          data += chunk.toString("utf8");
        });
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((address) => address.address), data });
          callback();
        });
      },
    });
    relay.listen(port, "127.0.0.1");
    await once(relay.server, "listening");
    // The jobs wait out the signing request's grace period; here that time has passed.
    await harness.database.db.execute(
      sql`update jobs set run_at = now() where kind = 'report-delivery' and state = 'waiting'`,
    );
    const first = await appOnSameDatabase(harness, { runJobs: true });
    const second = await appOnSameDatabase(harness, { runJobs: true });
    try {
      const ids = deliveries.map((delivery) => delivery.id);
      const started = Date.now();
      for (;;) {
        const rows = await harness.database.db
          .select()
          .from(reportDisclosures)
          .where(inArray(reportDisclosures.deliveryId, ids));
        if (rows.length >= ids.length) break;
        if (Date.now() - started > 20_000) throw new Error("the report e-mails did not leave within 20 s");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // Both runners had time to take the jobs again, had they not been done.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const after = (await team.coordinator("GET", `/cases/${caseId}/reports`)).json().data as ReportList;
      expect(after.items[0]?.deliveries.map((delivery) => delivery.status)).toEqual(ids.map(() => "sent"));
      // One e-mail per delivery, each to one recipient: none lost, none doubled by the second instance.
      expect(received.map((mail) => mail.to.length)).toEqual(ids.map(() => 1));
      for (const id of ids) {
        const rows = await harness.database.db
          .select()
          .from(reportDisclosures)
          .where(eq(reportDisclosures.deliveryId, id));
        expect(rows).toHaveLength(1);
      }
    } finally {
      await first.close();
      await second.close();
      await new Promise((resolve) => relay.close(() => resolve(undefined)));
    }
  }, 60_000);
});
