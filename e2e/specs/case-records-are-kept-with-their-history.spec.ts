import type { Browser, Locator, Page } from "@playwright/test";
import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const itemsOf = (page: Page, title: string) => page.getByRole("list", { name: title }).locator(":scope > li");
const editorDialog = (page: Page, title: string) => page.getByRole("dialog", { name: title });

/** A form field by its label, whether or not the label carries the required-field asterisk. */
function field(scope: Locator, label: string): Locator {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return scope.getByLabel(new RegExp(`^${escaped}(\\s*\\*)?$`));
}

async function fillImpedances(dialog: Locator, values: Record<string, string>) {
  for (const [electrode, kohm] of Object.entries(values)) {
    await field(dialog, `${electrode} (kΩ)`).fill(kohm);
  }
}

test.describe("per-case records", () => {
  test("technologist, reviewer and billing keep a case's records, each change kept as a revision", async ({
    browser,
    state,
  }) => {
    test.setTimeout(240_000);
    const mrn = `REC-${Date.now().toString(36).toUpperCase()}`;
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const { id: caseId } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn,
      firstName: "Morgan",
      lastName: "Lee",
    });
    const monitoringUrl = (tabName: string) => `/#/continuous-monitoring/cases/monitoring/${caseId}/${tabName}`;

    // --- The technologist corrects the patient's room: a new revision, the first one kept.
    const technologist = await signedInPage(browser, state, "technologist");
    await technologist.goto(monitoringUrl("patient-details"));
    await technologist.getByRole("button", { name: "Edit", exact: true }).click();
    const patientForm = technologist.getByRole("form", { name: "Edit patient details" });
    await field(patientForm, "Room").fill("12B");
    await patientForm.getByRole("button", { name: "Save" }).click();
    await expect(technologist.getByText(/^Revision 2 · last changed/)).toBeVisible();
    await technologist.getByRole("button", { name: "History", exact: true }).click();
    const patientHistory = technologist.getByRole("dialog", { name: /History of the patient details/ });
    await expect(patientHistory.getByRole("table", { name: "Revision 1 compared with revision 2" })).toContainText(
      "12B",
    );
    await patientHistory.getByRole("button", { name: "Close" }).click();

    // --- Two impedance checks; the second has an electrode above the protocol's 10 kΩ, which is flagged.
    await tab(technologist, "Impedances").click();
    await technologist.getByRole("button", { name: "Add impedance check" }).click();
    let dialog = editorDialog(technologist, "Add impedance check");
    await fillImpedances(dialog, { Fp1: "3", Fp2: "4.5", O1: "2" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(itemsOf(technologist, "Impedance checks")).toHaveCount(1);
    await technologist.getByRole("button", { name: "Add impedance check" }).click();
    dialog = editorDialog(technologist, "Add impedance check");
    await fillImpedances(dialog, { Fp1: "12", Fp2: "6", O1: "3" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    await expect(itemsOf(technologist, "Impedance checks")).toHaveCount(2);
    await expect(technologist.getByText("Flagged (above 10 kΩ): Fp1")).toBeVisible();
    await expect(technologist.getByText("Caution (5–10 kΩ): Fp2")).toBeVisible();

    // --- An event: the attending was notified by phone; later they acknowledge.
    await tab(technologist, "Events").click();
    await technologist.getByRole("button", { name: "Add event" }).click();
    dialog = editorDialog(technologist, "Add event");
    await field(dialog, "Type").selectOption({ label: "Seizure" });
    await field(dialog, "Description").fill("Right arm clonic jerking, 40 s.");
    await field(dialog, "Someone was notified").check();
    await dialog.getByLabel(/^Contact/).selectOption({ label: "Dr. Samuel Reyes — Medical director, EMU (primary)" });
    await field(dialog, "Method").selectOption({ label: "Phone" });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const events = itemsOf(technologist, "Events");
    await expect(events).toHaveCount(1);
    await expect(events.first()).toContainText("Dr. Samuel Reyes");
    await expect(events.first()).toContainText("Not acknowledged yet");
    await events.first().getByRole("button", { name: "Mark acknowledged" }).click();
    await expect(events.first()).not.toContainText("Not acknowledged yet");
    await expect(events.first()).toContainText("Revision 2");

    // --- Time logs with the timer: start, see it run, stop.
    await tab(technologist, "Time logs").click();
    await technologist.getByRole("button", { name: "Start timer" }).click();
    dialog = technologist.getByRole("dialog", { name: "Start a time log" });
    await field(dialog, "Monitoring mode").selectOption({ label: "Continuous real-time" });
    await dialog.getByRole("button", { name: "Start timer" }).click();
    const timer = technologist.getByRole("region", { name: "Your timer" });
    await expect(timer.getByRole("button", { name: "Stop timer" })).toBeVisible();
    await expect(itemsOf(technologist, "Time logs").first()).toContainText("Running");
    await timer.getByRole("button", { name: "Stop timer" }).click();
    await expect(technologist.getByRole("button", { name: "Start timer" })).toBeVisible();
    await expect(itemsOf(technologist, "Time logs").first()).not.toContainText("Running");
    await expect(itemsOf(technologist, "Time logs").first()).toContainText("Revision 2");

    // Interpretations are not the technologist's to write.
    await tab(technologist, "Interpretations").click();
    await expect(technologist.getByRole("button", { name: "Add interpretation" })).toHaveCount(0);

    // --- Monitoring ends; the reviewer writes, signs and amends the interpretation, then marks the case reviewed.
    await coordinatorApi.endMonitoring(caseId);
    const reviewer = await signedInPage(browser, state, "reviewer");
    await reviewer.goto(`/#/continuous-monitoring/cases/preview/${caseId}/interpretations`);
    const actions = reviewer.getByRole("region", { name: "What you can do" });
    await expect(actions.getByRole("button", { name: "Mark reviewed" })).toBeDisabled();
    await reviewer.getByRole("button", { name: "Add interpretation" }).click();
    dialog = editorDialog(reviewer, "Add interpretation");
    await field(dialog, "Background notes").fill("Diffuse slowing, reactive to stimulation.");
    await dialog.getByRole("button", { name: "Add finding" }).click();
    await field(dialog, "Finding 1 location").selectOption({ label: "Lateralized (L)" });
    await field(dialog, "Finding 1 pattern").selectOption({ label: "Periodic discharges (PD)" });
    await field(dialog, "Finding 1 prevalence").selectOption({ label: "Frequent (10–49%)" });
    await field(dialog, "Impression").fill("Abnormal: left lateralized periodic discharges.");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const interpretations = itemsOf(reviewer, "Interpretations");
    await expect(interpretations).toHaveCount(1);
    await expect(interpretations.first()).toContainText("Draft");
    await interpretations.first().getByRole("button", { name: "Sign as final" }).click();
    await reviewer
      .getByRole("dialog", { name: "Sign this interpretation as final?" })
      .getByRole("button", { name: "Sign as final" })
      .click();
    await expect(interpretations.first()).toContainText("Final");
    await expect(interpretations.first().getByRole("button", { name: "Edit" })).toHaveCount(0);
    await interpretations.first().getByRole("button", { name: "Add addendum" }).click();
    const addendum = reviewer.getByRole("dialog", { name: "Add an addendum" });
    await field(addendum, "Addendum").fill("Clinical team informed of the PDs at 14:05.");
    await addendum.getByRole("button", { name: "Add addendum" }).click();
    await expect(addendum).toBeHidden();
    await expect(interpretations.first()).toContainText("Clinical team informed of the PDs at 14:05.");
    await expect(interpretations.first()).toContainText("Abnormal: left lateralized periodic discharges.");
    await expect(actions.getByRole("button", { name: "Mark reviewed" })).toBeEnabled();
    await actions.getByRole("button", { name: "Mark reviewed" }).click();
    await expect(reviewer).toHaveURL(new RegExp(`#/continuous-monitoring/cases/reviewed/${caseId}/`));

    // --- Billing adds a billing note; a coordinator and the billing user then revise it at the same time.
    const billing = await signedInPage(browser, state, "billing");
    await billing.goto(`/#/continuous-monitoring/cases/reviewed/${caseId}/billing-notes`);
    await billing.getByRole("button", { name: "Add billing note" }).click();
    dialog = editorDialog(billing, "Add billing note");
    await field(dialog, "Note").fill("Continuous VEEG, 1 day.");
    await dialog.getByRole("button", { name: "Add CPT code" }).click();
    await field(dialog, "CPT code 1").fill("95720");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toBeHidden();
    const billingNotes = itemsOf(billing, "Billing notes");
    await expect(billingNotes).toHaveCount(1);
    await expect(billingNotes.first()).toContainText("95720");

    const coordinator = await signedInPage(browser, state, "coordinator");
    await coordinator.goto(`/#/continuous-monitoring/cases/reviewed/${caseId}/billing-notes`);
    const coordinatorNotes = itemsOf(coordinator, "Billing notes");
    await expect(coordinatorNotes).toHaveCount(1);

    // Both open the same revision for editing.
    await billingNotes.first().getByRole("button", { name: "Edit" }).click();
    await coordinatorNotes.first().getByRole("button", { name: "Edit" }).click();
    const billingEditor = editorDialog(billing, "Edit billing note");
    const coordinatorEditor = editorDialog(coordinator, "Edit billing note");

    // The billing user saves first: a new body.
    await field(billingEditor, "Note").fill("Continuous VEEG, 1 day; takedown next morning.");
    await billingEditor.getByRole("button", { name: "Save" }).click();
    await expect(billingEditor).toBeHidden();

    // The coordinator's save names the old revision: refused, both versions shown, nothing lost.
    await field(coordinatorEditor, "Adjustments").fill("No charge for the repeat set-up.");
    await coordinatorEditor.getByRole("button", { name: "Save" }).click();
    await expect(coordinatorEditor.getByRole("table", { name: "Their version compared with yours" })).toBeVisible();
    await coordinatorEditor.getByRole("button", { name: "Re-apply my changes on top" }).click();
    // Their body is kept, the coordinator's adjustment is on top of it.
    await expect(field(coordinatorEditor, "Note")).toHaveValue("Continuous VEEG, 1 day; takedown next morning.");
    await expect(field(coordinatorEditor, "Adjustments")).toHaveValue("No charge for the repeat set-up.");
    await coordinatorEditor.getByRole("button", { name: "Save" }).click();
    await expect(coordinatorEditor).toBeHidden();
    await expect(coordinatorNotes.first()).toContainText("takedown next morning");
    await expect(coordinatorNotes.first()).toContainText("No charge for the repeat set-up.");
    await expect(coordinatorNotes.first()).toContainText("Revision 3");

    // The billing user's screen catches up with both changes.
    await billing.reload();
    await expect(itemsOf(billing, "Billing notes").first()).toContainText("No charge for the repeat set-up.");
    await expect(itemsOf(billing, "Billing notes").first()).toContainText("takedown next morning");
  });
});
