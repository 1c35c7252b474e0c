import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import {
  coordinatorMenu,
  envelope,
  installFetch,
  storeSignedInTokens,
  testConfig,
  testUser,
} from "../../test/fake-server";
import { App } from "../app";
import { createAppRouter } from "../router";

describe("the app chrome", () => {
  it("offers Report a bug in the user menu, as a dialog over the page the user stays on", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    window.location.hash = "#/unauthorized";
    installFetch({
      "GET /api/config": () => envelope(testConfig),
      "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
      "GET /api/users/alice": () => envelope(testUser()),
      "GET /api/chrome/breadcrumbs": ({ url }) =>
        envelope({ items: [{ title: "Here", url: null }], path: url.searchParams.get("path") }),
    });
    render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
    const user = userEvent.setup();
    const where = window.location.href;

    await user.click(await screen.findByRole("button", { name: "AS Alice Smith, account" }));
    // The menu's popup is its own chunk, loaded on first use.
    await user.click(await screen.findByRole("menuitem", { name: "Report a bug" }));

    const dialog = await screen.findByRole("dialog", { name: "Report a bug" });
    const summary = within(dialog).getByRole("region", { name: "Sent with your report" });
    expect(within(summary).getByRole("link", { name: where })).toBeTruthy();
    expect(within(summary).getByText("server release release-1, web build test-build")).toBeTruthy();
    // The page is still there behind the dialog (hidden from assistive technology while the dialog is open).
    expect(screen.getByRole("heading", { name: "Unauthorized", hidden: true })).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Report a bug" })).toBeNull());
    expect(window.location.href).toBe(where);
  });

  it("puts the clock-alerts bell with its unread count before the account button, once the session is ready", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    window.location.hash = "#/unauthorized";
    installFetch({
      "GET /api/config": () => envelope(testConfig),
      "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
      "GET /api/users/alice": () => envelope(testUser()),
      "GET /api/chrome/breadcrumbs": ({ url }) =>
        envelope({ items: [{ title: "Here", url: null }], path: url.searchParams.get("path") }),
      "GET /api/notifications/clock-alerts": () => envelope({ items: [], total: 0, limit: 20, offset: 0, unread: 3 }),
    });
    render(<App router={createAppRouter()} queryClient={createQueryClient()} />);

    const account = await screen.findByRole("button", { name: "AS Alice Smith, account" });
    // The bell is its own chunk, loaded beside the page rather than before it.
    const bell = await screen.findByRole("button", { name: "Clock alerts, 3 unread" });
    const banner = screen.getByRole("banner");
    const buttons = within(banner).getAllByRole("button");
    expect(buttons.indexOf(bell)).toBe(buttons.indexOf(account) - 1);
  });
});
