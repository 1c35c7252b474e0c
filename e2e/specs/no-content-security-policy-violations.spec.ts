import type { Page } from "@playwright/test";
import { displayNames, expect, mainNavigation, seededUser, signInToHome, test } from "../support/fixtures.js";

/**
 * Collects what the browser reports when the Content-Security-Policy blocks something: the
 * `securitypolicyviolation` DOM event (recorded from the first script on every document) and the console
 * message Chromium prints ("Refused to … because it violates the following Content Security Policy directive").
 */
async function watchForViolations(page: Page): Promise<() => string[]> {
  const reports: string[] = [];
  page.on("console", (message) => {
    const text = message.text();
    if (/Content Security Policy|Content-Security-Policy|Refused to (load|execute|apply|connect|frame)/i.test(text)) {
      reports.push(`console: ${text}`);
    }
  });
  // A binding survives full page loads, unlike a list kept in the page.
  await page.exposeFunction("__reportCspViolation", (report: string) => {
    reports.push(`event: ${report}`);
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(
        `${event.violatedDirective} blocked ${event.blockedURI || "(inline)"} in ${event.sourceFile}:${event.lineNumber}`,
      );
    });
  });
  return () => [...reports];
}

test.describe("the Content-Security-Policy", () => {
  test("the app signs in and shows its pages without any policy violation", async ({ page, request, state }) => {
    const response = await request.get("/");
    expect(response.headers()["content-security-policy"], "the app is served with a policy").toContain(
      "default-src 'self'",
    );

    const violations = await watchForViolations(page);
    await page.goto("/#/signin");
    await expect(page.getByRole("button", { name: "Sign in", exact: true })).toBeVisible();
    expect(violations(), "violations on the sign-in page").toEqual([]);

    await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
    await mainNavigation(page).getByRole("link", { name: "Users", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
    await page.goto("/#/no/such/page");
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();

    expect(violations(), "violations while using the app").toEqual([]);
  });

  test("the API documentation renders under its own policy", async ({ page }) => {
    const violations = await watchForViolations(page);
    await page.goto("/api/docs");

    // Swagger UI parses and lays out the whole document (about 600 KB, every route's schemas inlined) before it
    // shows anything: seconds on a loaded 2-core CI machine, so this wait is longer than the default 10 s.
    await expect(page.getByRole("heading", { name: /Vigil API/ })).toBeVisible({ timeout: 45_000 });
    await expect(page.getByText("/api/health").first()).toBeVisible();
    expect(violations(), "violations on /api/docs").toEqual([]);
  });
});
