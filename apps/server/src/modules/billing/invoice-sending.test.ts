import { createHash } from "node:crypto";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import type {
  ClientBillingProfile,
  Disclosure,
  Invoice,
  InvoicePage,
  InvoiceSending,
  IssuedStatement,
} from "@vigil/contract";
import { eq, sql } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, invoiceSendings } from "../../db/schema.js";
import { loadServerSecret } from "../../identity/server-secrets-repository.js";
import { signLink } from "../../links/signed-links.js";
import { clientIn, issueStatement, logTime, monitoredCase, setRate } from "../../testing/kits/billing-kit.js";
import { auditRows, type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { appOnSameDatabase } from "../../testing/kits/findings-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

/** A real SMTP peer that keeps each message's raw bytes (mailparser reads them as a mail client would). */
async function startRawMailServer() {
  const received: { to: string[]; raw: Buffer }[] = [];
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(_address, _session, callback) {
      callback(refusing ? Object.assign(new Error("Relay access denied"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((address) => address.address), raw: Buffer.concat(chunks) });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    received,
    refuse: (next: boolean) => {
      refusing = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let mail: Awaited<ReturnType<typeof startRawMailServer>>;
let harness: TestApp;
let team: Team;

beforeAll(async () => {
  mail = await startRawMailServer();
  harness = await createTestApp({ SMTP_URL: mail.url });
  team = await teamFor(harness, "invoice-sending");
}, 60_000);
afterAll(async () => {
  await harness.close();
  await mail.close();
});

const profilePath = (clientId: string) => `/api/billing/clients/${clientId}/profile`;

/** A client with two billing contacts (one without e-mail), a June of 4 h at 150.00, and its profile set. */
async function billedClient(profile: Partial<ClientBillingProfile>) {
  const client = await clientIn(team, "UTC");
  const contact = async (name: string, email: string | null) => {
    const response = await team.coordinator("POST", `/clients/${client.id}/contacts`, {
      body: { name, email, phone: email ? null : "+15555550123", role: "Accounts payable" },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data._id as string;
  };
  const suffix = client.id.slice(0, 8);
  const payable = await contact("Avery Payable", `ap.${suffix}@hospital.example`);
  const noEmail = await contact("Front desk", null);
  const subject = await monitoredCase(harness, team, client.id);
  await logTime(team.technologist, subject.id, "2026-06-10T08:00:00.000Z", "2026-06-10T12:00:00.000Z");
  expect((await setRate(team.billing, client.id, "2026-06", "150")).statusCode).toBe(200);
  const saved = await team.billing("PUT", profilePath(client.id), {
    body: {
      legalName: null,
      poNumber: "PO-1",
      paymentTermsDays: 30,
      taxRatePercent: null,
      showPatientNames: false,
      billingContactIds: [payable, noEmail],
      baseVersion: null,
      ...profile,
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return { client, payable, subject, email: `ap.${suffix}@hospital.example` };
}

async function issuedInvoice(clientId: string): Promise<Invoice> {
  const issued = await issueStatement(team.billing, clientId, "2026-06");
  expect(issued.statusCode, issued.body).toBe(201);
  const statement: IssuedStatement = issued.json().data;
  const page: InvoicePage = (await team.billing("GET", `/api/billing/invoices?clientId=${clientId}`)).json().data;
  const summary = page.items.find((item) => item.month === statement.month);
  return (await team.billing("GET", `/api/billing/invoices/${summary?.id}`)).json().data;
}

async function sendingsOf(invoiceId: string): Promise<InvoiceSending[]> {
  const response = await team.billing("GET", `/api/billing/invoices/${invoiceId}/sendings`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items;
}

/** Runs the job room on a second app until `done` holds (at most 20 s). */
async function runJobsUntil(done: () => Promise<boolean>) {
  const runner = await appOnSameDatabase(harness, { runJobs: true });
  try {
    const started = Date.now();
    while (!(await done())) {
      if (Date.now() - started > 20_000) throw new Error("the invoice e-mail did not leave within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await runner.close();
  }
}

describe("sending an invoice to the client's billing contacts", () => {
  it("e-mails the PDF as issued on issue, byte for byte, and logs who, when, to whom and how it went", async () => {
    const { client, email } = await billedClient({ sendOnIssue: true });
    const invoice = await issuedInvoice(client.id);
    const [queued] = await sendingsOf(invoice.id);
    expect(queued).toMatchObject({ purpose: "invoice", trigger: "on-issue", status: "pending" });
    // Only the contact with an e-mail address is a recipient.
    expect(queued?.recipients.map((recipient) => recipient.email)).toEqual([email]);

    await runJobsUntil(async () => (await sendingsOf(invoice.id))[0]?.status === "sent");
    const message = mail.received.find((received) => received.to.includes(email));
    expect(message).toBeDefined();
    const parsed = await simpleParser(message?.raw as Buffer);
    expect(parsed.subject).toContain(invoice.number);
    expect(parsed.text).toContain(`${invoice.total} ${invoice.currency}`);
    expect(parsed.text).not.toContain("Patient");
    expect(parsed.attachments).toHaveLength(1);
    const [pdf] = parsed.attachments;
    expect(pdf?.filename).toBe(`${invoice.number}.pdf`);
    expect(pdf?.contentType).toBe("application/pdf");
    const digest = createHash("sha256")
      .update(pdf?.content as Buffer)
      .digest("hex");
    expect(digest).toBe(invoice.pdfSha256);
    const [sent] = await sendingsOf(invoice.id);
    expect(sent).toMatchObject({
      status: "sent",
      attachmentSha256: invoice.pdfSha256,
      lastError: null,
      delivery: "attachment",
      linkExpiresAt: null,
    });
    expect(sent?.requestedBy.username).toMatch(/billing/);
    expect(sent?.finishedAt).not.toBeNull();
    expect(await auditRows(harness, "billing.invoice.sent", invoice.id)).toHaveLength(1);
  }, 60_000);

  it("records a disclosure per patient when the e-mailed invoice names them, and none when it does not", async () => {
    const disclosuresOf = async (caseId: string) => {
      const [row] = await harness.database.db.select({ mrn: cases.patientMrn }).from(cases).where(eq(cases.id, caseId));
      const page = await team.admin("GET", `/api/audit/disclosures?mrn=${encodeURIComponent(row?.mrn ?? "")}`);
      expect(page.statusCode, page.body).toBe(200);
      return (page.json().data.items as Disclosure[]).filter((item) => item.caseId === caseId);
    };
    const named = await billedClient({ sendOnIssue: true, showPatientNames: true });
    const unnamed = await billedClient({ sendOnIssue: true, showPatientNames: false });
    const invoices = [await issuedInvoice(named.client.id), await issuedInvoice(unnamed.client.id)];
    expect(invoices[0]?.lines[0]?.patientName).toBeTruthy();
    await runJobsUntil(async () => {
      const sendings = await Promise.all(invoices.map((invoice) => sendingsOf(invoice.id)));
      return sendings.every((list) => list[0]?.status === "sent");
    });

    const [disclosure, ...more] = await disclosuresOf(named.subject.id);
    expect(more).toEqual([]);
    expect(disclosure).toMatchObject({
      kind: "invoice-sent",
      patient: { name: invoices[0]?.lines[0]?.patientName },
      clientId: named.client.id,
      reportId: null,
      recipient: `Avery Payable <${named.email}>`,
    });
    expect(await disclosuresOf(unnamed.subject.id)).toEqual([]);
  }, 60_000);

  it("sends again on request, once per request, and keeps a refused relay's reason until it goes through", async () => {
    const { client, email } = await billedClient({ sendOnIssue: false });
    const invoice = await issuedInvoice(client.id);
    expect(await sendingsOf(invoice.id)).toEqual([]);

    mail.refuse(true);
    const requested = await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
    expect(requested.statusCode, requested.body).toBe(201);
    const sendingId = requested.json().data.id as string;
    await runJobsUntil(async () => (await sendingsOf(invoice.id))[0]?.lastError !== null);
    const [refused] = await sendingsOf(invoice.id);
    expect(refused).toMatchObject({ id: sendingId, status: "pending" });
    expect(refused?.lastError).toMatch(/Relay access denied|550/);

    mail.refuse(false);
    await harness.database.db.execute(
      sql`update jobs set run_at = now() where kind = 'invoice-sending' and state = 'waiting'`,
    );
    const before = mail.received.filter((received) => received.to.includes(email)).length;
    await runJobsUntil(async () => (await sendingsOf(invoice.id))[0]?.status === "sent");
    const again = await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
    expect(again.statusCode, again.body).toBe(201);
    await runJobsUntil(async () => (await sendingsOf(invoice.id)).every((sending) => sending.status === "sent"));
    expect(mail.received.filter((received) => received.to.includes(email)).length - before).toBe(2);
    expect((await sendingsOf(invoice.id)).map((sending) => sending.trigger)).toEqual(["manual", "manual"]);
  }, 90_000);

  it("refuses to send without a billing contact, and a profile naming another client's contact", async () => {
    const { client } = await billedClient({ billingContactIds: [] });
    const invoice = await issuedInvoice(client.id);
    const refused = await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toMatch(/no billing contact/);
    const other = await billedClient({});
    const wrong = await team.billing("PUT", profilePath(client.id), {
      body: {
        legalName: null,
        poNumber: null,
        paymentTermsDays: 30,
        taxRatePercent: null,
        showPatientNames: false,
        billingContactIds: [other.payable],
        baseVersion: 1,
      },
    });
    expect(wrong.statusCode, wrong.body).toBe(400);
    expect(await sendingsOf(invoice.id)).toEqual([]);
  }, 60_000);
});

/** The one-time links in the e-mails to `email`, oldest first. */
async function invoiceTokensIn(email: string): Promise<string[]> {
  const tokens: string[] = [];
  for (const message of mail.received.filter((received) => received.to.includes(email))) {
    const parsed = await simpleParser(message.raw);
    for (const match of (parsed.text ?? "").matchAll(/#\/invoice\/([A-Za-z0-9._-]+)/g)) tokens.push(match[1] ?? "");
  }
  return tokens;
}

function downloadLink(token: string) {
  return harness.app.inject({ method: "POST", url: "/api/invoice-links/download", payload: { token } });
}

describe("sending an invoice as a one-time link", () => {
  it("e-mails a link instead of the PDF; the link gives the PDF as issued once, then says it was used", async () => {
    const { client, email } = await billedClient({ sendOnIssue: true, invoiceDelivery: "link" });
    expect((await team.billing("GET", profilePath(client.id))).json().data.invoiceDelivery).toBe("link");
    const invoice = await issuedInvoice(client.id);
    await runJobsUntil(async () => (await sendingsOf(invoice.id))[0]?.status === "sent");
    const [sent] = await sendingsOf(invoice.id);
    expect(sent).toMatchObject({ delivery: "link", linkOpenedAt: null, attachmentSha256: invoice.pdfSha256 });
    expect(Date.parse(sent?.linkExpiresAt ?? "") - Date.parse(sent?.finishedAt ?? "")).toBeGreaterThan(71 * 3_600_000);

    const message = mail.received.find((received) => received.to.includes(email));
    const parsed = await simpleParser(message?.raw as Buffer);
    expect(parsed.subject).toContain(invoice.number);
    expect(parsed.attachments).toEqual([]);
    expect(parsed.text).toMatch(/the link works once, until/);
    const [token] = await invoiceTokensIn(email);
    expect(token).toBeTruthy();

    const download = await downloadLink(token as string);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["cache-control"]).toBe("no-store");
    expect(download.headers["content-disposition"]).toMatch(`attachment; filename="${invoice.number}.pdf"`);
    expect(createHash("sha256").update(download.rawPayload).digest("hex")).toBe(invoice.pdfSha256);
    const [opened] = await sendingsOf(invoice.id);
    expect(opened?.linkOpenedAt).not.toBeNull();
    expect(await auditRows(harness, "billing.invoice-link.download", invoice.id)).toHaveLength(1);

    const again = await downloadLink(token as string);
    expect(again.statusCode, again.body).toBe(410);
    expect(again.json().error).toMatchObject({ code: "gone", details: { reason: "used", at: opened?.linkOpenedAt } });
    expect(again.json().error.message).toMatch(/already used/);
    const forged = await downloadLink(`${(token as string).slice(0, -2)}AA`);
    expect(forged.statusCode, forged.body).toBe(404);
  }, 60_000);

  it("sends again with a new link of its own, while the attachment mode keeps attaching", async () => {
    const { client, email } = await billedClient({ invoiceDelivery: "link" });
    const invoice = await issuedInvoice(client.id);
    for (let time = 0; time < 2; time += 1) {
      const requested = await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
      expect(requested.statusCode, requested.body).toBe(201);
      expect(requested.json().data.delivery).toBe("link");
    }
    await runJobsUntil(async () => (await sendingsOf(invoice.id)).every((sending) => sending.status === "sent"));
    const tokens = await invoiceTokensIn(email);
    expect(tokens).toHaveLength(2);
    expect(new Set(tokens).size).toBe(2);
    for (const token of tokens) expect((await downloadLink(token)).statusCode).toBe(200);
    expect((await sendingsOf(invoice.id)).every((sending) => sending.linkOpenedAt !== null)).toBe(true);

    // Back to attachments: the next e-mail attaches the PDF and carries no link.
    const profile = (await team.billing("GET", profilePath(client.id))).json().data as ClientBillingProfile;
    const { clientId: _, version, ...rest } = profile;
    const saved = await team.billing("PUT", profilePath(client.id), {
      body: { ...rest, invoiceDelivery: "attachment", baseVersion: version },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
    await runJobsUntil(async () => (await sendingsOf(invoice.id)).every((sending) => sending.status === "sent"));
    const [latest] = await sendingsOf(invoice.id);
    expect(latest).toMatchObject({ delivery: "attachment", linkExpiresAt: null });
    const messages = mail.received.filter((received) => received.to.includes(email));
    const last = await simpleParser(messages.at(-1)?.raw as Buffer);
    expect(last.attachments).toHaveLength(1);
    expect(last.text).not.toContain("#/invoice/");
  }, 90_000);

  it("refuses an expired link with 410 and leaves it unopened", async () => {
    const { client } = await billedClient({ invoiceDelivery: "link" });
    const invoice = await issuedInvoice(client.id);
    const requested = await team.billing("POST", `/api/billing/invoices/${invoice.id}/sendings`, { body: {} });
    const sendingId = requested.json().data.id as string;
    const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await harness.database.db
      .update(invoiceSendings)
      .set({ linkExpiresAt: expiresAt })
      .where(eq(invoiceSendings.id, sendingId));
    const token = signLink(await loadServerSecret(harness.database.db, "invoice-links"), { id: sendingId, expiresAt });
    const expired = await downloadLink(token);
    expect(expired.statusCode, expired.body).toBe(410);
    expect(expired.json().error.details).toMatchObject({ reason: "expired", at: expiresAt.toISOString() });
    expect((await sendingsOf(invoice.id))[0]?.linkOpenedAt).toBeNull();
  }, 60_000);
});
