import type { Browser, Page } from "@playwright/test";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";

/** The seeded client the case is opened for (apps/server/src/seed/demo-clients.ts): it has a protocol to pin. */
const clientLabel = "Pacific Neurology Institute (PNI)";
const clientZone = "America/Los_Angeles";

/** `YYYY-MM-DDTHH:mm` as the client's clocks show `at` (what a datetime-local input in its zone takes). */
function wallTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(at);
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? "";
  return `${get("year")}-${get("month")}-${get("day")}T${get("hour")}:${get("minute")}`;
}

async function signedInPage(browser: Browser, state: E2eState, who: keyof typeof displayNames): Promise<Page> {
  const context = await browser.newContext({ baseURL: state.baseURL });
  const page = await context.newPage();
  await signInToHome(page, seededUser(state, who), displayNames[who]);
  return page;
}

const actionsRegion = (page: Page) => page.getByRole("region", { name: "What you can do" });

async function expectStage(page: Page, stage: string) {
  await expect(page).toHaveURL(new RegExp(`#/continuous-monitoring/cases/${stage}/[0-9a-f-]{36}/overview$`));
  await expect(page.getByText(`Stage: ${stage[0]?.toUpperCase()}${stage.slice(1)}`)).toBeVisible();
}

test.describe("case workflow", () => {
  test("a case goes from intake to preview, is sent back with a reason, and each user sees only their moves", async ({
    browser,
    state,
  }) => {
    test.setTimeout(180_000);
    const mrn = `E2E-${Date.now().toString(36).toUpperCase()}`;

    // The coordinator opens the case; the form checks as it is typed.
    const coordinator = await signedInPage(browser, state, "coordinator");
    await coordinator.goto("/#/continuous-monitoring/cases/create");
    await expect(coordinator.getByRole("heading", { level: 1, name: "New case" })).toBeVisible();
    const mrnBox = coordinator.getByRole("textbox", { name: "MRN", exact: true });
    await mrnBox.fill("x");
    await mrnBox.fill("");
    await expect(coordinator.getByText("MRN is required")).toBeVisible();
    await coordinator.getByRole("combobox", { name: "Client", exact: true }).selectOption({ label: clientLabel });
    await coordinator.getByRole("combobox", { name: "Study type", exact: true }).selectOption({ label: "ICU cEEG" });
    await mrnBox.fill(mrn);
    await coordinator.getByRole("textbox", { name: "First name", exact: true }).fill("Jamie");
    await coordinator.getByRole("textbox", { name: "Last name", exact: true }).fill("Rivera");
    await coordinator.getByRole("textbox", { name: "Unit", exact: true }).fill("Neuro ICU");
    await coordinator.getByRole("button", { name: "Create case" }).click();

    await expectStage(coordinator, "intake");
    const caseNumber = (await coordinator.getByRole("heading", { level: 1 }).textContent())?.trim() ?? "";
    expect(caseNumber).toMatch(/^CM-/);
    const caseId = /cases\/intake\/([0-9a-f-]{36})\//.exec(coordinator.url())?.[1] ?? "";
    await expect(coordinator.getByText("Times in America/Los_Angeles", { exact: true })).toBeVisible();

    // Before anyone is assigned, starting is possible for the coordinator in principle, but not yet.
    const coordinatorActions = actionsRegion(coordinator);
    await expect(coordinatorActions.getByRole("button", { name: "Start monitoring" })).toBeDisabled();
    await expect(coordinatorActions.getByText("Assign a technologist before monitoring starts.")).toBeVisible();

    // The case is in the intake queue.
    await coordinator.goto(`/#/continuous-monitoring/cases/intake?search=${mrn}`);
    await expect(coordinator.getByRole("link", { name: caseNumber })).toBeVisible();
    await coordinator.getByRole("link", { name: caseNumber }).click();

    // The coordinator assigns the technologist.
    await coordinatorActions.getByRole("button", { name: "Assign technologist" }).click();
    const assign = coordinator.getByRole("dialog", { name: `Assign a technologist to ${caseNumber}` });
    await assign.getByRole("combobox", { name: "Technologist" }).selectOption({ label: displayNames.technologist });
    await assign.getByRole("button", { name: "Assign" }).click();
    await expect(assign).toBeHidden();
    await expect(coordinatorActions.getByRole("button", { name: "Start monitoring" })).toBeEnabled();
    await expect(coordinatorActions.getByText(displayNames.technologist)).toBeVisible();

    // The technologist starts monitoring; they cannot assign anyone.
    const technologist = await signedInPage(browser, state, "technologist");
    await technologist.goto(`/#/continuous-monitoring/cases/intake/${caseId}/overview`);
    const technologistActions = actionsRegion(technologist);
    await expect(technologistActions.getByRole("button", { name: "Start monitoring" })).toBeEnabled();
    await expect(technologist.getByRole("button", { name: "Assign technologist" })).toHaveCount(0);
    await expect(technologist.getByRole("button", { name: "Archive" })).toHaveCount(0);
    await technologistActions.getByRole("button", { name: "Start monitoring" }).click();
    await expectStage(technologist, "monitoring");

    // Ending needs the recording end time, which the technologist sets in the client's time zone.
    await expect(technologistActions.getByRole("button", { name: "End monitoring" })).toBeDisabled();
    await expect(technologistActions.getByText("Set the recording end time before ending monitoring.")).toBeVisible();
    await technologist.getByRole("button", { name: "Edit" }).click();
    const now = Date.now();
    await technologist
      .getByLabel("Recording started", { exact: true })
      .fill(wallTime(new Date(now - 2 * 3600_000), clientZone));
    await technologist
      .getByLabel("Recording ended", { exact: true })
      .fill(wallTime(new Date(now - 3600_000), clientZone));
    await technologist.getByRole("button", { name: "Save" }).click();
    await expect(technologist.getByText(/ P[SD]T \(America\/Los_Angeles\)$/).first()).toBeVisible();
    await technologistActions.getByRole("button", { name: "End monitoring" }).click();
    await expectStage(technologist, "preview");
    // In preview the technologist has nothing to do with the case.
    await expect(technologistActions).toHaveCount(0);

    // The reviewer follows an old link (monitoring) and lands on the case's real stage.
    const reviewer = await signedInPage(browser, state, "reviewer");
    await reviewer.goto(`/#/continuous-monitoring/cases/monitoring/${caseId}/overview`);
    await expectStage(reviewer, "preview");
    const reviewerActions = actionsRegion(reviewer);
    // Moving on to reviewed is refused, with the reason shown.
    await expect(reviewerActions.getByRole("button", { name: "Mark reviewed" })).toBeDisabled();
    await expect(
      reviewerActions.getByText(/No final \(signed\) interpretation exists for this case yet/),
    ).toBeVisible();
    await expect(reviewer.getByRole("button", { name: "End monitoring" })).toHaveCount(0);
    await expect(reviewer.getByRole("button", { name: "Assign technologist" })).toHaveCount(0);
    await expect(reviewer.getByRole("button", { name: "Edit" })).toHaveCount(0);

    // Sending it back needs a reason.
    await reviewerActions.getByRole("button", { name: "Return to monitoring" }).click();
    const back = reviewer.getByRole("dialog", { name: `Return to monitoring: ${caseNumber}` });
    await back.getByRole("button", { name: "Return to monitoring" }).click();
    await expect(back.getByText("Reason is required")).toBeVisible();
    await back.getByRole("textbox", { name: "Reason" }).fill("Artifact between hours 3 and 5; please re-check.");
    await back.getByRole("button", { name: "Return to monitoring" }).click();
    await expectStage(reviewer, "monitoring");
    await expect(reviewerActions).toHaveCount(0);

    // The return reopened the recording: ending it again needs a new end time, which the technologist sets.
    await technologist.reload();
    await expectStage(technologist, "monitoring");
    await expect(technologistActions.getByRole("button", { name: "End monitoring" })).toBeDisabled();
    await expect(technologistActions.getByText("Set the recording end time before ending monitoring.")).toBeVisible();
    await technologist.getByRole("button", { name: "Edit" }).click();
    await expect(technologist.getByLabel("Recording ended", { exact: true })).toHaveValue("");
    await technologist
      .getByLabel("Recording ended", { exact: true })
      .fill(wallTime(new Date(Date.now() - 60_000), clientZone));
    await technologist.getByRole("button", { name: "Save" }).click();
    await expect(technologistActions.getByRole("button", { name: "End monitoring" })).toBeEnabled();
    await technologistActions.getByRole("button", { name: "End monitoring" }).click();
    await expectStage(technologist, "preview");

    // Billing reads the case but has no move in preview.
    const billing = await signedInPage(browser, state, "billing");
    await billing.goto(`/#/continuous-monitoring/cases/preview/${caseId}/overview`);
    await expect(billing.getByRole("heading", { level: 1, name: caseNumber })).toBeVisible();
    await expect(actionsRegion(billing)).toHaveCount(0);

    // The timeline tells the story, with the reason, in the client's zone.
    await reviewer.goto(`/#/continuous-monitoring/cases/preview/${caseId}/timeline`);
    const timeline = reviewer.getByRole("list", { name: "Case timeline" });
    await expect(timeline.getByText("Reason: Artifact between hours 3 and 5; please re-check.")).toBeVisible();
    // The end the return cleared stays in the history.
    await expect(timeline.getByText(/Recording ended: .+ \(America\/Los_Angeles\) → none/)).toBeVisible();
    await expect(timeline.getByText(/\(America\/Los_Angeles\) · Casey Coordinator/).first()).toBeVisible();
    await expect(reviewerActions.getByRole("button", { name: "Mark reviewed" })).toBeDisabled();

    for (const page of [coordinator, technologist, reviewer, billing]) await page.context().close();
  });
});
