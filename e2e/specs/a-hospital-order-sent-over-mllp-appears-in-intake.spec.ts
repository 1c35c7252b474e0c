import { displayNames, expect, seededUser, signInToHome, test } from "../support/fixtures.js";
import { InterfaceApi, mllpSend } from "../support/interface-api.js";

test.describe("hospital interface (HL7 v2 over MLLP)", () => {
  test("an order the hospital sends with mllp_send appears in the Intake queue within 2 s, with its order number and patient", async ({
    page,
    state,
  }) => {
    test.skip(!state.hl7Port, "the server was started without HL7_MLLP_PORT");
    const suffix = Date.now().toString(36).toUpperCase();
    const facility = `E2EH${suffix}`;
    const admin = await InterfaceApi.signIn(state.baseURL, state.userPoolClientId, seededUser(state, "admin"));
    await admin.clientWithInterface(`Lakeside Neuro ${suffix}`, `LN${suffix}`.slice(0, 12), {
      sendingApplication: "EPIC",
      sendingFacility: facility,
      mrnAssigningAuthority: facility,
    });
    const mrn = `H${suffix}`;
    const placer = `ORD${suffix}`;

    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
    await page.goto(`/#/continuous-monitoring/cases/intake?search=${mrn}`);
    await expect(page.getByRole("heading", { level: 1, name: "Intake cases" })).toBeVisible();
    const queue = page.getByRole("main").getByRole("table");
    const row = queue.getByRole("row").filter({ hasText: mrn });
    await expect(row).toHaveCount(0);

    const ack = await mllpSend(
      state.hl7Port as number,
      [
        `MSH|^~\\&|EPIC|${facility}|VIGIL|VIGIL|20261129051500||ORM^O01|E2E${suffix}|P|2.5.1`,
        `PID|1||${mrn}^^^${facility}^MR||Quinn${suffix}^Orderly||19800214|F`,
        "PV1|1|I|NICU^7^A||||||||||||||||V-E2E-1",
        `ORC|NW|${placer}^EPC|||||||||1234^Neuro^Nia`,
        `OBR|1|${placer}^EPC||95716^EEG CONT W VIDEO^CPT`,
      ].join("\n"),
    );
    const sent = Date.now();
    expect(ack).toMatch(/MSA\|AA\|E2E/);

    // The queue follows the new case live (the event stream), with no reload.
    await expect(row).toBeVisible({ timeout: Math.max(500, 2_000 - (Date.now() - sent)) });
    await expect(row).toContainText(`Quinn${suffix}`);
    await row.getByRole("link").first().click();
    const order = page.getByRole("region", { name: "Hospital order" });
    await expect(order.getByText(placer, { exact: true })).toBeVisible();
    await expect(order.getByText("V-E2E-1")).toBeVisible();
    await expect(page.getByText(mrn).first()).toBeVisible();
  });
});
