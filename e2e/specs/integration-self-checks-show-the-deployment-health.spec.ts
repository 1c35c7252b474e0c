import { SMTPServer } from "smtp-server";
import { expect, signInToHome, test } from "../support/fixtures.js";
import { findFreePort } from "../support/global-setup.js";
import { choosePasswordThroughApi } from "../support/identity-api.js";
import { startOwnServer } from "../support/own-server.js";
import { prepareUsers } from "../support/prepared-users.js";

/** A real SMTP peer on 127.0.0.1 (plain, no authentication), as a small deployment's relay would be. */
async function startSmtpServer(port: number): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

test.describe("integration self-checks", () => {
  test("a developer sees every check of a healthy deployment pass, then the mail check fail once the SMTP server is down", async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const smtpPort = await findFreePort();
    const smtp = await startSmtpServer(smtpPort);
    let smtpRunning = true;
    const vigil = await startOwnServer(
      "integration-checks",
      { SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: "vigil@vigil.example" },
      (env, dataDir) =>
        prepareUsers(env, dataDir, {
          operator: {
            username: "e2e-operator",
            name: "Olu Operator",
            email: "e2e-operator@vigil.example",
            groups: ["developer"],
          },
        }),
    );
    try {
      const operator = vigil.prepared.operator;
      const password = "steady-harbour-lamp-17";
      await choosePasswordThroughApi(vigil.baseURL, vigil.userPoolClientId, operator, password);
      const context = await browser.newContext({ baseURL: vigil.baseURL });
      const page = await context.newPage();
      await signInToHome(page, { ...operator, password }, operator.name);

      await page.goto("/#/bugs/integration-testing");
      // Federation is not configured on this deployment, so its check is skipped as not applicable.
      await expect(page.getByText("All checks passed (1 skipped as not applicable here)")).toBeVisible({
        timeout: 30_000,
      });
      const checks = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2 }) });
      await expect(checks).toHaveCount(10);
      for (const title of [
        "Database round trip",
        "Database migrations",
        "Token signing keys",
        "Token issuer keys (JWKS)",
        "Mail delivery",
        "Clock skew",
        "Data folder disk space",
        "Critical finding messages",
        "Job queue",
      ]) {
        await expect(page.getByRole("listitem", { name: title })).toContainText("Pass");
      }
      await expect(page.getByRole("listitem", { name: "Federated sign-in provider" })).toContainText("Skipped");
      await expect(page.getByRole("listitem", { name: "Mail delivery" })).toContainText(`127.0.0.1:${smtpPort}`);

      // Below the checks, the job queue: every kind this server runs, with its counts; nothing failed on a fresh one.
      const queue = page.getByRole("region", { name: "Job queue" });
      const kinds = queue.getByRole("table", { name: "Jobs per kind" });
      for (const kind of ["clock-alert-sweep", "finding-messages", "finding-escalation", "audit-retention"]) {
        await expect(kinds.getByRole("rowheader", { name: kind })).toBeVisible();
      }
      await expect(queue.getByText("No job has failed for good.")).toBeVisible();
      await queue.getByRole("button", { name: "Refresh" }).click();
      await expect(kinds.getByRole("row", { name: /audit-retention/ })).toContainText("none due");

      // The SMTP server goes away: the mail check now fails, saying where and what to do.
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      smtpRunning = false;
      await page.getByRole("button", { name: "Run again: Mail delivery" }).click();
      const mail = page.getByRole("listitem", { name: "Mail delivery" });
      await expect(mail).toContainText("Fail", { timeout: 30_000 });
      await expect(mail).toContainText(`127.0.0.1:${smtpPort}`);
      await expect(mail).toContainText("Start the SMTP server or fix SMTP_URL");
      await expect(page.getByText("1 check failed")).toBeVisible();
      await context.close();
    } finally {
      await vigil.stop();
      if (smtpRunning) await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
