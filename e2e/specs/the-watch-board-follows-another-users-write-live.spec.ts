import AxeBuilder from "@axe-core/playwright";
import type { Browser, Locator, Page } from "@playwright/test";
import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

/** The board's data rows, in its order (the header row aside). */
const boardRows = (page: Page) => page.getByRole("table", { name: "Watch board" }).locator("tbody > tr");

/** A form field by its label, whether or not the label carries the required-field asterisk. */
function field(scope: Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return scope.getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`));
}

test.describe("the watch board", () => {
  test("a coordinator's board moves a case down within 2 s of a technologist writing its overdue impedance check in another browser", async ({
    browser,
    state,
  }) => {
    test.setTimeout(180_000);
    const suffix = Date.now().toString(36).toUpperCase();
    const lastName = `Vigil${suffix}`;
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const client = await coordinatorApi.client("PNI");
    const { id: caseId, caseNumber } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn: `WCH-${suffix}`,
      firstName: "Quinn",
      lastName,
    });
    // The recording started 60 days ago with no impedance check since: overdue by far the longest of the client's
    // open cases, so it is the board's first row.
    const { idToken } = await signInThroughApi(state.baseURL, state.userPoolClientId, seededUser(state, "coordinator"));
    const caseUrl = `${state.baseURL}/api/continuous-monitoring/cases/${caseId}`;
    const authorization = `Bearer ${idToken}`;
    const { data: current } = (await (await fetch(caseUrl, { headers: { authorization } })).json()) as {
      data: { version: number };
    };
    const patched = await fetch(caseUrl, {
      method: "PATCH",
      headers: { authorization, "content-type": "application/json", "if-match": `"${current.version}"` },
      body: JSON.stringify({ recordingStartedAt: new Date(Date.now() - 60 * 24 * 3_600_000).toISOString() }),
    });
    expect(patched.status).toBe(200);

    // --- Browser 1: the coordinator watches the client's part of the board.
    const coordinator = await signedInPage(browser, state, "coordinator");
    await coordinator.goto(`/#/watch?client=${client.id}`);
    const firstRow = boardRows(coordinator).first();
    await expect(firstRow).toContainText(`Quinn ${lastName}`);
    await expect(firstRow).toContainText("Overdue");
    await expect(firstRow).toContainText("Impedance check");
    await expect(firstRow.getByRole("link", { name: `Record impedance check: ${caseNumber}` })).toHaveAttribute(
      "href",
      `#/continuous-monitoring/cases/monitoring/${caseId}/impedances`,
    );
    // The board itself (the app bar around it is every page's, scanned by the accessibility journey).
    const { violations } = await new AxeBuilder({ page: coordinator })
      .include("main")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .options({ resultTypes: ["violations"] })
      .analyze();
    expect(violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? ""))).toEqual([]);

    // --- Browser 2: the technologist writes the impedance check on the case's tab.
    const technologist = await signedInPage(browser, state, "technologist");
    await technologist.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/impedances`);
    await technologist.getByRole("button", { name: "Add impedance check" }).click();
    const dialog = technologist.getByRole("dialog", { name: "Add impedance check" });
    for (const [electrode, kohm] of Object.entries({ Fp1: "3", Fp2: "4", O1: "2" })) {
      await field(dialog, `${electrode} (kΩ)`).fill(kohm);
    }
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();

    // --- Browser 1, without a reload: the case leaves the top within 2 s, its clock restarted and on time.
    await expect(firstRow).not.toContainText(`Quinn ${lastName}`, { timeout: 2_000 });
    const movedRow = boardRows(coordinator).filter({ hasText: `Quinn ${lastName}` });
    await expect(movedRow).toContainText("On time");
    await coordinator.context().close();
    await technologist.context().close();
  });
});
