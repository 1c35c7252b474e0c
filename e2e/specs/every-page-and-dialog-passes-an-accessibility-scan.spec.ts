import type { Page } from "@playwright/test";
import { caseStages, caseTabs, clientTabs, pageList } from "@vigil/contract";
import {
  type AccessibilityFinding as Finding,
  reportAccessibility as report,
  scanAccessibility as scan,
} from "../support/accessibility-scan.js";
import { accountButton, displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { signInThroughApi } from "../support/identity-api.js";
import { chooseMenuItem } from "../support/menus.js";

/**
 * axe-core over every page of the contract's page table and the dialogs people work in, as an administrator (who
 * may open every page) on the demo data. WCAG 2.1 A and AA rules, plus "label in name" (2.5.3), which axe keeps
 * out of its defaults; any serious or critical finding fails, listed by page, rule and element.
 */

/**
 * Each address in a document of its own. After a change of the hash alone the router keeps the last page on screen
 * until the next page's code has loaded, so its heading would pass for the new one's and the scan would start on
 * the old page and go on over the new one as it draws (a button measured mid-fade).
 */
async function open(page: Page, url: string): Promise<void> {
  await page.goto("about:blank");
  await page.goto(`/#${url}`);
}

/** The page has drawn its content: its heading is there and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator("main h1").first()).toBeVisible();
  // Indeterminate ones only: a determinate bar ("Checks done") is content, not loading.
  await expect(page.locator('[role="progressbar"]:not([aria-valuenow])')).toHaveCount(0, { timeout: 15_000 });
}

/** Ids and values for the pages with parameters, read through the API as the administrator. */
async function pageParameters(baseURL: string, clientId: string, credential: { username: string; password: string }) {
  const { idToken } = await signInThroughApi(baseURL, clientId, credential);
  const get = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseURL}/api${path}`, { headers: { authorization: `Bearer ${idToken}` } });
    expect(response.status, path).toBe(200);
    return ((await response.json()) as { data: T }).data;
  };
  const clients = await get<{ items: { id: string }[] }>("/continuous-monitoring/clients?limit=1");
  const client = clients.items[0]?.id;
  if (!client) throw new Error("The demo data has no client.");
  const cases: Partial<Record<(typeof caseStages)[number], string>> = {};
  for (const stage of caseStages) {
    const queue = await get<{ items: { id: string }[] }>(`/continuous-monitoring/cases/${stage}?limit=1`);
    cases[stage] = queue.items[0]?.id;
  }
  const today = new Date();
  const month = `${today.getUTCFullYear()}-${String(today.getUTCMonth() + 1).padStart(2, "0")}`;
  return { client, cases, month };
}

/** Every concrete address to scan: each page of the table, each client tab, every case tab in monitoring. */
function addresses(parameters: Awaited<ReturnType<typeof pageParameters>>): string[] {
  const urls: string[] = [];
  for (const page of pageList) {
    if (page.id === "signin") continue;
    if (page.id === "client-detail") {
      for (const tab of clientTabs) urls.push(`/continuous-monitoring/clients/${parameters.client}/${tab}`);
      continue;
    }
    const stage = caseStages.find(
      (candidate) => page.path === `/continuous-monitoring/cases/${candidate}/:caseId/:tab`,
    );
    if (stage) {
      const caseId = parameters.cases[stage];
      if (!caseId) continue;
      const tabs = stage === "monitoring" ? caseTabs : (["overview"] as const);
      for (const tab of tabs) urls.push(`/continuous-monitoring/cases/${stage}/${caseId}/${tab}`);
      continue;
    }
    urls.push(page.path.replace(":clientId", parameters.client).replace(":month", parameters.month));
  }
  return urls;
}

/** Signs the administrator in on `page` and reads the pages' parameters as them. */
async function signInAsAdmin(page: Page, state: Parameters<typeof seededUser>[0]) {
  const admin = seededUser(state, "admin");
  const parameters = await pageParameters(state.baseURL, state.userPoolClientId, admin);
  await signInToHome(page, admin, displayNames.admin);
  return parameters;
}

test.describe("accessibility", () => {
  // Independent scans (each signs in on its own), so they may share the workers.
  test.describe.configure({ mode: "parallel", timeout: 600_000 });

  test("the sign-in screen has no serious or critical finding", async ({ page }) => {
    await page.goto("/#/signin");
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    const findings = await scan(page, "/signin");
    expect(findings, report(findings)).toEqual([]);
  });

  /*
   * The pages in two tests and the dialogs in a third, each with its own timeout: a page's load and scan take seconds,
   * and all of them in one test outgrew its timeout on the slower machines of the kind.
   */
  const casePages = (url: string) => url.startsWith("/continuous-monitoring/cases/");

  for (const [name, chosen] of [
    ["every page outside the case queues", (url: string) => !casePages(url)],
    ["every case queue and case tab", casePages],
  ] as const) {
    test(`${name} has no serious or critical finding`, async ({ page, state }) => {
      const parameters = await signInAsAdmin(page, state);
      const findings: Finding[] = [];
      const urls = addresses(parameters).filter(chosen);
      expect(urls.length, "addresses to scan").toBeGreaterThan(5);
      for (const url of urls) {
        await test.step(url, async () => {
          await open(page, url);
          await settled(page);
          findings.push(...(await scan(page, url)));
        });
      }
      expect(findings, report(findings)).toEqual([]);
    });
  }

  test("the dialogs people work in have no serious or critical finding", async ({ page, state }) => {
    const parameters = await signInAsAdmin(page, state);
    const findings: Finding[] = [];

    const dialogs: { url: string; open: (page: Page) => Promise<void> }[] = [
      { url: "/users", open: (page) => page.getByRole("button", { name: "New user" }).click() },
      {
        url: "/",
        open: async (page) => {
          await accountButton(page, displayNames.admin).click();
          await chooseMenuItem(page, "Report a bug");
        },
      },
      {
        url: `/billing/continuous-monitoring/${parameters.client}`,
        open: (page) =>
          page
            .getByRole("button", { name: /^Set rate/ })
            .first()
            .click(),
      },
      ...(["time-logs", "impedances", "events", "case-notes"] as const).map((tab) => ({
        url: `/continuous-monitoring/cases/monitoring/${parameters.cases.monitoring}/${tab}`,
        open: (page: Page) => page.getByRole("button", { name: /^Add / }).click(),
      })),
      {
        url: `/continuous-monitoring/cases/monitoring/${parameters.cases.monitoring}/overview`,
        open: (page) => page.getByRole("button", { name: "Raise critical finding" }).click(),
      },
    ];
    for (const dialog of dialogs) {
      await test.step(`a dialog on ${dialog.url}`, async () => {
        await open(page, dialog.url);
        await settled(page);
        await dialog.open(page);
        await expect(page.getByRole("dialog")).toBeVisible();
        const title = (await page.getByRole("dialog").getByRole("heading").first().textContent()) ?? "dialog";
        findings.push(...(await scan(page, `${dialog.url} › ${title}`, '[role="dialog"]')));
        await page.keyboard.press("Escape");
      });
    }

    expect(findings, report(findings)).toEqual([]);
  });
});
