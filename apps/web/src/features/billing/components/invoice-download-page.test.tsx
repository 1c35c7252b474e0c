import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { pages } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { theme } from "../../../config/theme";
import { createQueryClient } from "../../../lib/query-client";
import { type Handler, installFetch } from "../../../test/fake-server";
import { InvoiceDownloadPage } from "./invoice-download-page";

const token = `${"2d".repeat(16)}.mg3k2x.c2lnbmF0dXJlLW9mLXRoZS1saW5r`;
const download = "POST /api/invoice-links/download";

function gone(reason: "used" | "expired", at: string | null): Response {
  return Response.json(
    { enoch: "release-1", error: { status: 410, code: "gone", message: "gone", details: { reason, at } } },
    { status: 410 },
  );
}

/** Saved files, caught where the page hands its Blob to the browser. */
function catchSavedFiles() {
  const saved: string[] = [];
  vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:invoice");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  return saved;
}

/** The page as a hospital's accounts payable opens it: no account, only the fake server behind fetch. */
function openLink(routes: Record<string, Handler>) {
  const network = installFetch(routes);
  const router = createMemoryRouter([{ path: pages["invoice-download"].path, element: <InvoiceDownloadPage /> }], {
    initialEntries: [pages["invoice-download"].href({ token })],
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

describe("the invoice download page", () => {
  afterEach(() => vi.restoreAllMocks());

  it("downloads the PDF with the token in the body and says the link is now used", async () => {
    const saved = catchSavedFiles();
    const bodies: unknown[] = [];
    openLink({
      [download]: async ({ text }: { text: () => Promise<string> }) => {
        bodies.push(JSON.parse(await text()));
        return new Response(new Blob(["%PDF-1.7"]), { headers: { "content-type": "application/pdf" } });
      },
    });
    await userEvent.click(await screen.findByRole("button", { name: "Download PDF" }));
    expect(await screen.findByText("The invoice is downloaded.")).toBeTruthy();
    expect(bodies).toEqual([{ token }]);
    expect(saved).toEqual(["invoice.pdf"]);
  });

  it("says a used link was used, with no button to retry", async () => {
    openLink({ [download]: () => gone("used", "2026-11-22T15:30:00.000Z") });
    await userEvent.click(await screen.findByRole("button", { name: "Download PDF" }));
    expect(await screen.findByText("This link has already been used.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Download PDF" })).toBeNull();
  });

  it("says an expired link expired", async () => {
    openLink({ [download]: () => gone("expired", "2026-11-22T15:30:00.000Z") });
    await userEvent.click(await screen.findByRole("button", { name: "Download PDF" }));
    expect(await screen.findByText("This link has expired.")).toBeTruthy();
  });
});
