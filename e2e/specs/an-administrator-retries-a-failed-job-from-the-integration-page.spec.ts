import { SMTPServer } from "smtp-server";
import { reportAccessibility, scanAccessibility } from "../support/accessibility-scan.js";
import { CaseApi } from "../support/case-api.js";
import { expect, signInToHome, test } from "../support/fixtures.js";
import { findFreePort } from "../support/global-setup.js";
import { choosePasswordThroughApi, signInThroughApi } from "../support/identity-api.js";
import { startOwnServer } from "../support/own-server.js";
import { prepareUsers } from "../support/prepared-users.js";

/**
 * A real SMTP relay that refuses every recipient (550, as a relay that will not relay for this sender does) until
 * told to take mail, then keeps the envelope recipients of what it takes.
 */
async function startRelay(port: number) {
  let refusing = true;
  const accepted: string[][] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onRcptTo(_address, _session, callback) {
      callback(refusing ? Object.assign(new Error("Relay access denied"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        accepted.push(session.envelope.rcptTo.map((recipient) => recipient.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    takeMail: () => {
      refusing = false;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const recipient = { name: "Dr. Rhea Retry", email: "rhea.retry@hospital.example" };

test.describe("the job queue", () => {
  test("an administrator sees a report e-mail's job that failed every try, presses Retry once the relay is back, and the e-mail leaves", async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const relay = await startRelay(await findFreePort());
    // One try, one second after the signing: the report e-mail's job fails for good within seconds.
    const vigil = await startOwnServer(
      "failed-job-retry",
      {
        SMTP_URL: relay.url,
        MAIL_FROM: "vigil@vigil.example",
        REPORT_DELIVERY_GRACE_SECONDS: "1",
        REPORT_DELIVERY_ATTEMPTS: "1",
        LOG_LEVEL: "warn",
      },
      (env, dataDir) =>
        prepareUsers(env, dataDir, {
          admin: {
            username: "e2e-jobs-admin",
            name: "Ada Admin",
            email: "e2e-jobs-admin@vigil.example",
            groups: ["admin"],
          },
          technologist: {
            username: "e2e-jobs-tech",
            name: "Theo Tech",
            email: "e2e-jobs-tech@vigil.example",
            groups: ["technologist"],
          },
        }),
    );
    try {
      const { baseURL, userPoolClientId } = vigil;
      const admin = { ...vigil.prepared.admin, password: "quiet-harbour-retry-23" };
      await choosePasswordThroughApi(baseURL, userPoolClientId, vigil.prepared.admin, admin.password);
      const { idToken } = await signInThroughApi(baseURL, userPoolClientId, admin);
      const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const response = await fetch(`${baseURL}/api${path}`, {
          method,
          headers: {
            authorization: `Bearer ${idToken}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answer = (await response.json()) as { data: T };
        if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
        return answer.data;
      };

      // The given: a client whose protocol names a report recipient, and a report signed while the relay refuses.
      const client = await call<{ id: string }>("POST", "/continuous-monitoring/clients", {
        name: "Harbour General",
        code: "HBG",
        timezone: "America/Chicago",
        phone: "+13125550100",
        city: "Chicago",
        region: "IL",
        country: "US",
      });
      const contact = await call<{ _id: string }>("POST", `/continuous-monitoring/clients/${client.id}/contacts`, {
        name: recipient.name,
        email: recipient.email,
      });
      await call("POST", `/continuous-monitoring/clients/${client.id}/protocol/revisions`, {
        baseRevision: null,
        instructions: "Apply 10–20 electrodes.",
        impedanceThresholdKohm: 7.5,
        impedanceCheckIntervalHours: 12,
        reviewTurnaroundHours: 8,
        statAcknowledgeMinutes: 60,
        criticalNotification: { notify: "Neuro ICU charge nurse", withinMinutes: 15 },
        transferForm: { title: "Transfer", instructions: "", fields: [] },
        reportRecipients: { contactIds: [contact._id] },
        changeNote: "First protocol",
      });
      const api = await CaseApi.signIn(baseURL, userPoolClientId, admin);
      const studied = await api.caseInMonitoring({
        clientCode: "HBG",
        technologist: "e2e-jobs-tech",
        mrn: `JOB-${Date.now().toString(36).toUpperCase()}`,
        firstName: "Ines",
        lastName: "Queue",
      });
      await api.endMonitoring(studied.id);
      await api.signInterpretation(studied.id, {
        from: new Date(Date.now() - 50 * 60_000),
        to: new Date(Date.now() - 60_000),
      });
      await expect
        .poll(
          async () =>
            (await call<{ failed: { kind: string }[] }>("GET", "/integration/jobs")).failed.map((job) => job.kind),
          { timeout: 30_000 },
        )
        .toEqual(["report-delivery"]);

      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      await signInToHome(page, admin, admin.name);
      await page.goto("/#/bugs/integration-testing");
      const queue = page.getByRole("region", { name: "Job queue" });

      await test.step("the failed job is listed with the relay's refusal", async () => {
        const failed = queue.getByRole("table", { name: "Failed jobs" });
        const row = failed.getByRole("row").filter({ hasText: "report-delivery" });
        await expect(row).toHaveCount(1);
        // A long error shows its start; the rest opens in place.
        await expect(row).toContainText("all recipients were rejected: 550 Relay access");
        await row.getByRole("button", { name: "Show all" }).click();
        await expect(row).toContainText("550 Relay access denied");
        const findings = await scanAccessibility(page, "/bugs/integration-testing › Job queue");
        expect(findings, reportAccessibility(findings)).toEqual([]);
      });

      await test.step("the relay takes mail again; Retry, confirmed, sends the e-mail and the job leaves the list", async () => {
        relay.takeMail();
        await queue.getByRole("button", { name: /^Retry the report-delivery job that failed / }).click();
        const dialog = page.getByRole("dialog", { name: "Retry this job?" });
        await dialog.getByRole("button", { name: "Retry" }).click();
        await expect(dialog).toBeHidden();
        await expect(queue.getByRole("status")).toContainText("The report-delivery job waits again");
        await expect.poll(() => relay.accepted, { timeout: 30_000 }).toEqual([[recipient.email]]);
        await expect(async () => {
          await queue.getByRole("button", { name: "Refresh" }).click();
          await expect(queue.getByText("No job has failed for good.")).toBeVisible({ timeout: 2_000 });
        }).toPass({ timeout: 30_000 });
      });

      await test.step("the case's Reports list shows the e-mail sent", async () => {
        await page.goto(`/#/continuous-monitoring/cases/preview/${studied.id}/interpretations`);
        const version = page
          .getByRole("region", { name: "Reports" })
          .getByRole("region", { name: /, version 1 \(the signed report\)$/ });
        await expect(version.getByRole("row").filter({ hasText: recipient.name })).toContainText("Sent");
      });
      await context.close();
      // Nothing mailed twice: one e-mail in all.
      expect(relay.accepted).toEqual([[recipient.email]]);
    } finally {
      await vigil.stop();
      await relay.stop();
    }
  });
});
