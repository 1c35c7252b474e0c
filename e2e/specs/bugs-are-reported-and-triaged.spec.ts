import type { Browser, Page } from "@playwright/test";
import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { accountButton, displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { chooseMenuItem } from "../support/menus.js";

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

test.describe("bug reports", () => {
  test("a technologist files a bug from a case page, the report carries that page, and a developer triages it", async ({
    browser,
    state,
  }) => {
    test.setTimeout(180_000);
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const { id: caseId } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn: `BUG-${Date.now().toString(36).toUpperCase()}`,
      firstName: "Robin",
      lastName: "Hale",
    });
    const title = `Impedance grid hides O2 (${Date.now().toString(36)})`;
    const casePath = `/continuous-monitoring/cases/monitoring/${caseId}/impedances`;

    // --- The technologist is on the case's impedances tab and reports a bug from the user menu.
    const technologist = await signedInPage(browser, state, "technologist");
    await technologist.goto(`/#${casePath}`);
    await expect(technologist.getByRole("tab", { name: "Impedances", selected: true })).toBeVisible();
    await accountButton(technologist, displayNames.technologist).click();
    await chooseMenuItem(technologist, "Report a bug");
    const dialog = technologist.getByRole("dialog", { name: "Report a bug" });
    await dialog.getByLabel(/^Title/).fill(title);
    await dialog.getByLabel(/^What happened/).fill("The O2 electrode is cut off on the right of the grid.");
    await dialog.getByLabel(/^Steps to reproduce/).fill("Open Impedances, add a check, scroll right.");
    await dialog.getByLabel(/^Severity/).selectOption("medium");
    // What is sent by itself: the page the user is on.
    const sentWith = dialog.getByRole("region", { name: "Sent with your report" });
    await expect(sentWith).toContainText(casePath);
    await dialog.getByRole("button", { name: "Send report" }).click();
    const filed = technologist.getByText(/Thanks — filed as BUG-\d+/);
    await expect(filed).toBeVisible();
    const number = ((await filed.innerText()).match(/BUG-\d+/) ?? [""])[0];
    // The user is still where they were.
    await expect(dialog).toBeHidden();
    expect(new URL(technologist.url()).hash).toBe(`#${casePath}`);

    // --- A developer finds it, sees the page it came from, and triages it.
    const developer = await signedInPage(browser, state, "developer");
    await developer.goto(`/#/bugs?search=${encodeURIComponent(number)}`);
    const reports = developer.getByRole("table", { name: "Bug reports" });
    await reports.getByRole("link", { name: title }).click();
    const detail = developer.getByRole("dialog", { name: `${number}: ${title}` });
    await expect(detail).toContainText(casePath);
    await expect(detail).toContainText(displayNames.technologist);
    await detail.getByLabel(/^New status/).selectOption("triaged");
    await detail.getByLabel(/^Comment/).fill("Reproduced at 1366 px; the grid needs to wrap.");
    await detail.getByRole("button", { name: "Change status" }).click();
    await expect(detail.getByText("Moved to Triaged.")).toBeVisible();
    const history = detail.getByRole("list", { name: "History" });
    await expect(history).toContainText("Reproduced at 1366 px; the grid needs to wrap.");
    await expect(history).toContainText(displayNames.developer);
  });
});

test.describe("the audit viewer", () => {
  test("an administrator finds who opened a case from the case's audit trail", async ({ browser, state }) => {
    test.setTimeout(120_000);
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const { id: caseId } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn: `AUD-${Date.now().toString(36).toUpperCase()}`,
      firstName: "Alex",
      lastName: "Moreno",
    });

    // The reviewer opens the case's patient details: a read of patient data.
    const reviewer = await signedInPage(browser, state, "reviewer");
    await reviewer.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/patient-details`);
    await expect(reviewer.getByText("Moreno").first()).toBeVisible();

    const admin = await signedInPage(browser, state, "admin");
    await admin.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/timeline`);
    await admin.getByRole("link", { name: "Audit trail" }).click();
    await expect(admin).toHaveURL(new RegExp(`/audit\\?.*caseId=${caseId}`));
    const events = admin.getByRole("table", { name: "Audit events" });
    const readsByReviewer = events
      .getByRole("row")
      .filter({ hasText: "patient-data.read" })
      .filter({ hasText: seededUser(state, "reviewer").username });
    await expect(readsByReviewer.first()).toBeVisible();
    // Only this case's events are listed.
    await expect(admin.getByText(`Case ${caseId}`)).toBeVisible();
  });
});
