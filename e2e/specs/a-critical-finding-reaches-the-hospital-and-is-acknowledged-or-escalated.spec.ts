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

/** The demo client whose first two contacts are flagged for critical findings (apps/server/src/seed/demo-clients.ts). */
const client = "SMRMC";
const firstContact = { name: "Dr. Maria Alvarez", email: "malvarez@smrmc.example" };
const secondContact = { name: "James O'Connor, RN", email: "joconnor@smrmc.example" };

/** The link a finding's e-mail carries: the token in the address's fragment. */
function acknowledgementLinkIn(mail: CaughtMail): string {
  const link = /https?:\/\/\S+\/#\/acknowledge\/[A-Za-z0-9._-]+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`No acknowledgement link in the mail:\n${mail.text}`);
  return link;
}

function mailAbout(to: string, caseNumber: string) {
  return (mail: CaughtMail) => mail.to.includes(to) && mail.text.includes(caseNumber);
}

async function openCaseOverview(page: Page, caseId: string) {
  await page.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/overview`);
  return page.getByRole("region", { name: "Critical findings" });
}

/** The technologist raises a finding from the case overview: the button, then the dialog's form. */
async function raiseSeizureFinding(page: Page, caseId: string, description: string) {
  const panel = await openCaseOverview(page, caseId);
  await expect(panel.getByText("No critical findings on this case.")).toBeVisible();
  await panel.getByRole("button", { name: "Raise critical finding" }).click();
  const dialog = page.getByRole("dialog", { name: "Raise critical finding" });
  await dialog.getByRole("radio", { name: "Electrographic seizure (ESz)" }).check();
  await dialog.getByRole("textbox", { name: "Description" }).fill(description);
  await dialog.getByRole("button", { name: "Raise and notify" }).click();
  return dialog;
}

/** A fresh embedded database with the demo data (users, clients, flagged contacts) and a mail server of its own. */
async function startVigilWithMail(mail: MailCatcher): Promise<OwnServer<Record<string, Credential>>> {
  return startOwnServer(
    "critical-findings",
    {
      SMTP_URL: mail.url,
      MAIL_FROM: "vigil@vigil.example",
      // The worker looks for due escalations and messages every second, not every five.
      FINDING_WORKER_SECONDS: "1",
      LOG_LEVEL: "warn",
    },
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

test.describe("critical findings", () => {
  test("a technologist's seizure finding reaches the hospital by mail and is acknowledged with the link, signed out; one left unacknowledged escalates to the next contact and the coordinators' bell, and is acknowledged by phone", async ({
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
      const technologist = users.technologist as Credential;

      // Givens through the API: one case pinned to the demo protocol (15 minutes to acknowledge), then a protocol
      // revision of one minute and a second case pinned to it.
      const api = await CaseApi.signIn(baseURL, vigil.userPoolClientId, coordinator);
      const acknowledged = await api.caseInMonitoring({
        clientCode: client,
        technologist: "technologist",
        mrn: "MRN-CF-0001",
        firstName: "Ines",
        lastName: "Quartey",
      });
      await api.setCriticalFindingWindow(client, 1);
      const escalated = await api.caseInMonitoring({
        clientCode: client,
        technologist: "technologist",
        mrn: "MRN-CF-0002",
        firstName: "Omar",
        lastName: "Lindqvist",
      });

      const tech = await signedInPage(browser, baseURL, technologist, displayNames.technologist);

      await test.step("the technologist raises a seizure finding and sees who is being told", async () => {
        const dialog = await raiseSeizureFinding(tech, acknowledged.id, "Right temporal rhythmic discharges, 40 s");
        await expect(dialog.getByRole("status")).toHaveText(
          `Electrographic seizure (ESz) raised on ${acknowledged.caseNumber}.`,
        );
        await expect(dialog.getByRole("list", { name: "Being told now" })).toContainText(firstContact.name);
        await expect(dialog).toContainText("(within 15 min)");
        await dialog.getByRole("button", { name: "Done" }).click();
        const card = tech.getByRole("article", { name: "Electrographic seizure (ESz)" });
        await expect(card).toContainText("Open: not acknowledged yet");
      });

      const link = await test.step("the hospital's first flagged contact receives the mail with the link", async () => {
        const message = await mail.waitFor(mailAbout(firstContact.email, acknowledged.caseNumber), 60_000);
        // By when, in the client's zone, in the subject a phone's notification shows.
        expect(message.subject).toMatch(
          new RegExp(`^Critical EEG finding — acknowledge by \\d\\d:\\d\\d \\S+ — ${acknowledged.caseNumber}$`),
        );
        expect(message.text).toContain("Finding: Electrographic seizure (ESz)");
        expect(message.text).toContain("Acknowledge by: ");
        // The minimum: no patient name, no free-text description.
        expect(message.text).not.toContain("Quartey");
        expect(message.text).not.toContain("rhythmic discharges");
        return acknowledgementLinkIn(message);
      });

      await test.step("the link, opened with no account, acknowledges the finding with a name", async () => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.goto(link);
        await expect(page.getByRole("heading", { level: 1, name: "Critical EEG finding" })).toBeVisible();
        await expect(page.getByText(acknowledged.caseNumber)).toBeVisible();
        await expect(page.getByText("Electrographic seizure (ESz)")).toBeVisible();
        // What the physician needs to act: where the patient lies and by when.
        await expect(page.getByText("Neuro ICU")).toBeVisible();
        await expect(page.getByText("Acknowledge by")).toBeVisible();
        const findings = await scanAccessibility(page, "/acknowledge/<token>");
        expect(findings, reportAccessibility(findings)).toEqual([]);

        // The page greets them by name, and the form starts with it.
        await expect(page.getByRole("textbox", { name: "Your name" })).toHaveValue(firstContact.name);
        await page.getByRole("textbox", { name: "Read-back or note (optional)" }).fill("Seizure, right temporal");
        await page.getByRole("checkbox", { name: "This is my read-back of the finding shown above" }).check();
        await page.getByRole("button", { name: "Acknowledge" }).click();
        await expect(page.getByRole("status")).toContainText("Thank you. The finding is acknowledged.");
        await expect(page.getByRole("status")).toContainText(`Acknowledged by ${firstContact.name} on`);
        await expect(page.getByRole("status")).toContainText("Your read-back was recorded: “Seizure, right temporal”");
        // Still the public page: no account was asked for.
        expect(page.url()).toBe(link);
        const after = await scanAccessibility(page, "/acknowledge/<token> acknowledged");
        expect(after, reportAccessibility(after)).toEqual([]);

        // The link works once.
        await page.reload();
        await expect(page.getByRole("alert")).toContainText("This link has already been used.");
        await expect(page.getByRole("button")).toHaveCount(0);
        await context.close();
      });

      await test.step("the coordinator sees it acknowledged, with its times", async () => {
        const page = await signedInPage(browser, baseURL, coordinator, displayNames.coordinator);
        await openCaseOverview(page, acknowledged.id);
        const card = page.getByRole("article", { name: "Electrographic seizure (ESz)" });
        await expect(card.getByText("Acknowledged", { exact: true })).toBeVisible();
        await expect(card).toContainText(`by ${firstContact.name}, with the link in the message`);
        await expect(card).toContainText("read back: “Seizure, right temporal”");
        await expect(card).toContainText("Within the 15-minute window");
        await expect(card).toContainText("after it was raised");
        await expect(card).not.toContainText("Not sent yet");
        await page.context().close();
      });

      await test.step("a finding nobody acknowledges within its minute goes to the next flagged contact", async () => {
        const dialog = await raiseSeizureFinding(tech, escalated.id, "Generalized periodic discharges evolving");
        await expect(dialog).toContainText("(within 1 min)");
        await dialog.getByRole("button", { name: "Done" }).click();
        await mail.waitFor(mailAbout(firstContact.email, escalated.caseNumber), 60_000);
        const second = await mail.waitFor(mailAbout(secondContact.email, escalated.caseNumber), 150_000);
        expect(second.text).toContain("/#/acknowledge/");
        // An escalation never reads like the first message.
        expect(second.subject).toMatch(/^Escalation 1: critical EEG finding NOT yet acknowledged/);

        await tech.reload();
        const card = tech.getByRole("article", { name: "Electrographic seizure (ESz)" });
        await expect(card).toContainText("1 so far");
        await expect(card).toContainText("Missed: overdue by");
        const escalationRow = card.getByRole("row").filter({ hasText: secondContact.name });
        await expect(escalationRow.first()).toContainText("Escalation 1");
      });

      await test.step("the coordinator, e-mailed at each escalation, finds it under the bell and records the hospital's phone call", async () => {
        const page = await signedInPage(browser, baseURL, coordinator, displayNames.coordinator);
        await page.getByRole("button", { name: /^Clock alerts, \d+ unread$/ }).click();
        const bell = page.getByRole("dialog", { name: "Clock alerts" });
        const alert = bell.getByRole("link", {
          name: new RegExp(`Case ${escalated.caseNumber}: Critical finding acknowledgement overdue`),
        });
        await expect(alert).toBeVisible();
        await alert.click();
        await expect(page).toHaveURL(new RegExp(`#/continuous-monitoring/cases/monitoring/${escalated.id}/overview$`));

        const card = page.getByRole("article", { name: "Electrographic seizure (ESz)" });
        await card.getByRole("button", { name: "Record phone acknowledgement" }).click();
        const dialog = page.getByRole("dialog", { name: "Record phone acknowledgement" });
        await dialog.getByRole("textbox", { name: "Acknowledged by" }).fill(secondContact.name);
        // The time is left as the dialog opened: "now".
        await dialog.getByRole("checkbox", { name: "They read the finding back correctly" }).check();
        await dialog.getByRole("button", { name: "Record acknowledgement" }).click();
        await expect(dialog).toBeHidden();
        await expect(card.getByText("Acknowledged", { exact: true })).toBeVisible();
        await expect(card).toContainText(`by ${secondContact.name}, by phone`);
        await page.context().close();
      });
      await tech.context().close();
    } finally {
      await vigil?.stop();
      await mail.stop();
    }
  });
});
