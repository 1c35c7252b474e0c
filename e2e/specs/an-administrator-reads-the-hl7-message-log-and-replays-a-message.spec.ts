import { displayNames, expect, mainNavigation, seededUser, signInToHome, test } from "../support/fixtures.js";
import { InterfaceApi, mllpSend } from "../support/interface-api.js";

test.describe("the HL7 message log", () => {
  test("an administrator finds a message the hospital sent, reads its segments and ACK, and replays it without a second case", async ({
    page,
    state,
  }) => {
    test.skip(!state.hl7Port, "the server was started without HL7_MLLP_PORT");
    const suffix = Date.now().toString(36).toUpperCase();
    const facility = `E2EL${suffix}`;
    const admin = await InterfaceApi.signIn(state.baseURL, state.userPoolClientId, seededUser(state, "admin"));
    await admin.clientWithInterface(`Harbor Neuro ${suffix}`, `HN${suffix}`.slice(0, 12), {
      sendingApplication: "EPIC",
      sendingFacility: facility,
      mrnAssigningAuthority: facility,
    });
    const mrn = `L${suffix}`;
    const placer = `LOG${suffix}`;
    const control = `LOG${suffix}`;

    // The hospital's side is Debian's python3-hl7: an order, and a message from a sender no profile owns.
    const ack = await mllpSend(
      state.hl7Port as number,
      [
        `MSH|^~\\&|EPIC|${facility}|VIGIL|VIGIL|20261129060000||ORM^O01|${control}|P|2.5.1`,
        `PID|1||${mrn}^^^${facility}^MR||Rivers${suffix}^Logan||19750303|M`,
        "PV1|1|I|NICU^9^B||||||||||||||||V-LOG-1",
        `ORC|NW|${placer}^EPC|||||||||1234^Neuro^Nia`,
        `OBR|1|${placer}^EPC||95716^EEG CONT W VIDEO^CPT`,
      ].join("\n"),
    );
    expect(ack).toMatch(/MSA\|AA\|LOG/);
    const refused = await mllpSend(
      state.hl7Port as number,
      [
        `MSH|^~\\&|EPIC|NOPROFILE${suffix}|VIGIL|VIGIL|20261129060001||ORM^O01|X${control}|P|2.5.1`,
        `PID|1||${mrn}^^^NOPROFILE^MR||Rivers${suffix}^Logan||19750303|M`,
        `ORC|NW|X${placer}`,
      ].join("\n"),
    );
    expect(refused).toMatch(/MSA\|AR\|X/);

    await signInToHome(page, seededUser(state, "admin"), displayNames.admin);
    await mainNavigation(page).getByRole("link", { name: "HL7 message log", exact: true }).click();
    // The page's code is its own chunk, loaded on first use: on a busy machine that is more than the default wait.
    await expect(page.getByRole("heading", { level: 1, name: "HL7 message log" })).toBeVisible({ timeout: 30_000 });

    // Both arrived under this MRN; the status filter leaves the one refused.
    await page.getByLabel("Control id, MRN or order number").fill(mrn);
    const table = page.getByRole("table", { name: "HL7 messages" });
    await expect(table.getByRole("link", { name: `ORM^O01 ${control}`, exact: true })).toBeVisible();
    await expect(table.getByRole("link", { name: `ORM^O01 X${control}`, exact: true })).toBeVisible();
    await page.getByLabel("Status").selectOption({ label: "Rejected (AR)" });
    await expect(table.getByRole("link", { name: `ORM^O01 ${control}`, exact: true })).toHaveCount(0);
    const rejected = table.getByRole("row").filter({ hasText: `X${control}` });
    await expect(rejected.getByText("Rejected (AR)")).toBeVisible();
    await expect(rejected.getByRole("cell", { name: "No client", exact: true })).toBeVisible();
    // Chosen and followed at once, while the typed search may still be waiting for its pause: neither is undone.
    await page.getByLabel("Status").selectOption({ label: "Processed" });

    await table.getByRole("link", { name: `ORM^O01 ${control}`, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: `ORM^O01 ${control}` })).toBeVisible();
    const fields = page.getByRole("table", { name: "Segments and fields" });
    await expect(fields.getByRole("row").filter({ hasText: "PID-3" })).toContainText(`${mrn}^^^${facility}^MR`);
    await expect(fields.getByRole("row").filter({ hasText: "ORC-2" })).toContainText(`${placer}^EPC`);
    await expect(fields.getByRole("row").filter({ hasText: "MSH-10" })).toContainText(control);
    await expect(page.getByLabel("Acknowledgement")).toContainText(`MSA|AA|${control}`);
    const caseLink = page.getByRole("main").getByRole("link", { name: /^CM-/ });
    await expect(caseLink).toBeVisible();
    const caseNumber = await caseLink.textContent();

    await page.getByRole("button", { name: "Replay" }).click();
    const dialog = page.getByRole("dialog", { name: `Replay ORM^O01 ${control}?` });
    await expect(dialog).toContainText("no second case is created");
    await dialog.getByRole("button", { name: "Process again" }).click();
    const outcome = page.getByRole("status").filter({ hasText: "Replayed" });
    await expect(outcome).toContainText("Replayed: Processed, acknowledged AA");
    await outcome.getByRole("link", { name: "Open the replay" }).click();
    await expect(page.getByRole("link", { name: "The original message" })).toBeVisible();
    // The replay found the order's case by its placer number: the same case, not a second one.
    await expect(page.getByRole("main").getByRole("link", { name: caseNumber ?? "" })).toBeVisible();
  });
});
