import { createHash } from "node:crypto";
import type { ReportList, ReportVersion } from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDeliveries, reportDisclosures } from "../../db/schema.js";
import { loadServerSecret } from "../../identity/server-secrets-repository.js";
import { signLink } from "../../links/signed-links.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { clientNamingRecipients, linkCall, reportTokensFor, signedCase } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;
let email: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "links");
  clientId = (await clientNamingRecipients(team)).client.id;
  email = `nia.${clientId.slice(0, 8)}@hospital.example`;
}, 60_000);
afterAll(() => harness.close());

async function signedWithToken(): Promise<{ caseId: string; report: ReportVersion; token: string }> {
  const { caseId } = await signedCase(harness, team, clientId);
  const list: ReportList = (await team.coordinator("GET", `/cases/${caseId}/reports`)).json().data;
  const [token] = await reportTokensFor(harness, email);
  return { caseId, report: list.items[0] as ReportVersion, token: token as string };
}

describe("a report's one-time download link", () => {
  it("shows what it will download without spending it, then gives the stored PDF once and 410 after", async () => {
    const { caseId, report, token } = await signedWithToken();

    const lookup = await linkCall(harness, "lookup", token);
    expect(lookup.statusCode, lookup.body).toBe(200);
    expect(lookup.json().data).toMatchObject({
      companyName: "Vigil Neurodiagnostics",
      title: report.title,
      version: 1,
      kind: "signed",
      signedBy: report.signedBy.name,
      recipientName: "Dr. Nia Neuro",
      linkExpiresAt: expect.any(String),
      timeZone: (await team.coordinator("GET", `/clients/${clientId}`)).json().data.timezone,
    });
    // Before the download the page shows no patient data: that is in the PDF.
    const patient = (await team.coordinator("GET", `/cases/${caseId}`)).json().data.patient;
    expect(lookup.body).not.toContain(patient.lastName);
    expect((await linkCall(harness, "lookup", token)).statusCode).toBe(200);

    const download = await linkCall(harness, "download", token);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["cache-control"]).toBe("no-store");
    expect(download.headers["content-disposition"]).toMatch(
      /^attachment; filename="CM-[\d-]+-eeg-24h-[\d-]+(-to-[\d-]+)?-v1\.pdf"/,
    );
    expect(createHash("sha256").update(download.rawPayload).digest("hex")).toBe(report.pdf.sha256);

    const again = await linkCall(harness, "download", token);
    expect(again.statusCode).toBe(410);
    expect(again.json().error).toMatchObject({ code: "gone", details: { reason: "used", at: expect.any(String) } });
    expect((await linkCall(harness, "lookup", token)).json().error.details.reason).toBe("used");

    const list: ReportList = (await team.coordinator("GET", `/cases/${caseId}/reports`)).json().data;
    const opened = list.items[0]?.deliveries.find((delivery) => delivery.recipientName === "Dr. Nia Neuro");
    expect(opened?.openedAt).toEqual(expect.any(String));
    const downloads = await harness.database.db
      .select()
      .from(reportDisclosures)
      .where(eq(reportDisclosures.kind, "report-downloaded"));
    expect(downloads.filter((row) => row.caseId === caseId)).toEqual([
      expect.objectContaining({ recipient: expect.stringMatching(/^Dr\. Nia Neuro </), ip: "127.0.0.1" }),
    ]);
    const audits = await auditRows(harness, "report-link.download", caseId);
    expect(audits.map((row) => row.outcome)).toEqual(["success", "failure"]);
    expect(audits[0]?.actorUsername).toBeNull();
  });

  it("refuses an expired link with 410 expired", async () => {
    const { token } = await signedWithToken();
    const id = token.split(".")[0] as string;
    const deliveryId = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
    // Time passes: the row's expiry and a link carrying it, one second ago (the link signs its expiry).
    const expired = new Date(Math.floor(Date.now() / 1000) * 1000 - 1000);
    await harness.database.db
      .update(reportDeliveries)
      .set({ linkExpiresAt: expired })
      .where(eq(reportDeliveries.id, deliveryId));
    const secret = await loadServerSecret(harness.database.db, "report-links");
    const stale = signLink(secret, { id: deliveryId, expiresAt: expired });
    for (const call of ["lookup", "download"] as const) {
      const response = await linkCall(harness, call, stale);
      expect(response.statusCode).toBe(410);
      // With the client's zone, so the page says the time as the e-mail did.
      expect(response.json().error.details).toEqual({
        reason: "expired",
        at: expired.toISOString(),
        timeZone: expect.any(String),
      });
    }
    // The original link (carrying the old expiry) no longer matches the row: not valid at all.
    expect((await linkCall(harness, "download", token)).statusCode).toBe(404);
  });

  it("answers 404 to a forged or altered link, and 400 to what is not a link", async () => {
    const { token } = await signedWithToken();
    const [id, expiry, signature = ""] = token.split(".");
    const altered = `${id}.${expiry}.${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    for (const candidate of [altered, `${"0".repeat(32)}.${expiry}.${signature}`]) {
      const response = await linkCall(harness, "download", candidate);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.message).toBe("This link is not valid.");
    }
    expect((await linkCall(harness, "lookup", "not a link")).statusCode).toBe(400);
  });

  it("gives the PDF to exactly one of two downloads racing on one link", async () => {
    const { token } = await signedWithToken();
    const answers = await Promise.all([linkCall(harness, "download", token), linkCall(harness, "download", token)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 410]);
  });
});
