import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { clientId, renderClientScreen, testClient } from "../testing/render-client-screen";

const overviewPath = `/continuous-monitoring/clients/${clientId}/overview`;
const clientPath = `/api/continuous-monitoring/clients/${clientId}`;

function failure(status: number, code: string, message: string, details?: unknown) {
  return Response.json({ enoch: "release-1", error: { status, code, message, details } }, { status });
}

describe("client overview", () => {
  it("shows the client's details with times in the client's zone, named", async () => {
    renderClientScreen(overviewPath, { routes: { [`GET ${clientPath}`]: () => envelope(testClient()) } });
    expect(await screen.findByRole("heading", { level: 1, name: "St. Mary's Regional Medical Center" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected")).toBe("true");
    expect(screen.getByRole("tab", { name: "Protocol" }).getAttribute("href")).toBe(
      `/continuous-monitoring/clients/${clientId}/protocol`,
    );
    expect(screen.getByText("Nov 22, 2026, 09:14 EST (America/New_York)")).toBeTruthy();
    expect(screen.getByText("1 Harbor Way\nBoston, MA 02110\nUSA", { normalizer: (text) => text })).toBeTruthy();
  });

  it("saves with If-Match and, when someone saved first (412), keeps the edits and shows both versions", async () => {
    const user = userEvent.setup();
    const theirs = testClient({ name: "St. Mary's Medical Center", phone: "+16175550199", version: 4 });
    const puts: { ifMatch: string | null; body: Record<string, unknown> }[] = [];
    renderClientScreen(overviewPath, {
      routes: {
        [`GET ${clientPath}`]: () => envelope(testClient()),
        [`PUT ${clientPath}`]: async ({ headers, text }) => {
          const body = JSON.parse(await text()) as Record<string, unknown>;
          puts.push({ ifMatch: headers.get("if-match"), body });
          if (puts.length === 1)
            return failure(412, "precondition_failed", "The client was changed by someone else", { current: theirs });
          return envelope({ ...theirs, ...body, version: 5 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const notes = screen.getByLabelText("Notes");
    await user.click(notes);
    await user.paste("Night shift calls the charge nurse.");
    await user.click(screen.getByRole("button", { name: "Save" }));

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Someone else saved this client first")).toBeTruthy();
    expect(puts[0]?.ifMatch).toBe('"3"');
    // The user's typing is still there; nothing was overwritten.
    expect((screen.getByLabelText("Notes") as HTMLTextAreaElement).value).toBe("Night shift calls the charge nurse.");
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe("St. Mary's Regional Medical Center");

    await user.click(within(alert).getByRole("button", { name: "Compare" }));
    const comparison = screen.getByRole("table", { name: /compared with your edits/ });
    const nameRow = within(comparison).getByRole("rowheader", { name: /^Name/ }).closest("tr") as HTMLElement;
    expect(within(nameRow).getByText("St. Mary's Medical Center")).toBeTruthy();
    expect(within(nameRow).getByText("St. Mary's Regional Medical Center")).toBeTruthy();
    expect(within(nameRow).getByText("Changed")).toBeTruthy();
    const notesRow = within(comparison)
      .getByRole("rowheader", { name: /^Notes/ })
      .closest("tr") as HTMLElement;
    expect(within(notesRow).getByText("Night shift calls the charge nurse.")).toBeTruthy();

    // Knowingly saving over their version sends their version as If-Match.
    await user.click(within(alert).getByRole("button", { name: "Save my edits over theirs" }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1]?.ifMatch).toBe('"4"');
    expect(puts[1]?.body.notes).toBe("Night shift calls the charge nurse.");
    expect(await screen.findByRole("button", { name: "Edit" })).toBeTruthy();
  });

  it("reloads their version when asked, dropping the edits", async () => {
    const user = userEvent.setup();
    const theirs = testClient({ name: "St. Mary's Medical Center", version: 4 });
    renderClientScreen(overviewPath, {
      routes: {
        [`GET ${clientPath}`]: () => envelope(testClient()),
        [`PUT ${clientPath}`]: () => failure(412, "precondition_failed", "Stale", { current: theirs }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.click(screen.getByLabelText("Notes"));
    await user.paste("mine");
    await user.click(screen.getByRole("button", { name: "Save" }));
    await user.click(await screen.findByRole("button", { name: "Reload their version" }));
    expect((screen.getByLabelText(/^Name/) as HTMLInputElement).value).toBe("St. Mary's Medical Center");
    expect((screen.getByLabelText("Notes") as HTMLTextAreaElement).value).toBe("");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says why a save was refused for a reason that is neither a conflict nor about a field, keeping the edits", async () => {
    const user = userEvent.setup();
    renderClientScreen(overviewPath, {
      routes: {
        [`GET ${clientPath}`]: () => envelope(testClient()),
        [`PUT ${clientPath}`]: () => failure(409, "conflict", "Archived clients are read-only."),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    await user.click(screen.getByLabelText("Notes"));
    await user.paste("mine");
    await user.click(screen.getByRole("button", { name: "Save" }));

    expect(await screen.findByText("The client was not saved: Archived clients are read-only.")).toBeTruthy();
    expect((screen.getByLabelText("Notes") as HTMLTextAreaElement).value).toBe("mine");
  });

  it("asks before archiving and explains a refusal while the client has open cases", async () => {
    const user = userEvent.setup();
    renderClientScreen(overviewPath, {
      routes: {
        [`GET ${clientPath}`]: () => envelope(testClient()),
        [`DELETE ${clientPath}`]: () =>
          failure(409, "conflict", "St. Mary's has 2 open cases; close them before archiving the client.", {
            openCaseCount: 2,
          }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Archive" }));
    const dialog = screen.getByRole("dialog", { name: "Archive St. Mary's Regional Medical Center?" });
    expect(within(dialog).getByText(/has 2 open/)).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Archive client" }));
    expect(
      await within(dialog).findByText(
        "Not archived: St. Mary's has 2 open cases; close them before archiving the client.",
      ),
    ).toBeTruthy();
  });

  it("hides every edit control from a user without clients:write", async () => {
    renderClientScreen(overviewPath, {
      groups: ["technologist"],
      routes: { [`GET ${clientPath}`]: () => envelope(testClient()) },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "St. Mary's Regional Medical Center" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Archive" })).toBeNull();
  });

  it("says so when the id names no client", async () => {
    renderClientScreen(overviewPath, {
      routes: { [`GET ${clientPath}`]: () => failure(404, "not_found", "Client not found") },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Client not found" })).toBeTruthy();
  });

  it("answers an unknown tab with Page Not Found", async () => {
    renderClientScreen(`/continuous-monitoring/clients/${clientId}/billing`, {
      routes: { [`GET ${clientPath}`]: () => envelope(testClient()) },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Page Not Found" })).toBeTruthy();
  });
});
