import BugReport from "@mui/icons-material/BugReport";
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { UserMenu } from "./user-menu";

describe("the user menu", () => {
  it("names the account button starting with what it shows: the initials, then the name", () => {
    render(<UserMenu name="Dr. Riley Reviewer" onSignOut={() => {}} />);
    const button = screen.getByRole("button", { name: "DR Dr. Riley Reviewer, account" });
    // Speech-input users say the visible label (WCAG 2.5.3): the initials on a phone, the name beside them elsewhere.
    const visible = (button.textContent ?? "").replace(/\s+/g, " ").trim();
    expect(visible).toBe("DR Dr. Riley Reviewer");
    expect(button.getAttribute("aria-label")?.startsWith(visible)).toBe(true);
  });

  it("offers the actions it is given between the signed-in user and Sign out, closing before one runs", async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    const onSignOut = vi.fn();
    render(
      <UserMenu
        name="Alice Smith"
        email="alice@example.org"
        actions={[{ label: "Report a bug", icon: <BugReport fontSize="small" />, onSelect }]}
        onSignOut={onSignOut}
      />,
    );

    await user.click(screen.getByRole("button", { name: "AS Alice Smith, account" }));
    // The popup is its own chunk, loaded on first use.
    const items = (await screen.findAllByRole("menuitem")).map((item) => item.textContent);
    expect(items).toEqual(["Alice Smithalice@example.org", "Report a bug", "Sign out"]);

    await user.click(screen.getByRole("menuitem", { name: "Report a bug" }));
    expect(onSelect).toHaveBeenCalledTimes(1);
    expect(onSignOut).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
  });

  it("links to a page it is given, closing on the way", async () => {
    const user = userEvent.setup();
    const router = createMemoryRouter(
      [
        {
          path: "/",
          element: (
            <UserMenu name="Alice Smith" actions={[{ label: "Account", to: "/account" }]} onSignOut={() => {}} />
          ),
        },
        { path: "/account", element: <p>Account page</p> },
      ],
      { initialEntries: ["/"] },
    );
    render(<RouterProvider router={router} />);
    await user.click(screen.getByRole("button", { name: "AS Alice Smith, account" }));
    const link = await screen.findByRole("menuitem", { name: "Account" });
    expect(link.getAttribute("href")).toBe("/account");
    await user.click(link);
    expect(await screen.findByText("Account page")).toBeTruthy();
    expect(router.state.location.pathname).toBe("/account");
  });

  it("has only the user and Sign out without actions", async () => {
    const user = userEvent.setup();
    render(<UserMenu name="Alice Smith" onSignOut={() => {}} />);
    await user.click(screen.getByRole("button", { name: "AS Alice Smith, account" }));
    expect((await screen.findAllByRole("menuitem")).map((item) => item.textContent)).toEqual([
      "Alice Smith",
      "Sign out",
    ]);
  });
});
