import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, Page } from "@playwright/test";
import { reportAccessibility, scanAccessibility } from "../support/accessibility-scan.js";
import { CaseApi } from "../support/case-api.js";
import { type Credential, repoRoot } from "../support/environment.js";
import { displayNames, expect, signInToHome, test } from "../support/fixtures.js";
import { readDemoCredentials } from "../support/global-setup.js";
import { type CaughtMail, type MailCatcher, startMailCatcher } from "../support/mail-catcher.js";
import { type OwnServer, startOwnServer } from "../support/own-server.js";

const run = promisify(execFile);

/** A demo client (its zone is America/New_York) and its first contact (apps/server/src/seed/demo-clients.ts). */
const client = "SMRMC";
const clientZone = "America/New_York";
const recipient = { name: "Dr. Maria Alvarez", email: "malvarez@smrmc.example" };
const patient = { mrn: `VOID-${Date.now().toString(36).toUpperCase()}`, firstName: "Ines", lastName: "Okafor" };

function downloadLinkIn(mail: CaughtMail): string {
  const link = /https?:\/\/\S+\/#\/report\/[A-Za-z0-9._-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No report link in the mail:\n${mail.text}`);
  return link;
}

/** A fresh embedded database with the demo data and a mail server of its own, so the link's e-mail can be read. */
async function startVigilWithMail(mail: MailCatcher): Promise<OwnServer<Record<string, Credential>>> {
  return startOwnServer(
    "withdrawn-report-link",
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

test.describe("withdrawn report links", () => {
  test("a report link staff withdrew before it was used tells its holder so and downloads nothing; the accounting of disclosures lists the withdrawal with the whole address", async ({
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

      // The givens: the client names the recipient, and a reviewer signed a case's interpretation.
      const setup = await signedInPage(browser, baseURL, coordinator, displayNames.coordinator);
      await setup.goto(`/#/continuous-monitoring/clients/${clientId}/protocol?view=new`);
      await setup
        .getByRole("group", { name: "Report recipients" })
        .getByRole("checkbox", { name: new RegExp(recipient.name) })
        .check();
      await setup.getByRole("button", { name: "Save revision" }).click();
      await expect(setup.getByRole("heading", { name: "Current protocol: revision 2" })).toBeVisible();
      await setup.context().close();
      const studied = await api.caseInMonitoring({ clientCode: client, technologist: "technologist", ...patient });
      await api.endMonitoring(studied.id);
      const reviewerApi = await CaseApi.signIn(baseURL, vigil.userPoolClientId, reviewer);
      await reviewerApi.signInterpretation(studied.id, { from: new Date(Date.now() - 3_600_000), to: new Date() });

      const link = downloadLinkIn(
        await mail.waitFor(
          (caught) => caught.to.includes(recipient.email) && caught.text.includes(studied.caseNumber),
          60_000,
        ),
      );

      // The recipient reads the link in Tokyo; the page words its times in the client's zone, as the e-mail did.
      const holderContext = await browser.newContext({ timezoneId: "Asia/Tokyo" });
      const holder = await holderContext.newPage();

      await test.step("the link's page gives its expiry in the client's zone, named, whatever the reader's zone", async () => {
        await holder.goto(link);
        await expect(holder.getByText(`for ${recipient.name}`)).toBeVisible();
        await expect(holder.getByText(/This link downloads the report once, until/)).toContainText(`(${clientZone})`);
        await expect(holder.locator("body")).not.toContainText("Asia/Tokyo");
      });

      await test.step("the reviewer voids the unused link from the case's Reports list, after confirming", async () => {
        const page = await signedInPage(browser, baseURL, reviewer, displayNames.reviewer);
        await page.goto(`/#/continuous-monitoring/cases/preview/${studied.id}/interpretations`);
        const version = page
          .getByRole("region", { name: "Reports" })
          .getByRole("region", { name: /, version 1 \(the signed report\)$/ });
        const delivery = version.getByRole("row").filter({ hasText: recipient.name });
        await expect(delivery).toContainText("Sent", { timeout: 30_000 });

        await delivery.getByRole("button", { name: `Void link: ${recipient.name}, version 1` }).click();
        const dialog = page.getByRole("dialog", { name: "Void this link?" });
        await expect(dialog).toContainText("will no longer download the report");
        const inDialog = await scanAccessibility(page, "Void this link?", '[role="dialog"]');
        expect(inDialog, reportAccessibility(inDialog)).toEqual([]);
        await dialog.getByRole("button", { name: "Void link" }).click();
        await expect(dialog).toBeHidden();
        await expect(page.getByRole("status").filter({ hasText: "no longer downloads the report" })).toBeVisible();
        await expect(delivery).toContainText("Withdrawn by staff");
        await expect(delivery.getByRole("button", { name: /^Void link/ })).toHaveCount(0);
        await page.context().close();
      });

      await test.step("the holder's page now says plainly that the link was withdrawn, with nothing to press", async () => {
        await holder.reload();
        await expect(holder.getByRole("alert")).toContainText("This link was withdrawn.");
        await expect(holder.getByRole("button")).toHaveCount(0);
        await holderContext.close();
      });

      await test.step("the administrator's accounting of disclosures lists the withdrawal, to the whole address", async () => {
        const admin = await signedInPage(browser, baseURL, users.admin as Credential, displayNames.admin);
        await admin.goto(`/#/audit/disclosures?mrn=${patient.mrn}`);
        const table = admin.getByRole("table", { name: "Disclosures" });
        const withdrawn = table.getByRole("row").filter({ hasText: "Report link withdrawn before use" });
        await expect(withdrawn).toHaveCount(1);
        await expect(withdrawn).toContainText(`${recipient.name} <${recipient.email}>`);
        await expect(table.getByRole("row").filter({ hasText: "Report link e-mailed" })).toContainText(recipient.email);
        await admin.context().close();
      });
    } finally {
      await vigil?.stop();
      await mail.stop();
    }
  });
});
