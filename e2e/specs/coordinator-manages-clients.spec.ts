import type { APIRequestContext, Page } from "@playwright/test";
import { displayNames, expect, readStoredTokens, seededUser, signInToHome, test } from "../support/fixtures.js";

const clientsApi = "/api/continuous-monitoring/clients";

/** A name and code no other run (or the seed) uses. */
function uniqueClient(label: string) {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.toUpperCase();
  return { name: `${label} ${suffix}`, code: `E2E-${suffix}`.slice(0, 16) };
}

async function idTokenOf(page: Page): Promise<string> {
  const { idToken } = await readStoredTokens(page);
  expect(idToken, "Amplify stores an ID token after sign-in").toBeTruthy();
  return idToken as string;
}

async function createClientThroughApi(request: APIRequestContext, token: string, label: string) {
  const client = uniqueClient(label);
  const response = await request.post(clientsApi, {
    headers: { authorization: `Bearer ${token}` },
    data: { ...client, timezone: "America/Chicago" },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as { id: string; name: string; version: number };
}

test.describe("clients", () => {
  test("a coordinator creates a client, revises its protocol twice, compares the revisions, adds a contact and a link, and prints the transfer form", async ({
    page,
    state,
  }) => {
    // A long story (a client, two protocol revisions compared, the printed form, a contact, a link, the search):
    // past a minute when two workers share the machine.
    test.setTimeout(150_000);
    const client = uniqueClient("Mountain View Hospital");
    await signInToHome(page, seededUser(state, "coordinator"), displayNames.coordinator);
    await page.goto("/#/continuous-monitoring/clients");
    await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();

    // The form checks as it is typed.
    await page.getByRole("link", { name: "New client" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New client" })).toBeVisible();
    const code = page.getByRole("textbox", { name: "Code", exact: true });
    await code.fill("x");
    await expect(page.getByText("Code must be 2–16 letters, digits or dashes")).toBeVisible();
    await code.fill(client.code);
    await page.getByRole("textbox", { name: "Name", exact: true }).fill(client.name);
    await page.getByRole("combobox", { name: "Time zone", exact: true }).fill("America/Denver");
    await page.keyboard.press("Escape");
    await page.getByRole("textbox", { name: "Phone", exact: true }).fill("+1 303 555 0100");
    await page.getByRole("button", { name: "Create client" }).click();

    await expect(page).toHaveURL(/#\/continuous-monitoring\/clients\/[0-9a-f-]{36}\/overview$/);
    await expect(page.getByRole("heading", { level: 1, name: client.name })).toBeVisible();
    await expect(page.getByText("Times in America/Denver")).toBeVisible();
    await expect(page.getByText(/ M[SD]T \(America\/Denver\)$/).first()).toBeVisible();

    // Protocol revision 1.
    await page.getByRole("tab", { name: "Protocol" }).click();
    await expect(page.getByText("No protocol yet.")).toBeVisible();
    await page.getByRole("button", { name: "New revision" }).click();
    await page
      .getByRole("textbox", { name: "Monitoring instructions", exact: true })
      .fill("Check the electrodes every shift.");
    await page.getByRole("textbox", { name: "Who to notify", exact: true }).fill("Attending neurologist");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByRole("textbox", { name: "Field 1 label", exact: true }).fill("Patient name");
    await page.getByRole("textbox", { name: "Field 1 key", exact: true }).fill("patientName");
    await page.getByRole("checkbox", { name: "Field 1 required", exact: true }).check();
    await page.getByRole("textbox", { name: "Change note", exact: true }).fill("First protocol");
    await page.getByRole("button", { name: "Save revision" }).click();
    await expect(page.getByRole("heading", { name: "Current protocol: revision 1" })).toBeVisible();

    // Revision 2, prefilled from revision 1.
    await page.getByRole("button", { name: "New revision" }).click();
    await expect(page.getByRole("textbox", { name: "Field 1 label", exact: true })).toHaveValue("Patient name");
    await page.getByRole("spinbutton", { name: "Impedance threshold", exact: true }).fill("5");
    await page.getByRole("button", { name: "Add field" }).click();
    await page.getByRole("textbox", { name: "Field 2 label", exact: true }).fill("Indication");
    await page.getByRole("textbox", { name: "Field 2 key", exact: true }).fill("indication");
    await page.getByRole("combobox", { name: "Field 2 type", exact: true }).selectOption("textarea");
    await page
      .getByRole("textbox", { name: "Change note", exact: true })
      .fill("Lower threshold, ask for the indication");
    await page.getByRole("button", { name: "Save revision" }).click();
    await expect(page.getByRole("heading", { name: "Current protocol: revision 2" })).toBeVisible();
    await expect(page.getByText("5 kΩ")).toBeVisible();

    // Compare the two.
    await page.getByRole("checkbox", { name: "Pick revision 1 to compare", exact: true }).check();
    await page.getByRole("checkbox", { name: "Pick revision 2 to compare", exact: true }).check();
    await page.getByRole("button", { name: "Compare selected" }).click();
    await expect(page).toHaveURL(/\/protocol\?view=compare&from=1&to=2$/);
    const diff = page.getByRole("table", { name: "Revision 1 compared with revision 2" });
    const threshold = diff
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: /Impedance threshold/ }) });
    await expect(threshold).toContainText("Changed");
    await expect(threshold.getByRole("cell", { name: "10", exact: true })).toBeVisible();
    await expect(threshold.getByRole("cell", { name: "5", exact: true })).toBeVisible();
    await expect(diff.getByRole("rowheader", { name: /Transfer form field “Indication”/ })).toBeVisible();
    await expect(diff.getByRole("rowheader", { name: /Monitoring instructions/ })).toHaveCount(0);

    // The printable transfer form: no chrome on paper.
    await page.getByRole("button", { name: "Back to the protocol" }).click();
    await page.getByRole("button", { name: "Printable transfer form" }).click();
    const form = page.getByRole("article", { name: "Printable transfer form" });
    await expect(form.getByRole("heading", { name: "Transfer into continuous EEG monitoring" })).toBeVisible();
    await expect(form.getByText("Patient name (required)")).toBeVisible();
    await expect(form.getByText("Indication", { exact: true })).toBeVisible();
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed++;
      };
    });
    await page.getByRole("button", { name: "Print" }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: "print" });
    await expect(form).toBeVisible();
    await expect(page.getByRole("banner")).toBeHidden();
    await expect(page.getByRole("tablist", { name: "Client sections" })).toBeHidden();
    await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
    await page.emulateMedia({ media: "screen" });

    // A contact.
    await page.getByRole("tab", { name: "Contacts" }).click();
    await expect(page.getByText("No contacts yet.")).toBeVisible();
    await page.getByRole("link", { name: "Add contact" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New contact" })).toBeVisible();
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Jordan Nurse");
    await page.getByRole("textbox", { name: "Role", exact: true }).fill("Charge nurse");
    await page.getByRole("checkbox", { name: "Notify of critical findings", exact: true }).check();
    await expect(page.getByText(/needs a phone number or an email address/).first()).toBeVisible();
    await page.getByRole("textbox", { name: "Email", exact: true }).fill("jordan.nurse@example.org");
    await page.getByRole("button", { name: "Add contact" }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    const contacts = page.getByRole("table", { name: `Contacts of ${client.name}` });
    await expect(contacts.getByRole("rowheader", { name: "Jordan Nurse" })).toBeVisible();
    await expect(contacts.getByRole("link", { name: "jordan.nurse@example.org" })).toBeVisible();

    // A useful link, opening safely in a new tab.
    await page.getByRole("tab", { name: "Useful links" }).click();
    await page.getByRole("link", { name: "Add link" }).click();
    await page.getByRole("textbox", { name: "Title", exact: true }).fill("Unit intranet");
    await page.getByRole("textbox", { name: "Web address", exact: true }).fill("javascript:alert(1)");
    await expect(page.getByText("Web address must be a web address starting with http:// or https://")).toBeVisible();
    await page.getByRole("textbox", { name: "Web address", exact: true }).fill("https://intranet.example.org/eeg");
    await page.getByRole("button", { name: "Add link" }).click();
    await expect(page).toHaveURL(/\/useful-links$/);
    const link = page.getByRole("link", { name: /Unit intranet/ });
    await expect(link).toHaveAttribute("href", "https://intranet.example.org/eeg");
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");

    // The new client is in the list, found by its code; the search stays in the URL.
    await page.goto("/#/continuous-monitoring/clients");
    await page.getByRole("searchbox", { name: "Search" }).fill(client.code);
    await expect(page).toHaveURL(new RegExp(`search=${client.code}`));
    await expect(page.getByRole("table", { name: "Clients" }).getByRole("link", { name: client.name })).toBeVisible();
  });

  test("a technologist reads clients without edit controls, and the API refuses their writes", async ({
    page,
    request,
    state,
  }) => {
    await signInToHome(page, seededUser(state, "technologist"), displayNames.technologist);
    await page.goto("/#/continuous-monitoring/clients");
    const seeded = page.getByRole("link", { name: "St. Mary's Regional Medical Center" });
    await expect(seeded).toBeVisible();
    await expect(page.getByRole("link", { name: "New client" })).toHaveCount(0);

    await seeded.click();
    await expect(page.getByRole("heading", { level: 1, name: "St. Mary's Regional Medical Center" })).toBeVisible();
    await expect(page.getByText("Code SMRMC")).toBeVisible();
    await expect(page.getByRole("button", { name: "Edit" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Archive" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Protocol" }).click();
    await expect(page.getByRole("tabpanel")).toBeVisible();
    await expect(page.getByRole("button", { name: "New revision" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Contacts" }).click();
    await expect(page.getByRole("link", { name: "Add contact" })).toHaveCount(0);
    await page.getByRole("tab", { name: "Useful links" }).click();
    await expect(page.getByRole("link", { name: "Add link" })).toHaveCount(0);

    // The create page itself is closed to them.
    await page.goto("/#/continuous-monitoring/clients/create");
    await expect(page).toHaveURL(/#\/unauthorized$/);

    // Hiding buttons is a courtesy; the server is what refuses.
    const token = await idTokenOf(page);
    const clientId = await (async () => {
      const list = await request.get(`${clientsApi}?search=SMRMC`, { headers: { authorization: `Bearer ${token}` } });
      expect(list.status()).toBe(200);
      return ((await list.json()).data.items as { id: string; version: number }[])[0] as {
        id: string;
        version: number;
      };
    })();
    const put = await request.put(`${clientsApi}/${clientId.id}`, {
      headers: { authorization: `Bearer ${token}`, "if-match": `"${clientId.version}"` },
      data: { name: "Taken over", code: "SMRMC", timezone: "America/New_York" },
    });
    expect(put.status()).toBe(403);
    const post = await request.post(clientsApi, {
      headers: { authorization: `Bearer ${token}` },
      data: { name: "Nope", code: "NOPE", timezone: "UTC" },
    });
    expect(post.status()).toBe(403);
    const revision = await request.post(`${clientsApi}/${clientId.id}/protocol/revisions`, {
      headers: { authorization: `Bearer ${token}` },
      data: { baseRevision: null, transferForm: { fields: [] } },
    });
    expect(revision.status()).toBe(403);
  });

  test("two coordinators edit the same client: the second is told about the conflict and loses nothing", async ({
    page,
    browser,
    request,
    state,
  }) => {
    const coordinator = seededUser(state, "coordinator");
    await signInToHome(page, coordinator, displayNames.coordinator);
    const created = await createClientThroughApi(request, await idTokenOf(page), "Harbor Clinic");
    const overview = `/#/continuous-monitoring/clients/${created.id}/overview`;

    const otherContext = await browser.newContext({ baseURL: state.baseURL });
    const other = await otherContext.newPage();
    try {
      await signInToHome(other, coordinator, displayNames.coordinator);
      // Both open the same version for editing.
      for (const tab of [page, other]) {
        await tab.goto(overview);
        await expect(tab.getByRole("heading", { level: 1, name: created.name })).toBeVisible();
        await tab.getByRole("button", { name: "Edit" }).click();
      }

      // The first saves.
      await page.getByRole("textbox", { name: "Notes", exact: true }).fill("Day shift: call the unit clerk first.");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("button", { name: "Edit" })).toBeVisible();
      await expect(page.getByText("Day shift: call the unit clerk first.")).toBeVisible();

      // The second saves from the version they opened: refused, told why, nothing lost.
      const mine = "Night shift: page the charge nurse.";
      await other.getByRole("textbox", { name: "Phone", exact: true }).fill("+13125550123");
      await other.getByRole("textbox", { name: "Notes", exact: true }).fill(mine);
      await other.getByRole("button", { name: "Save" }).click();
      const alert = other.getByRole("alert").filter({ hasText: "Someone else saved this client first" });
      await expect(alert).toBeVisible();
      await expect(other.getByRole("textbox", { name: "Notes", exact: true })).toHaveValue(mine);
      await expect(other.getByRole("textbox", { name: "Phone", exact: true })).toHaveValue("+13125550123");

      await alert.getByRole("button", { name: "Compare" }).click();
      const comparison = other.getByRole("table", { name: /compared with your edits/ });
      const notesRow = comparison.getByRole("row").filter({ has: other.getByRole("rowheader", { name: /^Notes/ }) });
      await expect(notesRow).toContainText("Day shift: call the unit clerk first.");
      await expect(notesRow).toContainText(mine);
      await expect(notesRow).toContainText("Changed");

      // Nothing was overwritten on the server.
      const token = await idTokenOf(other);
      const between = await request.get(`${clientsApi}/${created.id}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await between.json()).data).toMatchObject({ notes: "Day shift: call the unit clerk first.", version: 2 });

      // Having seen theirs, the second user saves knowingly.
      await alert.getByRole("button", { name: "Save my edits over theirs" }).click();
      await expect(other.getByRole("button", { name: "Edit" })).toBeVisible();
      const after = await request.get(`${clientsApi}/${created.id}`, { headers: { authorization: `Bearer ${token}` } });
      expect((await after.json()).data).toMatchObject({ notes: mine, phone: "+13125550123", version: 3 });
    } finally {
      await otherContext.close();
    }
  });
});
