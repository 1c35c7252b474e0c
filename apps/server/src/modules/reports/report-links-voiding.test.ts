import type { Contact, ReportDelivery, ReportList, ReportVersion } from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportDisclosures } from "../../db/schema.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { sampleProtocol } from "../../testing/kits/clients-kit.js";
import {
  clientNamingRecipients,
  linkCall,
  type ReportContacts,
  reportTokensFor,
  signedCase,
} from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/*
 * A report link downloads the patient's report for whoever holds the mailbox: it stops working when staff withdraw
 * it, when its recipient is removed or their address changes, and when a newer link goes to the same person — and
 * each withdrawal is in the accounting of disclosures.
 */

let harness: TestApp;
let team: Team;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "voids");
}, 60_000);
afterAll(() => harness.close());

type Recipients = { clientId: string; contacts: ReportContacts; email: string };

async function recipients(): Promise<Recipients> {
  const { client, contacts } = await clientNamingRecipients(team);
  return { clientId: client.id, contacts, email: `nia.${client.id.slice(0, 8)}@hospital.example` };
}

async function signedWithToken(to: Recipients) {
  const { caseId } = await signedCase(harness, team, to.clientId);
  const list: ReportList = (await team.coordinator("GET", `/cases/${caseId}/reports`)).json().data;
  const report = list.items[0] as ReportVersion;
  const [token] = await reportTokensFor(harness, to.email);
  const delivery = report.deliveries.find((entry) => entry.contactId === to.contacts.withEmail) as ReportDelivery;
  return { caseId, report, delivery, token: token as string };
}

async function expectVoided(token: string) {
  for (const call of ["lookup", "download"] as const) {
    const response = await linkCall(harness, call, token);
    expect(response.statusCode, response.body).toBe(410);
    expect(response.json().error.details).toMatchObject({ reason: "voided", at: expect.any(String) });
    expect(response.json().error.message).toMatch(/withdrawn/);
  }
}

async function voidedDisclosures(caseId: string) {
  return harness.database.db
    .select()
    .from(reportDisclosures)
    .where(and(eq(reportDisclosures.caseId, caseId), eq(reportDisclosures.kind, "link-voided")));
}

describe("withdrawing a report's unused link", () => {
  it("lets staff void a link from the case's Reports list: it downloads nothing, and the accounting says so", async () => {
    const to = await recipients();
    const { caseId, report, delivery, token } = await signedWithToken(to);
    const path = `/cases/${caseId}/reports/${report.id}/deliveries/${delivery.id}/void`;

    const voided = await team.coordinator("POST", path);
    expect(voided.statusCode, voided.body).toBe(200);
    const after = (voided.json().data as ReportVersion).deliveries.find((entry) => entry.id === delivery.id);
    expect(after).toMatchObject({ voidedAt: expect.any(String), voidReason: "staff", openedAt: null });
    await expectVoided(token);

    const [disclosure, ...more] = await voidedDisclosures(caseId);
    expect(more).toEqual([]);
    expect(disclosure).toMatchObject({
      deliveryId: delivery.id,
      recipient: `Dr. Nia Neuro <${to.email}>`,
      byUsername: team.coordinator.username,
    });
    const audits = await auditRows(harness, "report-link.void", caseId);
    expect(audits.map((row) => [row.actorUsername, (row.details as { reason: string }).reason])).toEqual([
      [team.coordinator.username, "staff"],
    ]);

    const again = await team.coordinator("POST", path);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe("This link was already withdrawn.");
    // A reader of cases who does not send reports may not withdraw them either.
    expect((await team.technologist("POST", path)).statusCode).toBe(403);
  });

  it("refuses to void a link already used, with 409 saying so", async () => {
    const to = await recipients();
    const { caseId, report, delivery, token } = await signedWithToken(to);
    expect((await linkCall(harness, "download", token)).statusCode).toBe(200);
    const response = await team.coordinator(
      "POST",
      `/cases/${caseId}/reports/${report.id}/deliveries/${delivery.id}/void`,
    );
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toMatch(/already used/);
    expect(await voidedDisclosures(caseId)).toEqual([]);
  });

  it("voids the unused links of a contact who is removed, and of one whose address changes", async () => {
    const to = await recipients();
    const { caseId, token } = await signedWithToken(to);
    const omarEmail = `omar.${to.clientId.slice(0, 8)}@hospital.example`;
    const [omarToken] = await reportTokensFor(harness, omarEmail);

    const removed = await team.coordinator("DELETE", `/clients/${to.clientId}/contacts/${to.contacts.withEmail}`);
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    await expectVoided(token);

    const contacts: Contact[] = (await team.coordinator("GET", `/clients/${to.clientId}/contacts`)).json().data;
    const contact = contacts.find((entry) => entry._id === to.contacts.second) as Contact;
    const changed = await team.coordinator("PUT", `/clients/${to.clientId}/contacts/${to.contacts.second}`, {
      ifMatch: contact.version,
      body: {
        name: contact.name,
        email: `someone.else.${to.clientId.slice(0, 8)}@elsewhere.example`,
        phone: null,
        isPrimary: contact.isPrimary,
      },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await expectVoided(omarToken as string);

    const rows = await voidedDisclosures(caseId);
    expect(rows.map((row) => row.recipient).sort()).toEqual([
      `Dr. Nia Neuro <${to.email}>`,
      `Dr. Omar Oncall <${omarEmail}>`,
    ]);
    const reasons = (await auditRows(harness, "report-link.void", caseId)).map(
      (row) => (row.details as { reason: string }).reason,
    );
    expect(reasons.sort()).toEqual(["address-changed", "recipient-removed"]);
  });

  it("voids the links of a contact the protocol no longer names as a report recipient", async () => {
    const to = await recipients();
    const { caseId, token } = await signedWithToken(to);
    const protocol = (await team.coordinator("GET", `/clients/${to.clientId}/protocol`)).json().data;
    const revised = await team.coordinator("POST", `/clients/${to.clientId}/protocol/revisions`, {
      body: sampleProtocol({
        baseRevision: protocol.current.revision,
        reportRecipients: { contactIds: [to.contacts.second] },
      }),
    });
    expect(revised.statusCode, revised.body).toBe(201);
    await expectVoided(token);
    const rows = await voidedDisclosures(caseId);
    expect(rows.map((row) => row.recipient)).toEqual([`Dr. Nia Neuro <${to.email}>`]);
    // The contact still named keeps a working link.
    const [omarToken] = await reportTokensFor(harness, `omar.${to.clientId.slice(0, 8)}@hospital.example`);
    expect((await linkCall(harness, "lookup", omarToken as string)).statusCode).toBe(200);
  });

  it("voids the older unused link when a new one of the same version goes to the same person", async () => {
    const to = await recipients();
    const { caseId, report, token: first } = await signedWithToken(to);
    const resent = await team.coordinator("POST", `/cases/${caseId}/reports/${report.id}/deliveries`, {
      body: { contactIds: [to.contacts.withEmail] },
    });
    expect(resent.statusCode, resent.body).toBe(201);
    const [newest] = await reportTokensFor(harness, to.email);
    expect(newest).not.toBe(first);

    await expectVoided(first);
    expect((await linkCall(harness, "download", newest as string)).statusCode).toBe(200);
    const deliveries = (resent.json().data as ReportVersion).deliveries.filter(
      (entry) => entry.contactId === to.contacts.withEmail,
    );
    expect(deliveries.map((entry) => entry.voidReason)).toEqual(["superseded", null]);
    expect((await voidedDisclosures(caseId)).map((row) => row.byUsername)).toEqual([team.coordinator.username]);
  });
});
