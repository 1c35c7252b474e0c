import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "@playwright/test";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { reportAccessibility, scanAccessibility } from "../support/accessibility-scan.js";
import { CaseApi } from "../support/case-api.js";
import { type Credential, repoRoot } from "../support/environment.js";
import { displayNames, expect, signInToHome, test } from "../support/fixtures.js";
import { readDemoCredentials } from "../support/global-setup.js";
import { type CaughtMail, type MailCatcher, startMailCatcher } from "../support/mail-catcher.js";
import { type OwnServer, startOwnServer } from "../support/own-server.js";

const run = promisify(execFile);

/** A demo client and its first contact (apps/server/src/seed/demo-clients.ts). */
const client = "SMRMC";
const recipient = { name: "Dr. Maria Alvarez", email: "malvarez@smrmc.example" };
const patient = { mrn: `RPT-${Date.now().toString(36).toUpperCase()}`, firstName: "Noor", lastName: "Haddad" };

/** The link a report's e-mail carries: the token in the address's fragment. */
function downloadLinkIn(mail: CaughtMail): string {
  const link = /https?:\/\/\S+\/#\/report\/[A-Za-z0-9._-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No report link in the mail:\n${mail.text}`);
  return link;
}

/** Every text item of every page of a PDF, joined with spaces. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: true }).promise;
  const parts: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    for (const item of content.items) if ("str" in item) parts.push(item.str);
  }
  return parts.join(" ").replace(/\s+/g, " ");
}

/** A fresh embedded database with the demo data (users, clients and their contacts) and a mail server of its own. */
async function startVigilWithMail(mail: MailCatcher): Promise<OwnServer<Record<string, Credential>>> {
  return startOwnServer(
    "signed-report",
    { SMTP_URL: mail.url, MAIL_FROM: "vigil@vigil.example", LOG_LEVEL: "warn" },
    async (env, dataDir) => {
      await run("npm", ["run", "db:seed", "-w", "@vigil/server"], { cwd: repoRoot, env, maxBuffer: 32 * 1024 * 1024 });
      return readDemoCredentials(path.join(dataDir, "demo-credentials.txt"));
    },
  );
}

async function signedInPage(browser: Browser, baseURL: string, user: Credential, name: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signInToHome(page, user, name);
  return page;
}

test.describe("signed reports", () => {
  test("a reviewer's signed interpretation becomes a report e-mailed to the protocol's recipient, whose link downloads the PDF once, signed out; staff see the download and send a new link", async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    const mail = await startMailCatcher();
    let vigil: OwnServer<Record<string, Credential>> | undefined;
    try {
      vigil = await startVigilWithMail(mail);
      const { baseURL } = vigil;
      const users = vigil.prepared;
      const coordinator = users.coordinator as Credential;
      const reviewer = users.reviewer as Credential;
      const api = await CaseApi.signIn(baseURL, vigil.userPoolClientId, coordinator);
      const clientId = await api.clientIdByCode(client);

      await test.step("a coordinator names the client's report recipient in a new protocol revision", async () => {
        const page = await signedInPage(browser, baseURL, coordinator, displayNames.coordinator);
        await page.goto(`/#/continuous-monitoring/clients/${clientId}/protocol?view=new`);
        const recipients = page.getByRole("group", { name: "Report recipients" });
        await recipients.getByRole("checkbox", { name: new RegExp(recipient.name) }).check();
        await page.getByRole("button", { name: "Save revision" }).click();
        await expect(page.getByRole("heading", { name: "Current protocol: revision 2" })).toBeVisible();
        await expect(page.getByText(`${recipient.name} (${recipient.email})`)).toBeVisible();
        await page.context().close();
      });

      // The given: a case whose monitoring has ended, waiting for its interpretation.
      const studied = await api.caseInMonitoring({ clientCode: client, technologist: "technologist", ...patient });
      await api.endMonitoring(studied.id);

      const page = await signedInPage(browser, baseURL, reviewer, displayNames.reviewer);
      const reports = page.getByRole("region", { name: "Reports" });

      await test.step("the reviewer writes and signs the interpretation; its report appears under it", async () => {
        await page.goto(`/#/continuous-monitoring/cases/preview/${studied.id}/interpretations`);
        await expect(reports.getByText(/No signed report yet/)).toBeVisible();
        await page.getByRole("button", { name: "Add interpretation" }).click();
        const editor = page.getByRole("dialog", { name: "Add interpretation" });
        await editor.getByLabel(/^Impression(\s*\*)?$/).fill("Normal for age; no epileptiform discharges.");
        await editor.getByRole("button", { name: "Save" }).click();
        await expect(editor).toBeHidden();
        await page.getByRole("button", { name: "Sign as final" }).click();
        await page
          .getByRole("dialog", { name: "Sign this interpretation as final?" })
          .getByRole("button", { name: "Sign as final" })
          .click();

        const version = reports.getByRole("region", { name: /, version 1 \(the signed report\)$/ });
        await expect(version).toBeVisible();
        await expect(version).toContainText(`Signed by ${displayNames.reviewer}`);
        const delivery = version.getByRole("row").filter({ hasText: recipient.name });
        // The e-mail leaves after the signing's answer; the list follows it until it is sent.
        await expect(delivery).toContainText("Sent", { timeout: 30_000 });
        await expect(delivery).toContainText("Not yet");
      });

      const link = await test.step("the recipient receives an e-mail with a link and no patient details", async () => {
        const message = await mail.waitFor(
          (caught) => caught.to.includes(recipient.email) && caught.text.includes(studied.caseNumber),
          60_000,
        );
        // The subject names the kind of report and its dates: a case has a 24-hour report a day and a summary.
        expect(message.subject).toMatch(
          new RegExp(`^EEG report ready: ${studied.caseNumber}, 24-hour report, \\w{3} \\d`),
        );
        expect(message.text).not.toContain(patient.lastName);
        expect(message.text).not.toContain(patient.mrn);
        return downloadLinkIn(message);
      });

      await test.step("the link, opened with no account, downloads the PDF once", async () => {
        const context = await browser.newContext({ acceptDownloads: true });
        const holder = await context.newPage();
        await holder.goto(link);
        await expect(holder.getByRole("heading", { level: 1, name: "EEG report" })).toBeVisible();
        await expect(holder.getByText(studied.caseNumber)).toBeVisible();
        await expect(holder.getByText(`for ${recipient.name}`)).toBeVisible();
        const findings = await scanAccessibility(holder, "/report/<token>");
        expect(findings, reportAccessibility(findings)).toEqual([]);

        const [download] = await Promise.all([
          holder.waitForEvent("download"),
          holder.getByRole("button", { name: "Download PDF" }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`EEG-report-${studied.caseNumber}-v1.pdf`);
        const bytes = readFileSync(await download.path());
        expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
        const text = await pdfText(bytes);
        expect(text).toContain(`${patient.lastName}, ${patient.firstName}`);
        expect(text).toContain(patient.mrn);
        await expect(holder.getByRole("status")).toContainText("The report is downloaded.");
        await expect(holder.getByRole("button")).toHaveCount(0);
        // Still the public page: no account was asked for, and the token never left the fragment.
        expect(holder.url()).toBe(link);

        // A second use is refused, plainly.
        await holder.reload();
        await expect(holder.getByRole("alert")).toContainText("This link has already been used.");
        await expect(holder.getByRole("button")).toHaveCount(0);
        await context.close();
      });

      await test.step("the reviewer sees when it was downloaded, and sends a new link", async () => {
        await page.reload();
        const version = reports.getByRole("region", { name: /, version 1 \(the signed report\)$/ });
        const first = version.getByRole("row").filter({ hasText: "On signing" });
        await expect(first).toContainText(recipient.name);
        await expect(first).not.toContainText("Not yet");
        const sections = await scanAccessibility(page, "interpretations › Reports");
        expect(sections, reportAccessibility(sections)).toEqual([]);

        await version.getByRole("button", { name: "Send again: version 1" }).click();
        const dialog = page.getByRole("dialog", { name: "Send version 1 again" });
        // The protocol's recipient is picked to begin with.
        await expect(dialog.getByRole("checkbox", { name: new RegExp(recipient.name) })).toBeChecked();
        const inDialog = await scanAccessibility(page, "Send version 1 again", '[role="dialog"]');
        expect(inDialog, reportAccessibility(inDialog)).toEqual([]);
        await dialog.getByRole("button", { name: "Send" }).click();
        await expect(page.getByRole("status").filter({ hasText: "A new link to version 1" })).toContainText(
          `is on its way to ${recipient.name}.`,
        );
        const resent = version.getByRole("row").filter({ hasText: displayNames.reviewer });
        await expect(resent).toContainText("Sent", { timeout: 30_000 });
        await expect(resent).toContainText("Not yet");
        const again = await mail.waitFor(
          (caught) => caught.to.includes(recipient.email) && downloadLinkIn(caught) !== link,
          60_000,
        );
        expect(again.subject).toMatch(
          new RegExp(`^EEG report ready: ${studied.caseNumber}, 24-hour report, \\w{3} \\d`),
        );
        await page.context().close();
      });

      await test.step("an administrator's accounting of disclosures lists the e-mail and the download", async () => {
        const admin = await signedInPage(browser, baseURL, users.admin as Credential, displayNames.admin);
        await admin.goto(`/#/audit/disclosures?mrn=${patient.mrn}`);
        const table = admin.getByRole("table", { name: "Disclosures" });
        await expect(table.getByRole("row").filter({ hasText: "Report downloaded with a link" })).toHaveCount(1);
        await expect(admin.getByText(`${patient.lastName}, ${patient.firstName}, MRN ${patient.mrn}`)).toBeVisible();
        await expect(table.getByRole("row").filter({ hasText: "Report link e-mailed" })).toHaveCount(2);
        const findings = await scanAccessibility(admin, "/audit/disclosures?mrn=…");
        expect(findings, reportAccessibility(findings)).toEqual([]);
        await admin.context().close();
      });
    } finally {
      await vigil?.stop();
      await mail.stop();
    }
  });
});
