import { CaseApi } from "../support/case-api.js";
import type { E2eState } from "../support/environment.js";
import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";

/** A signed-in user's call to the API, for the journey's givens only. */
async function apiAs(state: E2eState, who: keyof typeof displayNames) {
  const { idToken } = await signInThroughApi(state.baseURL, state.userPoolClientId, seededUser(state, who));
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${state.baseURL}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${idToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: unknown; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer.data as Record<string, unknown>;
  };
}

test.describe("clock alerts", () => {
  test("the technologist whose impedance check is overdue sees it under the bell and opens the case from it", async ({
    page,
    state,
  }) => {
    test.setTimeout(120_000);
    const coordinatorApi = await CaseApi.signIn(
      state.baseURL,
      state.userPoolClientId,
      seededUser(state, "coordinator"),
    );
    const { id: caseId, caseNumber } = await coordinatorApi.caseInMonitoring({
      clientCode: "PNI",
      technologist: "technologist",
      mrn: `ALR-${Date.now().toString(36).toUpperCase()}`,
      firstName: "Robin",
      lastName: "Alder",
    });
    // The recording started 30 hours ago and no impedance check was written since: every demo protocol wants one
    // within 24 hours, so the clock is overdue and the next sweep (every 2 s in the e2e server) tells its owner.
    const coordinator = await apiAs(state, "coordinator");
    const current = await coordinator("GET", `/continuous-monitoring/cases/${caseId}`);
    await coordinator(
      "PATCH",
      `/continuous-monitoring/cases/${caseId}`,
      { recordingStartedAt: new Date(Date.now() - 30 * 3_600_000).toISOString() },
      { "if-match": `"${current.version}"` },
    );
    const technologistApi = await apiAs(state, "technologist");
    await expect
      .poll(
        async () => {
          const alerts = await technologistApi("GET", "/notifications/clock-alerts?limit=200");
          return (alerts.items as { caseNumber: string; kind: string; state: string }[]).some(
            (alert) => alert.caseNumber === caseNumber && alert.kind === "impedance-check" && alert.state === "overdue",
          );
        },
        { timeout: 30_000 },
      )
      .toBe(true);

    await signInToHome(page, seededUser(state, "technologist"), displayNames.technologist);
    const bell = page.getByRole("button", { name: /^Clock alerts, \d+ unread$/ });
    await expect(bell).toBeVisible();
    const unreadBefore = Number((await bell.getAttribute("aria-label"))?.match(/(\d+) unread/)?.[1]);
    expect(unreadBefore).toBeGreaterThan(0);

    await bell.click();
    const panel = page.getByRole("dialog", { name: "Clock alerts" });
    const alert = panel.getByRole("link", { name: new RegExp(`Case ${caseNumber}: Impedance check overdue`) });
    await expect(alert).toBeVisible();
    // Never the patient's name: the list travels to every page's app bar.
    await expect(panel).not.toContainText("Alder");
    await alert.click();

    await expect(page).toHaveURL(new RegExp(`#/continuous-monitoring/cases/monitoring/${caseId}/impedances$`));
    await expect(page.getByRole("tab", { name: "Impedances", exact: true })).toHaveAttribute("aria-selected", "true");
    // Opening it marked it read.
    await expect
      .poll(async () => {
        const alerts = await technologistApi("GET", "/notifications/clock-alerts?limit=200");
        return (alerts.items as { caseNumber: string; readAt: string | null }[])
          .filter((item) => item.caseNumber === caseNumber)
          .map((item) => item.readAt !== null);
      })
      .toEqual([true]);
  });
});
