import type { Browser, Page } from "@playwright/test";
import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

test.describe("live updates (the event stream)", () => {
  test("a coordinator's case screen shows a technologist's new note, and the monitoring queue drops the case once it moves, within 2 s and without a reload", async ({
    browser,
    state,
  }) => {
    test.setTimeout(180_000);
    const suffix = Date.now().toString(36).toUpperCase();
    const mrn = `LIVE-${suffix}`;
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const { id: caseId, caseNumber } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn,
      firstName: "Morgan",
      lastName: `Live${suffix}`,
    });

    // --- Browser 1: the coordinator has the case's notes open and starts a note of their own.
    const coordinator = await signedInPage(browser, state, "coordinator");
    await coordinator.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/case-notes`);
    await coordinator.getByRole("button", { name: "Add case note" }).click();
    const draft = coordinator.getByRole("dialog", { name: "Add case note" });
    const draftText = "Family asked for a call after the morning review.";
    await draft.getByRole("textbox", { name: /^Note/ }).fill(draftText);

    // --- Browser 2: the technologist writes a note on the same case.
    const technologist = await signedInPage(browser, state, "technologist");
    await technologist.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/case-notes`);
    await technologist.getByRole("button", { name: "Add case note" }).click();
    const editor = technologist.getByRole("dialog", { name: "Add case note" });
    const noteText = `Leads re-gelled at 02:00 (${suffix}).`;
    await editor.getByRole("textbox", { name: /^Note/ }).fill(noteText);
    await editor.getByRole("button", { name: "Save" }).click();
    await expect(editor).toBeHidden();
    const written = Date.now();

    // --- Browser 1, without a reload: the refetch the event caused left the open draft as it was typed…
    await coordinator.waitForTimeout(Math.max(0, 2_000 - (Date.now() - written)));
    await expect(draft.getByRole("textbox", { name: /^Note/ })).toHaveValue(draftText);
    await draft.getByRole("button", { name: "Cancel" }).click();
    const discard = coordinator.getByRole("dialog", { name: "Discard your changes?" });
    if (await discard.isVisible()) await discard.getByRole("button", { name: "Discard changes" }).click();
    // …and the technologist's note is on the list already, with no reload.
    await expect(coordinator.getByText(noteText)).toBeVisible({ timeout: 500 });

    // --- Browser 1 watches the monitoring queue; the case ends monitoring elsewhere and leaves it within 2 s.
    // The case screen names the case too (breadcrumb): look for it in the queue, once the queue is on screen.
    await coordinator.goto(`/#/continuous-monitoring/cases/monitoring?search=${mrn}`);
    await expect(coordinator.getByRole("heading", { level: 1, name: "Monitoring cases" })).toBeVisible();
    const queued = coordinator.getByRole("main").getByRole("table").getByRole("link", { name: caseNumber });
    await expect(queued).toBeVisible();
    await coordinatorApi.endMonitoring(caseId);
    await expect(queued).toHaveCount(0, { timeout: 2_000 });
    await expect(coordinator.getByRole("heading", { level: 1, name: "Monitoring cases" })).toBeVisible();

    await coordinator.context().close();
    await technologist.context().close();
  });
});
