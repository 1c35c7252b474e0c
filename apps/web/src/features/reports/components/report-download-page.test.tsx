import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { pages, type ReportLinkView } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { theme } from "../../../config/theme";
import { createQueryClient } from "../../../lib/query-client";
import { envelope, type Handler, installFetch } from "../../../test/fake-server";
import { ReportDownloadPage } from "./report-download-page";

const token = `${"1c".repeat(16)}.mg3k2x.c2lnbmF0dXJlLW9mLXRoZS1saW5r`;

function linkView(overrides: Partial<ReportLinkView> = {}): ReportLinkView {
  return {
    companyName: "Vigil Neurodiagnostics",
    clientName: "Pacific Neurology Institute",
    caseNumber: "CM-2026-000123",
    title: "EEG report — daily, 2026-11-21 to 2026-11-22",
    version: 2,
    kind: "addendum",
    signedAt: "2026-11-22T15:30:00.000Z",
    signedBy: "Dr. Riley Reviewer",
    recipientName: "Dr. Nia Neuro",
    linkExpiresAt: "2026-11-29T15:30:00.000Z",
    timeZone: "America/Chicago",
    ...overrides,
  };
}

function gone(reason: "used" | "expired" | "voided", at: string | null, timeZone?: string): Response {
  return Response.json(
    {
      enoch: "release-1",
      error: {
        status: 410,
        code: "gone",
        message: "This link cannot be used.",
        details: { reason, at, ...(timeZone ? { timeZone } : {}) },
      },
    },
    { status: 410 },
  );
}

/** Saved files, caught where the page hands its Blob to the browser. */
function catchSavedFiles() {
  const saved: { name: string; blob: Blob }[] = [];
  let pending: Blob | undefined;
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    pending = blob as Blob;
    return "blob:report";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    if (pending) saved.push({ name: this.download, blob: pending });
  });
  return saved;
}

/** The page as a referring neurologist opens it: no account, nothing stored, only the fake server behind fetch. */
function openLink(routes: Record<string, Handler>) {
  const network = installFetch(routes);
  const router = createMemoryRouter([{ path: pages["report-download"].path, element: <ReportDownloadPage /> }], {
    initialEntries: [pages["report-download"].href({ token })],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <RouterProvider router={router} />
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return network;
}

describe("the report download page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows what the report is, downloads the PDF once with the token in the body, and says it is done", async () => {
    const user = userEvent.setup();
    const saved = catchSavedFiles();
    const sent: unknown[] = [];
    const { calls } = openLink({
      "POST /api/report-links/lookup": () => envelope(linkView()),
      "POST /api/report-links/download": async ({ text }) => {
        sent.push(JSON.parse(await text()));
        return new Response("%PDF-1.7 the report", { headers: { "content-type": "application/pdf" } });
      },
    });

    expect(await screen.findByText("CM-2026-000123")).toBeTruthy();
    expect(screen.getByText("Pacific Neurology Institute")).toBeTruthy();
    expect(screen.getByText("EEG report — daily, 2026-11-21 to 2026-11-22")).toBeTruthy();
    expect(screen.getByText("2 (with an addendum)")).toBeTruthy();
    expect(screen.getByText("Dr. Riley Reviewer")).toBeTruthy();
    expect(screen.getByText(/From Vigil Neurodiagnostics, for Dr\. Nia Neuro/)).toBeTruthy();
    // Looking does not spend the link: nothing is downloaded before the click.
    expect(sent).toEqual([]);

    await user.click(screen.getByRole("button", { name: "Download PDF" }));

    const confirmation = await screen.findByRole("status");
    expect(confirmation.textContent).toContain("The report is downloaded.");
    expect(confirmation.textContent).toContain("EEG-report-CM-2026-000123-v2.pdf");
    expect(document.activeElement).toBe(confirmation);
    expect(screen.queryByRole("button", { name: "Download PDF" })).toBeNull();
    expect(sent).toEqual([{ token }]);
    expect(saved.map((file) => file.name)).toEqual(["EEG-report-CM-2026-000123-v2.pdf"]);
    expect(await saved[0]?.blob.text()).toBe("%PDF-1.7 the report");
    // No call carried a session, and none carried the token in its address.
    expect(calls.every((call) => call.authorization === null && !call.path.includes(token))).toBe(true);
  });

  it("says plainly that a used link was used, with no button", async () => {
    openLink({ "POST /api/report-links/lookup": () => gone("used", "2026-11-23T08:00:00.000Z") });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link has already been used.")).toBeTruthy();
    expect(alert.textContent).toContain("Each link works once.");
    expect(alert.textContent).toContain("ask the EEG monitoring team to send it again");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("words its times in the client's zone, named, with the same expiry the e-mail gave, whatever the reader's zone", async () => {
    // A reader in Tokyo: the page must not move the client's times into the browser's zone.
    const resolvedOptions = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, "resolvedOptions").mockImplementation(function (this: Intl.DateTimeFormat) {
      return { ...resolvedOptions.call(this), timeZone: "Asia/Tokyo" };
    });
    openLink({ "POST /api/report-links/lookup": () => envelope(linkView()) });
    // The e-mail's wording of the expiry (report-delivery.ts: formatInstantInZone in the client's zone).
    expect(await screen.findByText("Nov 29, 2026, 09:30 CST (America/Chicago)")).toBeTruthy();
    expect(screen.getByText("Nov 22, 2026, 09:30 CST (America/Chicago)")).toBeTruthy();
    expect(document.body.textContent).not.toContain("Asia/Tokyo");
  });

  it("says plainly that a withdrawn link was withdrawn, with no button", async () => {
    openLink({ "POST /api/report-links/lookup": () => gone("voided", "2026-11-23T08:00:00.000Z", "America/Chicago") });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link was withdrawn.")).toBeTruthy();
    expect(alert.textContent).toContain("The sender withdrew it, so it no longer downloads the report.");
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says when a used link was used in the client's zone", async () => {
    openLink({ "POST /api/report-links/lookup": () => gone("used", "2026-11-23T08:00:00.000Z", "America/Chicago") });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("on Nov 23, 2026, 02:00 CST (America/Chicago)");
  });

  it("says plainly that an expired link has expired, with no button", async () => {
    openLink({ "POST /api/report-links/lookup": () => gone("expired", "2026-11-29T15:30:00.000Z") });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link has expired.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says plainly that a link that is not ours is not valid, with no button", async () => {
    openLink({
      "POST /api/report-links/lookup": () =>
        Response.json(
          { enoch: "release-1", error: { status: 404, code: "not_found", message: "This link is not valid." } },
          { status: 404 },
        ),
    });
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link is not valid.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("says so when the link was used elsewhere between opening it and downloading, and saves nothing", async () => {
    const user = userEvent.setup();
    const saved = catchSavedFiles();
    openLink({
      "POST /api/report-links/lookup": () => envelope(linkView()),
      "POST /api/report-links/download": () => gone("used", "2026-11-23T08:00:00.000Z"),
    });
    await user.click(await screen.findByRole("button", { name: "Download PDF" }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("This link has already been used.")).toBeTruthy();
    expect(screen.queryByRole("button")).toBeNull();
    expect(saved).toEqual([]);
  });

  it("offers the download again when no answer came (a refused link would say so then)", async () => {
    const user = userEvent.setup();
    catchSavedFiles();
    let attempts = 0;
    openLink({
      "POST /api/report-links/lookup": () => envelope(linkView()),
      "POST /api/report-links/download": () => {
        attempts++;
        if (attempts === 1) throw new TypeError("Failed to fetch");
        return new Response("%PDF-1.7", { headers: { "content-type": "application/pdf" } });
      },
    });
    await user.click(await screen.findByRole("button", { name: "Download PDF" }));
    expect(await screen.findByText("The report was not downloaded. Check the connection and try again.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Download PDF" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toContain("The report is downloaded."));
  });
});
