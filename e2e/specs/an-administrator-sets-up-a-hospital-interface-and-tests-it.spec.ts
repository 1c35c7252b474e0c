import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import type { Page } from "@playwright/test";
import { e2eRoot } from "../support/environment.js";
import { displayNames, expect, readStoredTokens, seededUser, signIn, test } from "../support/fixtures.js";

/** The hospital's interface engine, played by Debian's python3-hl7 asyncio MLLP server answering AA. */
const peerScript = path.resolve(e2eRoot, "../apps/server/src/testing/hl7-ack-peer.py");

function startHospitalEngine(): Promise<{ port: number; process: ChildProcess }> {
  const child = spawn("/usr/bin/python3", [peerScript, "--code", "AA"], { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`python3-hl7 did not start: ${errors}`)), 10_000);
    child.once("exit", (code) => reject(new Error(`python3-hl7 exited (${code}): ${errors}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /LISTENING (\d+)/.exec(chunk.toString());
      if (!match) return;
      clearTimeout(timer);
      resolve({ port: Number(match[1]), process: child });
    });
  });
}

async function createClient(page: Page, baseURL: string): Promise<{ id: string; name: string; suffix: string }> {
  const { idToken } = await readStoredTokens(page);
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.toUpperCase();
  const response = await page.request.post(`${baseURL}/api/continuous-monitoring/clients`, {
    headers: { authorization: `Bearer ${idToken}` },
    data: { name: `Harbor General ${suffix}`, code: `HG-${suffix}`.slice(0, 16), timezone: "America/Chicago" },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { id, name } = (await response.json()).data as { id: string; name: string };
  return { id, name, suffix };
}

test.describe("hospital interface profile", () => {
  test("an administrator sets up a client's HL7 interface, revises it and a test message is accepted", async ({
    page,
    state,
  }) => {
    test.setTimeout(150_000);
    const engine = await startHospitalEngine();
    try {
      await signIn(page, seededUser(state, "admin"));
      // The first load of the workspace has taken over 10 s on a loaded 2-core machine.
      await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${displayNames.admin}` })).toBeVisible({
        timeout: 30_000,
      });
      const client = await createClient(page, state.baseURL);
      const facility = `HG${client.suffix}`.slice(0, 20);
      await page.goto(`/#/continuous-monitoring/clients/${client.id}/interfaces`);
      await expect(page.getByRole("heading", { level: 1, name: client.name })).toBeVisible();
      await expect(page.getByRole("tab", { name: "Interfaces", selected: true })).toBeVisible();
      await expect(page.getByText(/No interface profile yet/)).toBeVisible();

      // Revision 1: what the hospital sends, no destination yet; the form checks as it is typed.
      await page.getByRole("button", { name: "Set up the interface" }).click();
      const sendingApplication = page.getByRole("textbox", { name: "Sending application (MSH-3)" });
      await sendingApplication.fill("EP|IC");
      await sendingApplication.blur();
      await expect(page.getByText(/Sending application \(MSH-3\) must not contain/)).toBeVisible();
      await sendingApplication.fill("EPIC");
      await page.getByRole("textbox", { name: "Sending facility (MSH-4)" }).fill(facility);
      await page.getByRole("textbox", { name: "MRN assigning authority (PID-3.4)" }).fill(`${facility}-MRN`);
      await page.getByRole("textbox", { name: "Receiving application (MSH-5)" }).fill("EPICCARE");
      await page.getByRole("textbox", { name: "Receiving facility (MSH-6)" }).fill(facility);
      await page.getByRole("textbox", { name: "Change note (optional)" }).fill("Orders from Epic");
      await page.getByRole("button", { name: "Save revision" }).click();
      await expect(page.getByRole("heading", { name: "Current interface profile: revision 1" })).toBeVisible();
      await expect(page.getByText("None: results are not sent by interface").first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Send a test message" })).toHaveCount(0);

      // Revision 2: results go to the hospital's engine (the python3-hl7 listener).
      await page.getByRole("button", { name: "Edit the profile" }).click();
      await expect(page.getByRole("textbox", { name: "Sending facility (MSH-4)" })).toHaveValue(facility);
      await page.getByRole("textbox", { name: "Host" }).fill("127.0.0.1");
      await page.getByRole("textbox", { name: "Port" }).fill(String(engine.port));
      await page.getByRole("textbox", { name: "Change note (optional)" }).fill("Results to the engine");
      await page.getByRole("button", { name: "Save revision" }).click();
      await expect(page.getByRole("heading", { name: "Current interface profile: revision 2" })).toBeVisible();
      const history = page.getByRole("table", { name: "Interface profile revisions" });
      await expect(history.getByRole("row")).toHaveCount(3);
      await expect(history.getByText("Results to the engine")).toBeVisible();
      await expect(history.getByText("Orders from Epic")).toBeVisible();

      // The test message reaches python3-hl7, which acknowledges it.
      await page.getByRole("button", { name: "Send a test message" }).click();
      await expect(page.getByText(/^The hospital's system accepted the test message \(AA\) in \d+ ms\.$/)).toBeVisible({
        timeout: 20_000,
      });
      await expect(page.getByLabel("The acknowledgement as received")).toContainText("MSA|AA|");

      // What the hospital's interface team is shown: the conformance page, its CapabilityStatement link live.
      await page.getByRole("link", { name: "Interface conformance" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Interface conformance" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Supported messages" }).getByText("ORM^O01").first()).toBeVisible();
      const metadataLink = page.getByRole("link", { name: /\/fhir\/R4\/metadata$/ });
      const metadata = await page.request.get(
        new URL((await metadataLink.getAttribute("href")) ?? "", state.baseURL).href,
      );
      expect((await metadata.json()).resourceType).toBe("CapabilityStatement");
    } finally {
      engine.process.kill("SIGTERM");
    }
  });
});
