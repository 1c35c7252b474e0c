import { render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { pageReloader, resetReloadState } from "../../lib/reload-guard";
import { RouteErrorPage } from "./route-error-page";

function Failing({ error }: { error: unknown }): never {
  throw error;
}

function renderFailingRoute(path: string, error: unknown) {
  const router = createMemoryRouter(
    [{ path: "*", element: <Failing error={error} />, ErrorBoundary: RouteErrorPage }],
    {
      initialEntries: [path],
    },
  );
  return render(<RouterProvider router={router} />);
}

describe("route error page", () => {
  it("shows the 500 Internal Server Error page when a page crashes", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    renderFailingRoute("/bugs", new Error("Cannot read properties of undefined (reading 'items')"));
    expect(await screen.findByRole("heading", { name: "Internal Server Error" })).toBeInstanceOf(HTMLElement);
    expect(screen.getByText("Error 500")).toBeInstanceOf(HTMLElement);
    expect(screen.queryByText(/reading 'items'/)).toBeNull();
  });

  it("reloads once when a chunk failed to load, and shows the 500 page if it fails again within 10 s", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const reload = vi.spyOn(pageReloader, "reload").mockImplementation(() => {});
    const chunkError = new TypeError("Failed to fetch dynamically imported module: /assets/home-old.js");

    const first = renderFailingRoute("/users", chunkError);
    expect(await screen.findByText("Loading the latest version…")).toBeInstanceOf(HTMLElement);
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();

    // After the reload (a fresh page: the in-memory flag is gone, the sessionStorage claim is not).
    resetReloadState();
    renderFailingRoute("/users", chunkError);
    expect(await screen.findByRole("heading", { name: "Internal Server Error" })).toBeInstanceOf(HTMLElement);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
