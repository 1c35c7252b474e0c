import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { recordEnoch } from "../../../lib/enoch-tracker";
import { envelope } from "../../../test/fake-server";
import { renderBugScreen, testReport } from "../testing/render-bug-reports";
import { BugReportDialog } from "./bug-report-dialog";

/** The dialog as the app layer uses it: open until it asks to close, and kept mounted after that. */
function OpenDialog() {
  const [open, setOpen] = useState(true);
  return (
    <>
      {open ? null : <p>Dialog closed</p>}
      <BugReportDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/** Puts the user somewhere in the app with a known screen, as the browser would. */
function standOnAPage() {
  window.location.hash = "#/continuous-monitoring/clients?search=lake";
  vi.spyOn(window.screen, "width", "get").mockReturnValue(2560);
  vi.spyOn(window.screen, "height", "get").mockReturnValue(1440);
  vi.stubGlobal("devicePixelRatio", 2);
  recordEnoch("release-41");
  return window.location.href;
}

function issuesResponse(issues: { path: string; message: string }[]) {
  return Response.json(
    {
      enoch: "release-41",
      error: { status: 400, code: "bad_request", message: "Invalid request", details: { issues } },
    },
    { status: 400 },
  );
}

async function fillIn(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByLabelText(/^Title/));
  await user.paste("Impedance chart stays empty");
  await user.click(screen.getByLabelText(/^What happened/));
  await user.paste("The chart shows no electrodes after saving a check.");
  await user.selectOptions(screen.getByLabelText(/^Severity/), "high");
}

// jsdom renders MUI dialogs slowly on a loaded 2-core machine; the wait changes no assertion.
describe("the bug report dialog", () => {
  it("sends the page, browser, screen and app version by itself and leaves the user on their page", async () => {
    const pageUrl = standOnAPage();
    const bodies: unknown[] = [];
    const user = userEvent.setup();
    renderBugScreen(<OpenDialog />, {
      groups: ["technologist"],
      routes: {
        "POST /api/bugs/reports": async ({ text }) => {
          bodies.push(JSON.parse(await text()));
          return envelope(testReport({ number: "BUG-7" }), { status: 201 });
        },
      },
    });

    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });
    const summary = within(dialog).getByRole("region", { name: "Sent with your report" });
    expect(within(summary).getByRole("link", { name: pageUrl }).getAttribute("href")).toBe(pageUrl);
    expect(within(summary).getByText(navigator.userAgent)).toBeTruthy();
    expect(within(summary).getByText("2560 × 1440 at 2× pixel ratio")).toBeTruthy();
    expect(within(summary).getByText("server release release-41, web build test-build")).toBeTruthy();

    await fillIn(user);
    await user.click(within(dialog).getByLabelText(/^Steps to reproduce/));
    await user.paste("1. Open a case\n2. Add an impedance check");
    await user.click(within(dialog).getByRole("button", { name: "Send report" }));

    expect(await screen.findByText("Thanks — filed as BUG-7")).toBeTruthy();
    expect(bodies).toEqual([
      {
        title: "Impedance chart stays empty",
        description: "The chart shows no electrodes after saving a check.",
        stepsToReproduce: "1. Open a case\n2. Add an impedance check",
        severity: "high",
        context: {
          pageUrl,
          userAgent: navigator.userAgent,
          screen: { width: 2560, height: 1440, devicePixelRatio: 2 },
          viewport: { width: window.innerWidth, height: window.innerHeight },
          appVersion: { enoch: "release-41", buildId: "test-build" },
        },
      },
    ]);
    expect(await screen.findByText("Dialog closed")).toBeTruthy();
    expect(window.location.href).toBe(pageUrl);
  });

  it("checks the fields as they are typed, with the contract's messages, and sends nothing invalid", async () => {
    standOnAPage();
    const user = userEvent.setup();
    const { calls } = renderBugScreen(<OpenDialog />);
    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });

    await user.click(within(dialog).getByLabelText(/^Title/));
    await user.paste("x".repeat(201));
    expect(await within(dialog).findByText("Title must be at most 200 characters")).toBeTruthy();
    await user.clear(within(dialog).getByLabelText(/^Title/));
    expect(await within(dialog).findByText("Title is required")).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(await within(dialog).findByText("What happened is required")).toBeTruthy();
    expect(within(dialog).getByText("Severity is required")).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/^Title/)
        .getAttribute("aria-invalid"),
    ).toBe("true");
    expect(calls.filter((call) => call.method === "POST")).toEqual([]);
  });

  it("shows the server's refusal under the fields it names", async () => {
    standOnAPage();
    const user = userEvent.setup();
    renderBugScreen(<OpenDialog />, {
      routes: {
        "POST /api/bugs/reports": () =>
          issuesResponse([
            { path: "body.title", message: "must say what went wrong" },
            { path: "body.description", message: "is too vague" },
          ]),
      },
    });
    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });
    await fillIn(user);
    await user.click(within(dialog).getByRole("button", { name: "Send report" }));

    expect(await within(dialog).findByText("Title must say what went wrong")).toBeTruthy();
    expect(within(dialog).getByText("What happened is too vague")).toBeTruthy();
    expect(screen.getByRole("dialog", { name: "Report a bug" })).toBeTruthy();
    expect((within(dialog).getByLabelText(/^Title/) as HTMLInputElement).value).toBe("Impedance chart stays empty");
  });

  it("asks before throwing away a half-written report, on Cancel and on Escape", async () => {
    standOnAPage();
    const user = userEvent.setup();
    renderBugScreen(<OpenDialog />);
    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });
    await user.click(within(dialog).getByLabelText(/^Title/));
    await user.paste("Half a thought");

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    const confirm = await screen.findByRole("dialog", { name: "Discard this bug report?" });
    await user.click(within(confirm).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Discard this bug report?" })).toBeNull());
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe("Half a thought");

    await user.keyboard("{Escape}");
    const again = await screen.findByRole("dialog", { name: "Discard your changes?" });
    await user.click(within(again).getByRole("button", { name: "Discard changes" }));
    expect(await screen.findByText("Dialog closed")).toBeTruthy();
  });

  it("closes at once when nothing was written", async () => {
    standOnAPage();
    const user = userEvent.setup();
    renderBugScreen(<OpenDialog />);
    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(await screen.findByText("Dialog closed")).toBeTruthy();
    expect(screen.queryByRole("dialog", { name: "Discard this bug report?" })).toBeNull();
  });
});
