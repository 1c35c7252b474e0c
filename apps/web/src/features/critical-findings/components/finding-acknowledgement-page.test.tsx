import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type FindingLinkView, pages } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { theme } from "../../../config/theme";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch } from "../../../test/fake-server";
import { FindingAcknowledgementPage } from "./finding-acknowledgement-page";

const token = `${"0f".repeat(16)}.mg3k2x.c2lnbmF0dXJlLW9mLXRoZS1saW5r`;

function linkView(overrides: Partial<FindingLinkView> = {}): FindingLinkView {
  return {
    caseNumber: "CM-2026-000123",
    clientName: "Pacific Neurology Institute",
    timeZone: "America/Los_Angeles",
    kind: "electrographic-seizure",
    onsetAt: "2026-11-22T14:02:00.000Z",
    raisedAt: "2026-11-22T14:10:00.000Z",
    description: "Right temporal rhythmic discharges evolving over 40 s.",
    recipientName: "Dr. Nia Neuro",
    patient: null,
    location: null,
    dueAt: "2026-11-22T14:25:00.000Z",
    teamPhone: null,
    status: "open",
    acknowledgedAt: null,
    acknowledgedBy: null,
    readBack: null,
    readBackConfirmed: false,
    linkExpiresAt: "2026-11-23T14:10:00.000Z",
    ...overrides,
  };
}

function gone(
  reason: "used" | "expired" | "closed" | "staff",
  at: string | null,
  message = "This link cannot be used.",
): Response {
  return Response.json(
    {
      enoch: "release-1",
      error: { status: 410, code: "gone", message, details: { reason, at } },
    },
    { status: 410 },
  );
}

/** The page as a hospital clinician opens it: no account, no tokens stored, only the fake server behind fetch. */
function openLink(routes: Record<string, Handler>) {
  const network = installFetch(routes);
  const router = createMemoryRouter(
    [{ path: pages["finding-acknowledgement"].path, element: <FindingAcknowledgementPage /> }],
    { initialEntries: [pages["finding-acknowledgement"].href({ token })] },
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return network;
}

describe("the critical-finding acknowledgement page", () => {
  it("shows the finding in the client's zone and acknowledges it with the name given, then confirms with the time", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const { calls } = openLink({
      "POST /api/finding-links/lookup": () => envelope(linkView()),
      "POST /api/finding-links/acknowledgement": async ({ text }) => {
        sent.push(JSON.parse(await text()));
        return envelope(
          linkView({
            status: "acknowledged",
            acknowledgedAt: "2026-11-22T14:16:00.000Z",
            acknowledgedBy: "Nurse Ana",
            readBack: "Seizure, right temporal",
            readBackConfirmed: true,
          }),
        );
      },
    });

    expect(await screen.findByText("Electrographic seizure (ESz)")).toBeTruthy();
    expect(screen.getByText("CM-2026-000123")).toBeTruthy();
    expect(screen.getByText("Pacific Neurology Institute")).toBeTruthy();
    expect(screen.getByText("Nov 22, 2026, 06:02 PST (America/Los_Angeles)")).toBeTruthy();
    expect(screen.getByText("Nov 22, 2026, 06:10 PST (America/Los_Angeles)")).toBeTruthy();
    expect(screen.getByText("Right temporal rhythmic discharges evolving over 40 s.")).toBeTruthy();

    // The page greets them by name, and the form starts with it.
    const name = screen.getByRole("textbox", { name: "Your name" }) as HTMLInputElement;
    expect(name.value).toBe("Dr. Nia Neuro");
    // The name is required: the form says so under the field and keeps the focus there.
    await user.clear(name);
    await user.click(screen.getByRole("button", { name: "Acknowledge" }));
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("Your name is required")).toBeTruthy();
    expect(sent).toEqual([]);

    await user.click(name);
    await user.paste("Nurse Ana");
    await user.click(screen.getByRole("textbox", { name: "Read-back or note (optional)" }));
    await user.paste("Seizure, right temporal");
    await user.click(screen.getByRole("checkbox", { name: "This is my read-back of the finding shown above" }));
    await user.click(screen.getByRole("button", { name: "Acknowledge" }));

    const confirmation = await screen.findByRole("status");
    expect(confirmation.textContent).toContain("Thank you. The finding is acknowledged.");
    expect(confirmation.textContent).toContain(
      "Acknowledged by Nurse Ana on Nov 22, 2026, 06:16 PST (America/Los_Angeles)",
    );
    expect(confirmation.textContent).toContain("Your read-back was recorded: “Seizure, right temporal”");
    expect(document.activeElement).toBe(confirmation);
    expect(screen.queryByRole("button", { name: "Acknowledge" })).toBeNull();
    expect(sent).toEqual([{ token, name: "Nurse Ana", readBack: "Seizure, right temporal", readBackConfirmed: true }]);
    // No call carried a session, and none carried the token in its address.
    expect(calls.every((call) => call.authorization === null && !call.path.includes(token))).toBe(true);
  });

  it("gives the physician what they need to act: where the patient lies, by when, and the team's number", async () => {
    openLink({
      "POST /api/finding-links/lookup": () =>
        envelope(linkView({ location: { unit: "Neuro ICU", room: null, bed: "12" }, teamPhone: "+1 (312) 555-0199" })),
    });
    expect(await screen.findByText("Neuro ICU, bed 12")).toBeTruthy();
    expect(screen.getByText("Acknowledge by")).toBeTruthy();
    expect(screen.getByText("Nov 22, 2026, 06:25 PST (America/Los_Angeles)")).toBeTruthy();
    const call = screen.getByRole("link", { name: "+1 (312) 555-0199" });
    expect(call.getAttribute("href")).toBe("tel:+13125550199");
  });

  it("asks for the read-back itself before confirming one, and sends nothing until then", async () => {
    const user = userEvent.setup();
    const { calls } = openLink({ "POST /api/finding-links/lookup": () => envelope(linkView()) });
    await user.click(await screen.findByRole("checkbox", { name: "This is my read-back of the finding shown above" }));
    await user.click(screen.getByRole("button", { name: "Acknowledge" }));
    expect(await screen.findByText("Read-back or note is required to confirm a read-back")).toBeTruthy();
    expect(calls.filter((call) => call.path.endsWith("/acknowledgement"))).toEqual([]);
  });

  it("tells the holder of a link once sent to staff that only the hospital acknowledges, with no button", async () => {
    openLink({ "POST /api/finding-links/lookup": () => gone("staff", null) });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link is for information only.")).toBeTruthy();
    expect(alert.textContent).toContain("Only the hospital acknowledges a critical finding.");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says plainly that a used link was used, with no button", async () => {
    openLink({ "POST /api/finding-links/lookup": () => gone("used", "2026-11-22T14:16:00.000Z") });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link has already been used.")).toBeTruthy();
    expect(alert.textContent).toContain("Each link works once; nothing more is needed.");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says plainly that an expired link has expired and whom to call, with no button", async () => {
    openLink({ "POST /api/finding-links/lookup": () => gone("expired", null) });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link has expired.")).toBeTruthy();
    expect(alert.textContent).toContain("call the EEG monitoring team");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says plainly that a link that is not ours is not valid, with no button", async () => {
    openLink({
      "POST /api/finding-links/lookup": () =>
        Response.json(
          { enoch: "release-1", error: { status: 404, code: "not_found", message: "This link is not valid." } },
          { status: 404 },
        ),
    });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link is not valid.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says who acknowledged a finding someone else acknowledged already, and offers no button", async () => {
    openLink({
      "POST /api/finding-links/lookup": () =>
        envelope(
          linkView({ status: "acknowledged", acknowledgedAt: "2026-11-22T14:12:00.000Z", acknowledgedBy: "Dr. Lee" }),
        ),
    });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This finding has already been acknowledged.")).toBeTruthy();
    expect(alert.textContent).toContain("Dr. Lee acknowledged it on Nov 22, 2026, 06:12 PST (America/Los_Angeles)");
    expect(screen.getByText("Electrographic seizure (ESz)")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says so when the link stopped working between opening it and acknowledging", async () => {
    const user = userEvent.setup();
    openLink({
      "POST /api/finding-links/lookup": () => envelope(linkView()),
      "POST /api/finding-links/acknowledgement": () =>
        gone(
          "closed",
          "2026-11-22T14:15:00.000Z",
          "This finding was already acknowledged by Dr. Lee at Nov 22, 2026, 06:15 PST (America/Los_Angeles); nothing more is needed.",
        ),
    });
    await user.click(await screen.findByRole("textbox", { name: "Your name" }));
    await user.paste("Nurse Ana");
    await user.click(screen.getByRole("button", { name: "Acknowledge" }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This finding no longer needs to be acknowledged.")).toBeTruthy();
    expect(alert.textContent).toContain("already acknowledged by Dr. Lee at Nov 22, 2026, 06:15 PST");
    expect(screen.queryByRole("button")).toBeNull();
  });
});
