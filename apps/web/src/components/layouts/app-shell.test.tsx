import { ThemeProvider } from "@mui/material/styles";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { theme } from "../../config/theme";
import { emulateScreen } from "../../test/emulate-screen";
import { AppShell } from "./app-shell";

function renderShell() {
  const router = createMemoryRouter([
    {
      path: "*",
      element: (
        <AppShell
          layout="app"
          title="Clients"
          homeUrl="/"
          renderNavigation={(onNavigate) => (
            <button type="button" onClick={onNavigate}>
              Clients
            </button>
          )}
        >
          <p>The page</p>
        </AppShell>
      ),
    },
  ]);
  return render(
    <ThemeProvider theme={theme}>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
}

describe("the app shell", () => {
  it("keeps the navigation beside the page on wide screens, without a menu button", () => {
    emulateScreen(true);
    renderShell();
    const navigation = screen.getByRole("navigation", { name: "Main navigation" });
    expect(within(navigation).getByRole("button", { name: "Clients" })).toBeInstanceOf(HTMLButtonElement);
    expect(screen.queryByRole("button", { name: "Open navigation" })).toBeNull();
  });

  it("opens the navigation as a drawer over the page on small screens and closes it after a choice", async () => {
    emulateScreen(false);
    renderShell();
    const user = userEvent.setup();
    expect(screen.queryByRole("navigation", { name: "Main navigation" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Open navigation" }));
    // The temporary drawer (MUI's Drawer and Modal) is its own chunk, loaded for small screens only.
    const navigation = await screen.findByRole("navigation", { name: "Main navigation" });
    await user.click(within(navigation).getByRole("button", { name: "Clients" }));
    await waitFor(() => expect(screen.queryByRole("navigation", { name: "Main navigation" })).toBeNull());
  });
});
