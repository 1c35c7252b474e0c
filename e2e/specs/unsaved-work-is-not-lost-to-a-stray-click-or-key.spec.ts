import { displayNames, expect, mainNavigation, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";

/** A case in monitoring (where case notes are written), read through the API as the coordinator. */
async function monitoringCaseId(baseURL: string, clientId: string, credential: { username: string; password: string }) {
  const { idToken } = await signInThroughApi(baseURL, clientId, credential);
  const response = await fetch(`${baseURL}/api/continuous-monitoring/cases/monitoring?limit=1`, {
    headers: { authorization: `Bearer ${idToken}` },
  });
  expect(response.status).toBe(200);
  const id = ((await response.json()) as { data: { items: { id: string }[] } }).data.items[0]?.id;
  if (!id) throw new Error("The demo data has no case in monitoring.");
  return id;
}

test.describe("unsaved work", () => {
  test("a half-filled New client form asks before a menu entry leaves it, and staying keeps the typing", async ({
    page,
    state,
  }) => {
    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
    await page.goto("/#/continuous-monitoring/clients/create");
    await expect(page.getByRole("heading", { level: 1, name: "New client" })).toBeVisible();
    const name = page.getByRole("textbox", { name: "Name", exact: true });
    await name.fill("St. Mary's Regional");

    await mainNavigation(page).getByRole("link", { name: "Clients", exact: true }).click();
    const question = page.getByRole("dialog", { name: "Leave this page?" });
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Stay on this page" }).click();
    await expect(question).toBeHidden();
    await expect(page).toHaveURL(/#\/continuous-monitoring\/clients\/create$/);
    await expect(name).toHaveValue("St. Mary's Regional");

    // Closing the tab asks the browser's own question.
    const prompt = page.waitForEvent("dialog");
    await page.close({ runBeforeUnload: true });
    const dialog = await prompt;
    expect(dialog.type()).toBe("beforeunload");
    await dialog.dismiss();
    await expect(name).toHaveValue("St. Mary's Regional");

    // Leaving on purpose goes where the user asked.
    await mainNavigation(page).getByRole("link", { name: "Clients", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Leave this page?" })
      .getByRole("button", { name: "Leave and discard" })
      .click();
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  });

  test("a case note being typed survives a stray Escape", async ({ page, state }) => {
    const coordinator = seededUser(state, "coordinator");
    const caseId = await monitoringCaseId(state.baseURL, state.userPoolClientId, coordinator);
    await signInToHome(page, coordinator, displayNames.coordinator);
    await page.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/case-notes`);
    await page.getByRole("button", { name: "Add case note" }).click();
    const editor = page.getByRole("dialog", { name: "Add case note" });
    const note = editor.getByRole("textbox", { name: /^Note/ });
    await note.fill("Patient pulled at the leads at 14:02; reapplied T3 and T4.");

    await page.keyboard.press("Escape");
    const question = page.getByRole("dialog", { name: "Discard your changes?" });
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Keep editing" }).click();
    await expect(question).toBeHidden();
    await expect(editor).toBeVisible();
    await expect(note).toHaveValue("Patient pulled at the leads at 14:02; reapplied T3 and T4.");

    // A click beside the dialog is asked about the same way; discarding closes it.
    await page.mouse.click(5, 5);
    await question.getByRole("button", { name: "Discard changes" }).click();
    await expect(editor).toBeHidden();
  });
});
