import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  clientId,
  page,
  renderClientScreen,
  testCase,
  testClient,
  testContact,
  testLink,
} from "../testing/render-client-screen";

const base = `/continuous-monitoring/clients/${clientId}`;
const api = `/api/continuous-monitoring/clients/${clientId}`;

describe("contacts, useful links and cases tabs", () => {
  it("lists contacts and removes one only after confirming", async () => {
    const user = userEvent.setup();
    const contact = testContact();
    let contacts = [
      contact,
      testContact({
        _id: "5c3e8f1a-1111-4a2b-9c3d-000000000002",
        name: "Sam Resident",
        email: "sam@example.org",
        isPrimary: false,
      }),
    ];
    const removed: string[] = [];
    renderClientScreen(`${base}/contacts`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/contacts`]: () => envelope(contacts),
        [`DELETE ${api}/contacts/${contact._id}`]: ({ url }) => {
          removed.push(url.pathname);
          contacts = contacts.filter((entry) => entry._id !== contact._id);
          return new Response(null, { status: 204 });
        },
      },
    });
    const table = await screen.findByRole("table", { name: /Contacts of/ });
    expect(within(table).getByText("Primary")).toBeTruthy();
    expect(within(table).getByRole("link", { name: "jordan@example.org" }).getAttribute("href")).toBe(
      "mailto:jordan@example.org",
    );
    expect(screen.getByRole("link", { name: "Add contact" }).getAttribute("href")).toBe(`${base}/contacts/create`);

    await user.click(screen.getByRole("button", { name: "Remove Jordan Nurse" }));
    const dialog = screen.getByRole("dialog", { name: "Remove Jordan Nurse?" });
    expect(removed).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Remove contact" }));
    await waitFor(() => expect(removed).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText("Jordan Nurse")).toBeNull());
  });

  it("edits a contact in a dialog with If-Match and keeps the edits on a 412", async () => {
    const user = userEvent.setup();
    const contact = testContact();
    const theirs = testContact({ role: "Nurse manager", version: 2 });
    const ifMatches: (string | null)[] = [];
    renderClientScreen(`${base}/contacts`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/contacts`]: () => envelope([contact]),
        [`PUT ${api}/contacts/${contact._id}`]: ({ headers }) => {
          ifMatches.push(headers.get("if-match"));
          return Response.json(
            {
              enoch: "release-1",
              error: { status: 412, code: "precondition_failed", message: "Stale", details: { current: theirs } },
            },
            { status: 412 },
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit Jordan Nurse" }));
    const dialog = screen.getByRole("dialog", { name: "Edit contact Jordan Nurse" });
    const role = within(dialog).getByLabelText(/^Role/);
    await user.clear(role);
    await user.click(role);
    await user.paste("Night charge nurse");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Someone else saved this contact first")).toBeTruthy();
    expect(ifMatches).toEqual(['"1"']);
    expect((within(dialog).getByLabelText(/^Role/) as HTMLInputElement).value).toBe("Night charge nurse");
  });

  it("validates a new contact as the user types and sends it", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const { location } = renderClientScreen(`${base}/contacts/create`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`POST ${api}/contacts`]: async ({ text }) => {
          bodies.push(JSON.parse(await text()));
          return envelope(testContact(), { status: 201 });
        },
      },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "New contact" })).toBeTruthy();
    await user.click(screen.getByLabelText(/^Name/));
    await user.paste("Jordan Nurse");
    await user.click(screen.getByRole("checkbox", { name: "Notify of critical findings" }));
    const checkbox = screen.getByRole("checkbox", { name: "Notify of critical findings" });
    expect(checkbox.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(/needs a phone number or an email address/)).toBeTruthy();
    await user.click(screen.getByLabelText(/^Email/));
    await user.paste("jordan@example.org");
    expect(checkbox.getAttribute("aria-invalid")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Add contact" }));
    await waitFor(() => expect(location()).toBe(`${base}/contacts`));
    expect(bodies[0]).toMatchObject({ name: "Jordan Nurse", email: "jordan@example.org", notifyOnCritical: true });
  });

  it("opens useful links in a new tab without handing over the window, and refuses non-web addresses", async () => {
    const user = userEvent.setup();
    renderClientScreen(`${base}/useful-links`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/useful-links`]: () =>
          envelope([
            testLink(),
            testLink({ _id: "7e2d9b4c-2222-4a2b-9c3d-000000000002", title: "Old", url: "javascript:alert(1)" }),
          ]),
      },
    });
    const link = await screen.findByRole("link", { name: /Unit intranet/ });
    expect(link.getAttribute("href")).toBe("https://intranet.example.org/eeg");
    expect(link.getAttribute("target")).toBe("_blank");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.queryByRole("link", { name: /Old/ })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Remove Unit intranet" }));
    expect(screen.getByRole("dialog", { name: "Remove Unit intranet?" })).toBeTruthy();
  });

  it("says when a client has no useful links yet, and offers no Add to a user who may not write", async () => {
    renderClientScreen(`${base}/useful-links`, {
      groups: ["reviewer"],
      routes: { [`GET ${api}`]: () => envelope(testClient()), [`GET ${api}/useful-links`]: () => envelope([]) },
    });
    expect(await screen.findByText("No useful links yet.")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Add link" })).toBeNull();
  });

  it("says which list could not be loaded, and reads it again on Try again", async () => {
    const user = userEvent.setup();
    let answers = 0;
    renderClientScreen(`${base}/contacts`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/contacts`]: () => {
          answers += 1;
          return answers === 1
            ? Response.json(
                { enoch: "release-1", error: { status: 503, code: "unavailable", message: "Try later." } },
                { status: 503 },
              )
            : envelope([testContact()]);
        },
      },
    });
    expect(await screen.findByText("The contacts could not be loaded: Try later.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("table", { name: /Contacts of/ })).toBeTruthy();
  });

  it("checks a new link's address as the user types", async () => {
    const user = userEvent.setup();
    renderClientScreen(`${base}/useful-links/create`, { routes: { [`GET ${api}`]: () => envelope(testClient()) } });
    const url = await screen.findByLabelText(/^Web address/);
    await user.click(url);
    await user.paste("ftp://files.example.org");
    expect(url.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Web address must be a web address starting with http:// or https://")).toBeTruthy();
  });

  it("pages the client's cases on the server and says when there are none", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderClientScreen(`${base}/cases`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/cases`]: ({ url }) =>
          envelope(url.searchParams.get("stage") === "closed" ? page([]) : page([testCase()], 1)),
      },
    });
    const caseLink = await screen.findByRole("link", { name: "CM-2026-000123" });
    expect(caseLink.getAttribute("href")).toBe(
      "/continuous-monitoring/cases/monitoring/9f1e2d3c-3333-4a2b-9c3d-000000000001/overview",
    );
    expect(screen.getByText("Nov 22, 2026, 09:14 EST (America/New_York)")).toBeTruthy();
    await user.selectOptions(screen.getByLabelText("Stage"), "closed");
    await waitFor(() => expect(location()).toBe(`${base}/cases?stage=closed`));
    expect(await screen.findByText("No closed cases.")).toBeTruthy();
    expect(calls.at(-1)?.path).toBe(`${api}/cases?stage=closed&limit=25&offset=0`);
  });

  it("shows the empty state when the client has no cases", async () => {
    renderClientScreen(`${base}/cases`, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/cases`]: () => envelope(page([])),
      },
    });
    expect(await screen.findByText("No cases yet")).toBeTruthy();
  });
});
