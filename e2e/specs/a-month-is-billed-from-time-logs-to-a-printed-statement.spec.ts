import { readFileSync } from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL, acceptDownloads: true });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

/** "November 2026" and "2026-11" of an instant in a time zone, as the billing screens name months. */
function monthIn(instant: Date, timeZone: string): { label: string; key: string; day: string } {
  const label = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "long" }).format(instant);
  const day = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    instant,
  );
  return { label, key: day.slice(0, 7), day };
}

/** Every text item of every page of a PDF, joined with spaces. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  // pdf.js wants a plain Uint8Array (Playwright hands over a Buffer).
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: true }).promise;
  const parts: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    for (const item of content.items) if ("str" in item) parts.push(item.str);
  }
  return parts.join(" ").replace(/\s+/g, " ");
}

/** A CSV line's cells (quoted cells may hold commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      cell += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (char === "," && !quoted) {
      cells.push(cell);
      cell = "";
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

test.describe("billing", () => {
  test("a billing user sets a rate, issues and prints the statement, exports the report, closes the case; a re-opening waits for an admin and leaves the issued statement as it was", async ({
    browser,
    state,
  }) => {
    test.setTimeout(240_000);
    // Lakeside Children's (LCH) has no rate of its own for the current month in the demo data.
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const reviewerApi = await CaseApi.signIn(state.baseURL, state.userPoolClientId, seededUser(state, "reviewer"));
    const client = await coordinatorApi.client("LCH");
    const mrn = `BIL-${Date.now().toString(36).toUpperCase()}`;
    const { id: caseId, caseNumber } = await coordinatorApi.caseInMonitoring({
      clientCode: "LCH",
      technologist: "technologist",
      mrn,
      firstName: "Jordan",
      lastName: "Park",
    });
    // 90 minutes of continuous video monitoring: 1.50 billable hours, and under the 2 h of long-term EEG codes.
    let endedAt = new Date(Date.now() - 5 * 60_000);
    let startedAt = new Date(endedAt.getTime() - 90 * 60_000);
    // In the first 95 minutes of a month in the client's zone those 90 minutes would straddle two months, each
    // billed its own share: the log is put just before the month began instead.
    if (monthIn(startedAt, client.timezone).key !== monthIn(endedAt, client.timezone).key) {
      endedAt = startedAt;
      startedAt = new Date(endedAt.getTime() - 90 * 60_000);
    }
    await coordinatorApi.logTime(caseId, { mode: "continuous", video: true, startedAt, endedAt, channels: 21 });
    await coordinatorApi.endMonitoring(caseId);
    await reviewerApi.signInterpretation(caseId, { from: startedAt, to: endedAt });
    await reviewerApi.moveTo(caseId, "reviewed");
    const month = monthIn(startedAt, client.timezone);

    // --- The billing user finds the month without a rate and sets one.
    const billing = await signedInPage(browser, state, "billing");
    await billing.goto(`/#/billing/continuous-monitoring/${client.id}`);
    const monthsTable = billing.getByRole("table", { name: `${client.name}: billing by month` });
    // By the month's own link: the next month's row names this one too ("Inherited from November 2026").
    const monthRow = monthsTable
      .getByRole("row")
      .filter({ has: billing.getByRole("link", { name: `${month.label} statement`, exact: true }) });
    await expect(monthRow).toContainText("No rate");
    await billing.getByRole("button", { name: `Set rate for ${month.label}` }).click();
    const rateDialog = billing.getByRole("dialog");
    await rateDialog.getByLabel(/^Hourly rate/).fill("137.5x");
    await expect(rateDialog.getByText("must be an amount such as 125 or 125.50 (at most 2 decimals)")).toBeVisible();
    await rateDialog.getByLabel(/^Hourly rate/).fill("137.50");
    await rateDialog.getByRole("button", { name: "Save rate" }).click();
    await expect(rateDialog).toBeHidden();
    await expect(monthRow).not.toContainText("No rate");
    // Amounts name their currency (CURRENCY, USD by default), formatted for the browser's locale.
    await expect(monthRow).toContainText("$137.50 per hour");

    // --- The statement: the case's 1.50 h × 137.50 = 206.25, and the totals.
    await billing.getByRole("link", { name: `${month.label} statement` }).click();
    const statement = billing.getByRole("article", { name: `Monthly statement: ${client.name}, ${month.label}` });
    const caseLine = statement.getByRole("row").filter({ hasText: caseNumber });
    await expect(caseLine).toContainText("1.50");
    await expect(caseLine).toContainText("$206.25");
    await expect(statement.locator("dt:text-is('Statement') + dd")).toHaveText("Not issued yet");
    const totals = billing.getByRole("region", { name: "Totals" });
    const totalAmount = (await totals.locator("dt:text-is('Amount') + dd").innerText()).trim();
    const totalHours = (await totals.locator("dt:text-is('Hours') + dd").innerText()).trim();
    expect(totalAmount).toMatch(/^\$[\d,]+\.\d{2}$/);

    // --- Issuing freezes it: asked first, then numbered; a second click has nothing left to issue.
    await billing.getByRole("button", { name: "Issue statement" }).click();
    const issueDialog = billing.getByRole("dialog", { name: `Issue the statement for ${month.label}?` });
    await expect(issueDialog).toContainText(`${client.name} is billed ${totalAmount}`);
    await issueDialog.getByRole("button", { name: "Issue statement" }).click();
    await expect(issueDialog).toBeHidden();
    const issuedNotice = billing.getByRole("status").filter({ hasText: /Statement No\. \d+ was issued/ });
    await expect(issuedNotice).toBeVisible();
    const statementNumber = /Statement No\. (\d+)/.exec(await issuedNotice.innerText())?.[1] as string;
    await expect(statement.locator("dt:text-is('Statement') + dd")).toHaveText(`No. ${statementNumber}`);
    await expect(statement.locator("dt:text-is('Status') + dd")).toHaveText("Invoiced");
    await expect(billing.getByRole("button", { name: "Issue statement" })).toHaveCount(0);

    await billing.evaluate(() => {
      (window as unknown as { printCalls: number }).printCalls = 0;
      window.print = () => {
        (window as unknown as { printCalls: number }).printCalls++;
      };
    });
    await billing.getByRole("button", { name: "Print / Save as PDF" }).click();
    expect(await billing.evaluate(() => (window as unknown as { printCalls: number }).printCalls)).toBe(1);
    await billing.emulateMedia({ media: "print" });
    const printed = await pdfText(await billing.pdf({ format: "A4", printBackground: true }));
    await billing.emulateMedia({ media: "screen" });
    expect(printed).toContain(client.name);
    expect(printed).toContain(caseNumber);
    expect(printed).toContain("$206.25");
    expect(printed).toContain(totalAmount);
    expect(printed).toContain(totalHours);
    expect(printed).toContain(`No. ${statementNumber}`);
    // Screen-only controls and the live differences do not reach the paper.
    expect(printed).not.toContain("Print / Save as PDF");
    expect(printed).not.toContain("Changes since statement");

    // --- The billable-hours report by client, exported as CSV: its rows are the table's rows.
    const today = monthIn(new Date(), client.timezone).day;
    await billing.goto(
      `/#/reporting/continuous-monitoring?from=${month.key}-01&to=${today}&client=${client.id}&groupBy=client`,
    );
    const reportTable = billing.getByRole("table", { name: "Billable hours" });
    await expect(reportTable.getByRole("row").filter({ hasText: client.name })).toBeVisible();
    const downloadStarted = billing.waitForEvent("download");
    await billing.getByRole("button", { name: "Export CSV" }).click();
    const download = await downloadStarted;
    const csv = readFileSync((await download.path()) as string, "utf8").replace(/^\uFEFF/, "");
    const csvRows = csv
      .split(/\r?\n/)
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map(csvCells);
    const tableRows = await reportTable
      .getByRole("row")
      .evaluateAll((rows) =>
        rows.map((row) => Array.from(row.querySelectorAll("th, td")).map((cell) => (cell.textContent ?? "").trim())),
      );
    expect(csvRows).toEqual(tableRows);
    expect(csvRows.some((row) => row[0] === client.name)).toBe(true);

    // --- The case: the billing check fails on the unacknowledged CPT warning until a billing note acknowledges it.
    await billing.goto(`/#/continuous-monitoring/cases/reviewed/${caseId}/billing-notes`);
    await expect(billing.getByText("Not passed")).toBeVisible();
    await expect(billing.getByRole("button", { name: "Close case" })).toBeDisabled();
    await billing.getByRole("button", { name: "Add billing note" }).click();
    const noteDialog = billing.getByRole("dialog", { name: "Add billing note" });
    await noteDialog.getByLabel(/^Note/).fill("Short study (90 min): billed hourly only, no long-term EEG codes.");
    await noteDialog.getByLabel("Recording under 2 hours: long-term EEG codes do not apply").check();
    await noteDialog.getByRole("button", { name: "Save" }).click();
    await expect(noteDialog).toBeHidden();
    await expect(billing.getByText("Nothing in billing stands in the way of closing this case.")).toBeVisible();
    await billing.getByRole("button", { name: "Close case" }).click();
    await expect(billing).toHaveURL(new RegExp(`/continuous-monitoring/cases/closed/${caseId}/`));

    // --- Re-opening waits for an administrator, who approves it.
    // The closed case's screen is drawn from the close's answer and drawn again when its own read and the live
    // event come back; a dialog opened in between can go with the first drawing, so the request is sent from a
    // dialog that stayed open.
    const reopenDialog = billing.getByRole("dialog");
    await expect(async () => {
      if (!(await reopenDialog.isVisible())) await billing.getByRole("button", { name: "Request re-opening" }).click();
      await reopenDialog.getByLabel(/^Reason/).fill("Time log of the second night was missing.", { timeout: 2_000 });
      await reopenDialog.getByRole("button", { name: "Send request" }).click({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await expect(billing.getByText(/waiting for approval/i).first()).toBeVisible();
    await expect(billing).toHaveURL(new RegExp(`/cases/closed/${caseId}/`));

    const admin = await signedInPage(browser, state, "admin");
    await admin.goto(`/#/continuous-monitoring/cases/closed/${caseId}/timeline`);
    await admin.getByRole("button", { name: "Approve" }).click();
    const approveDialog = admin.getByRole("dialog");
    const confirm = approveDialog.getByRole("button", { name: "Approve" });
    await confirm.click();
    await expect(admin).toHaveURL(new RegExp(`/continuous-monitoring/cases/reviewed/${caseId}/`));

    // --- Re-opened, the month is still invoiced: its rate changes only with a reason, and the statement that was
    // sent stays as it was; the new rate shows as a difference to bill on the next statement (1.50 h × 2.50).
    await billing.goto(`/#/billing/continuous-monitoring/${client.id}`);
    await expect(monthRow).toContainText(`Invoiced: statement No. ${statementNumber}`);
    await billing.getByRole("button", { name: `Set rate for ${month.label}` }).click();
    await expect(rateDialog).toContainText("This month is invoiced: its statement has been issued.");
    await rateDialog.getByLabel(/^Hourly rate/).fill("140");
    await rateDialog.getByRole("button", { name: "Save rate" }).click();
    await expect(rateDialog.getByText("Reason is required: this month is invoiced")).toBeVisible();
    await rateDialog.getByLabel(/^Reason/).fill("Contract amendment: the new rate applies from this month.");
    await rateDialog.getByRole("button", { name: "Save rate" }).click();
    await expect(rateDialog).toBeHidden();
    await expect(monthRow).toContainText("$140.00 per hour");

    await billing.getByRole("link", { name: `${month.label} statement` }).click();
    await expect(statement.locator("dt:text-is('Statement') + dd")).toHaveText(`No. ${statementNumber}`);
    await expect(statement.locator("dt:text-is('Status') + dd")).toHaveText("Invoiced");
    await expect(caseLine).toContainText("$206.25");
    await expect(statement.locator("dt:text-is('Hourly rate') + dd")).toContainText("$137.50 per hour");
    await expect(totals.locator("dt:text-is('Amount') + dd")).toHaveText(totalAmount);
    const changes = billing.getByRole("region", { name: `Changes since statement No. ${statementNumber}` });
    await expect(changes).toContainText(
      "The rate is now $140.00 per hour; the statement was issued at $137.50 per hour.",
    );
    const changedLine = changes.getByRole("row").filter({ hasText: caseNumber });
    await expect(changedLine).toContainText("$210.00");
    await expect(changedLine).toContainText("+$3.75");
    await expect(changes).toContainText(/To bill on a supplementary invoice: \$[\d,]+\.\d{2}\./);
  });
});
