import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { CaseApi } from "../support/case-api.js";
import { type Credential, repoRoot } from "../support/environment.js";
import { displayNames, expect, signInToHome, test } from "../support/fixtures.js";
import { readDemoCredentials } from "../support/global-setup.js";
import { signInThroughApi } from "../support/identity-api.js";
import { type MailCatcher, startMailCatcher } from "../support/mail-catcher.js";
import { type OwnServer, startOwnServer } from "../support/own-server.js";

const run = promisify(execFile);

/** A demo client without a rate for the current month, and its contact who pays the invoices. */
const clientCode = "LCH";
const billingContact = { email: "kwatanabe@lakeside-childrens.example" };

/** A fresh embedded database with the demo data and a mail relay of its own (the shared server sends no mail). */
async function startVigilWithMail(mail: MailCatcher): Promise<OwnServer<Record<string, Credential>>> {
  return startOwnServer(
    "invoice-paid",
    { SMTP_URL: mail.url, MAIL_FROM: "vigil@vigil.example", LOG_LEVEL: "warn" },
    async (env, dataDir) => {
      await run("npm", ["run", "db:seed", "-w", "@vigil/server"], { cwd: repoRoot, env, maxBuffer: 32 * 1024 * 1024 });
      return readDemoCredentials(path.join(dataDir, "demo-credentials.txt"));
    },
  );
}

/** "November 2026" and the calendar day of an instant in a time zone, as the billing screens name them. */
function calendarIn(instant: Date, timeZone: string): { month: string; day: string } {
  const month = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long" }).format(instant);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
  return { month, day };
}

function addDays(day: string, days: number): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** "$1,234.56" (or "-12.50") as integer cents. */
function centsOf(amount: string): number {
  const match = /^(-)?\$?([\d,]+)\.(\d{2})$/.exec(amount.trim());
  if (!match) throw new Error(`Not an amount: ${amount}`);
  const cents = Number((match[2] as string).replace(/,/g, "")) * 100 + Number(match[3]);
  return match[1] ? -cents : cents;
}

function decimalOf(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Cents as the screens show dollars in the browser's en-US locale: "$3,406.25". */
function dollars(cents: number): string {
  return `$${Number(decimalOf(cents)).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
}

type IifTransaction = { type: string; docNumber: string; amounts: number[] };

/**
 * A QuickBooks Desktop IIF file read as its TRNS/SPL…/ENDTRNS groups (tab-separated rows, columns named by the
 * `!TRNS` and `!SPL` header rows), each with the amounts in cents of its TRNS and SPL rows; throws on a row out of
 * place, so a malformed file fails the journey.
 */
function readIif(text: string): IifTransaction[] {
  const columns: Record<string, string[]> = {};
  const transactions: IifTransaction[] = [];
  let open: IifTransaction | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line === "") continue;
    const cells = line.split("\t");
    const kind = cells[0] as string;
    if (kind.startsWith("!")) {
      columns[kind.slice(1)] = cells;
      continue;
    }
    const field = (name: string) => cells[(columns[kind] ?? []).indexOf(name)] ?? "";
    if (kind === "TRNS") {
      if (open) throw new Error(`TRNS inside an open transaction: ${line}`);
      open = { type: field("TRNSTYPE"), docNumber: field("DOCNUM"), amounts: [centsOf(field("AMOUNT"))] };
    } else if (kind === "SPL") {
      if (!open) throw new Error(`SPL outside a transaction: ${line}`);
      open.amounts.push(centsOf(field("AMOUNT")));
    } else if (kind === "ENDTRNS") {
      if (!open) throw new Error("ENDTRNS without a TRNS");
      transactions.push(open);
      open = null;
    } else throw new Error(`Unknown IIF row: ${line}`);
  }
  if (open) throw new Error("The file ends inside a transaction");
  return transactions;
}

/** Records a payment on the payments page and applies all of it to the invoice. */
async function recordPayment(
  page: Page,
  payment: { client: string; receivedOn: string; cents: number; reference: string; invoice: string },
) {
  await page.getByRole("button", { name: "Record payment" }).click();
  const dialog = page.getByRole("dialog", { name: "Record a payment" });
  await dialog.getByLabel("Client").selectOption({ label: `${payment.client} (${clientCode})` });
  await dialog.getByLabel(/^Received on/).fill(payment.receivedOn);
  await dialog.getByRole("textbox", { name: /^Amount(\s*\*)?$/ }).fill(decimalOf(payment.cents));
  await dialog.getByLabel(/^Reference/).fill(payment.reference);
  await dialog.getByRole("combobox", { name: "Apply to invoice" }).click();
  await page.getByRole("option", { name: new RegExp(`^${payment.invoice} `) }).click();
  await dialog.getByRole("button", { name: "Record payment" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole("table", { name: "Payments" }).getByRole("row").filter({ hasText: payment.reference });
  // Amount, applied to the invoice, and nothing left as credit.
  const cells = row.getByRole("cell");
  await expect(cells.nth(4)).toHaveText(dollars(payment.cents));
  await expect(cells.nth(5)).toHaveText(dollars(payment.cents));
  await expect(cells.nth(6)).toHaveText("$0.00");
}

test.describe("billing: invoices to paid", () => {
  test("an issued month's invoice reaches the billing contact as its PDF, is paid in two parts with the rest overdue in between, and shows in the statement of account and a balanced IIF export", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const mail = await startMailCatcher();
    let vigil: OwnServer<Record<string, Credential>> | undefined;
    try {
      vigil = await startVigilWithMail(mail);
      const { baseURL } = vigil;
      const users = vigil.prepared;
      const coordinator = await CaseApi.signIn(baseURL, vigil.userPoolClientId, users.coordinator as Credential);
      const client = await coordinator.client(clientCode);

      // The givens through the API: a case with 90 minutes of monitoring, and a billing profile that e-mails each
      // invoice to the client's billing contact when it is issued.
      const { id: caseId } = await coordinator.caseInMonitoring({
        clientCode,
        technologist: "technologist",
        mrn: `PAY-${Date.now().toString(36).toUpperCase()}`,
        firstName: "Ada",
        lastName: "Moreno",
      });
      const endedAt = new Date(Date.now() - 5 * 60_000);
      const startedAt = new Date(endedAt.getTime() - 90 * 60_000);
      await coordinator.logTime(caseId, { mode: "continuous", video: true, startedAt, endedAt, channels: 21 });
      await coordinator.endMonitoring(caseId);
      const { idToken } = await signInThroughApi(baseURL, vigil.userPoolClientId, users.billing as Credential);
      const authorization = `Bearer ${idToken}`;
      const contacts = (await (
        await fetch(`${baseURL}/api/continuous-monitoring/clients/${client.id}/contacts`, {
          headers: { authorization },
        })
      ).json()) as { data: { _id: string; email: string | null }[] };
      const contact = contacts.data.find((candidate) => candidate.email === billingContact.email);
      if (!contact) throw new Error(`No contact ${billingContact.email} at ${clientCode}`);
      const profile = await fetch(`${baseURL}/api/billing/clients/${client.id}/profile`, {
        method: "PUT",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({
          legalName: null,
          poNumber: "PO-7781",
          paymentTermsDays: 30,
          taxRatePercent: null,
          showPatientNames: false,
          billingContactIds: [contact._id],
          sendOnIssue: true,
          baseVersion: null,
        }),
      });
      expect(profile.status, await profile.text()).toBe(200);

      const context = await browser.newContext({ baseURL, acceptDownloads: true });
      const billing = await context.newPage();
      await signInToHome(billing, users.billing as Credential, displayNames.billing);
      const month = calendarIn(startedAt, client.timezone).month;

      const invoice = await test.step("billing sets the month's rate and issues its statement", async () => {
        await billing.goto(`/#/billing/continuous-monitoring/${client.id}`);
        await billing.getByRole("button", { name: `Set rate for ${month}` }).click();
        const rateDialog = billing.getByRole("dialog");
        await rateDialog.getByLabel(/^Hourly rate/).fill("137.50");
        await rateDialog.getByRole("button", { name: "Save rate" }).click();
        await expect(rateDialog).toBeHidden();
        await billing.getByRole("link", { name: `${month} statement` }).click();
        await billing.getByRole("button", { name: "Issue statement" }).click();
        await billing
          .getByRole("dialog", { name: `Issue the statement for ${month}?` })
          .getByRole("button", { name: "Issue statement" })
          .click();
        const statement = billing.getByRole("article", { name: `Monthly statement: ${client.name}, ${month}` });
        const invoiceLink = statement.locator("dt:text-is('Invoice') + dd").getByRole("link");
        const number = (await invoiceLink.innerText()).trim();
        expect(number).toMatch(/^INV-\d{4}-\d{5}$/);

        await invoiceLink.click();
        const document = billing.getByRole("article", { name: `Invoice ${number}` });
        const detail = (term: string) => document.locator(`dt:text-is('${term}') + dd`);
        await expect(detail("Status")).toHaveText("Issued");
        const issueDate = (await detail("Issue date").innerText()).trim();
        const dueDate = (await detail("Due date").innerText()).trim();
        expect(dueDate).toBe(addDays(issueDate, 30));
        const total = centsOf(await detail("Total due").innerText());
        const sha256 = (await billing.getByText(/^PDF SHA-256:/).innerText()).replace("PDF SHA-256:", "").trim();
        expect(sha256).toMatch(/^[0-9a-f]{64}$/);
        // The e-mail leaves through the job room after the issue's answer; the invoice's list follows it.
        const sending = billing.getByRole("table", { name: "E-mails of this invoice" }).getByRole("row").nth(1);
        await expect(sending).toContainText("Sent on issue", { timeout: 30_000 });
        await expect(sending).toContainText(billingContact.email);
        return { number, id: billing.url().split("/").pop() as string, issueDate, dueDate, total, sha256 };
      });

      await test.step("the billing contact's mailbox holds the invoice PDF exactly as issued", async () => {
        const caught = await mail.waitFor(
          (message) => message.to.includes(billingContact.email) && message.subject.includes(invoice.number),
        );
        const parsed = await simpleParser(caught.raw as Buffer);
        const pdfs = parsed.attachments.filter((attachment) => attachment.contentType === "application/pdf");
        expect(pdfs).toHaveLength(1);
        expect(
          createHash("sha256")
            .update((pdfs[0] as { content: Buffer }).content)
            .digest("hex"),
        ).toBe(invoice.sha256);
        // An invoice travels to accounts payable: its e-mail names no patient.
        expect(parsed.text ?? "").not.toContain("Moreno");
      });

      const firstPart = 10_000;
      const rest = invoice.total - firstPart;
      expect(rest).toBeGreaterThan(0);
      const received = invoice.issueDate;
      const firstReference = `CHK-${Date.now().toString(36).toUpperCase()}`;

      await test.step("a partial payment is recorded and applied to the invoice", async () => {
        await billing.goto("/#/billing/payments");
        const payment = { client: client.name, receivedOn: received, invoice: invoice.number };
        await recordPayment(billing, { ...payment, cents: firstPart, reference: firstReference });
      });

      await test.step("ten days after the due date, the rest is overdue by 1–30 days", async () => {
        const asOf = addDays(invoice.dueDate, 10);
        await billing.goto(`/#/billing/receivables?asOf=${asOf}`);
        const row = billing.getByRole("table", { name: "Aging by client" }).getByRole("row").filter({
          hasText: client.name,
        });
        const cells = row.getByRole("cell");
        await expect(cells.nth(1)).toHaveText("$0.00");
        await expect(cells.nth(2)).toHaveText(dollars(rest));
        await expect(cells.nth(3)).toHaveText("$0.00");
        await expect(cells.nth(7)).toHaveText(dollars(rest));
        await expect(cells.nth(8)).toHaveText(`${invoice.number} (10 days)`);
      });

      const secondReference = `${firstReference}-2`;
      await test.step("a second payment settles the invoice", async () => {
        await billing.goto("/#/billing/payments");
        const payment = { client: client.name, receivedOn: received, invoice: invoice.number };
        await recordPayment(billing, { ...payment, cents: rest, reference: secondReference });
        await billing.goto(`/#/billing/invoices/${invoice.id}`);
        await expect(
          billing.getByRole("article", { name: `Invoice ${invoice.number}` }).locator("dt:text-is('Status') + dd"),
        ).toHaveText("Paid");
        // The invoice page lists both payments as applied, with what was left due after each.
        const applied = billing
          .getByRole("table", { name: `Payments and credits applied to ${invoice.number}` })
          .getByRole("row");
        await expect(applied).toHaveCount(3);
        const first = applied.nth(1).getByRole("cell");
        await expect(first.nth(4)).toHaveText(firstReference);
        await expect(first.nth(5)).toHaveText(dollars(firstPart));
        await expect(first.nth(6)).toHaveText(dollars(rest));
        const second = applied.nth(2).getByRole("cell");
        await expect(second.nth(4)).toHaveText(secondReference);
        await expect(second.nth(5)).toHaveText(dollars(rest));
        await expect(second.nth(6)).toHaveText("$0.00");
      });

      await test.step("the statement of account shows the invoice, both payments and nothing owed", async () => {
        await billing.goto(`/#/billing/receivables/${client.id}`);
        // The page's one table (a scroll region named for it only when it overflows).
        const rows = billing.getByRole("main").getByRole("table").getByRole("row");
        await expect(rows.filter({ hasText: "Balance brought forward" })).toContainText("$0.00");
        await expect(rows.filter({ has: billing.getByRole("cell", { name: "Invoice", exact: true }) })).toContainText(
          dollars(invoice.total),
        );
        const payments = rows.filter({ has: billing.getByRole("cell", { name: "Payment", exact: true }) });
        await expect(payments).toHaveCount(2);
        await expect(payments.nth(0)).toContainText(dollars(firstPart));
        await expect(rows.last()).toContainText("Balance");
        await expect(rows.last().getByRole("cell").last()).toHaveText("$0.00");
      });

      await test.step("the period's IIF export downloads and every transaction balances", async () => {
        await billing.goto("/#/billing/exports");
        await billing.getByLabel("From (issue date)").fill(invoice.issueDate);
        await billing.getByLabel("To (issue date)").fill(invoice.issueDate);
        const downloadStarted = billing.waitForEvent("download");
        await billing.getByRole("button", { name: "Export" }).click();
        const download = await downloadStarted;
        expect(download.suggestedFilename()).toMatch(/\.iif$/);
        const transactions = readIif(readFileSync((await download.path()) as string, "utf8"));
        for (const transaction of transactions) {
          expect(
            transaction.amounts.reduce((sum, amount) => sum + amount, 0),
            transaction.docNumber,
          ).toBe(0);
        }
        const invoiceEntry = transactions.find((entry) => entry.type === "INVOICE");
        expect(invoiceEntry?.docNumber).toBe(invoice.number);
        expect(invoiceEntry?.amounts[0]).toBe(invoice.total);
        // A payment's TRNS puts it into undeposited funds, its reference as the document number.
        const payments = transactions.filter((entry) => entry.type === "PAYMENT");
        expect(payments.map((entry) => [entry.docNumber, entry.amounts[0]]).sort()).toEqual(
          [
            [firstReference, firstPart],
            [secondReference, rest],
          ].sort(),
        );
        await expect(
          billing.getByRole("table", { name: "Exports so far" }).getByRole("row").filter({ hasText: "IIF" }),
        ).toContainText("First export of this period");
      });
      await context.close();
    } finally {
      await vigil?.stop();
      await mail.stop();
    }
  });
});
