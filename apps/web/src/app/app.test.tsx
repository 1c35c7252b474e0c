import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "../lib/query-client";
import { pageReloader } from "../lib/reload-guard";
import { emulateScreen } from "../test/emulate-screen";
import {
  coordinatorMenu,
  envelope,
  errorEnvelope,
  type Handler,
  installFetch,
  storeSignedInTokens,
  testConfig,
  testUser,
} from "../test/fake-server";
import { App } from "./app";
import { createAppRouter, pageComponents } from "./router";

/** Boots the real app (hash router, Amplify, query client) at `#path` against a fake server. */
function startApp(path: string, routes: Record<string, Handler> = {}) {
  window.location.hash = `#${path}`;
  const network = installFetch({
    "GET /api/config": () => envelope(testConfig),
    "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
    "GET /api/users/alice": () => envelope(testUser()),
    "GET /api/chrome/breadcrumbs": ({ url }) =>
      envelope({ items: [{ title: "Here", url: null }], path: url.searchParams.get("path") }),
    ...routes,
  });
  const router = createAppRouter();
  render(<App router={router} queryClient={createQueryClient()} />);
  return { router, ...network };
}

function currentHash() {
  return decodeURIComponent(window.location.hash);
}

describe("the web app", () => {
  beforeEach(() => emulateScreen(true));

  it("shows Page Not Found followed by the path for an unknown path", async () => {
    startApp("/no/such/page");
    expect(await screen.findByRole("heading", { name: "Page Not Found" })).toBeInstanceOf(HTMLElement);
    expect(screen.getByText("/no/such/page")).toBeInstanceOf(HTMLElement);
    expect(screen.getByText("Error 404")).toBeInstanceOf(HTMLElement);
    await waitFor(() => expect(document.title).toBe("Page Not Found – Vigil"));
  });

  it("sends a signed-out visitor of a protected page to /signin, remembering the page", async () => {
    startApp("/continuous-monitoring/clients");
    await waitFor(() => expect(currentHash()).toBe("#/signin?redirect=/continuous-monitoring/clients"));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(screen.queryByRole("tab", { name: "Create Account" })).toBeNull();
  });

  it("loads the menu and the current user in parallel, then welcomes the user on the home page", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    const pending: (() => void)[] = [];
    const held = (response: () => Response) => () =>
      new Promise<Response>((resolve) => pending.push(() => resolve(response())));
    const { calls } = startApp("/", {
      "GET /api/chrome": held(() => envelope({ items: coordinatorMenu })),
      "GET /api/users/alice": held(() => envelope(testUser())),
    });
    expect(await screen.findByText("Loading your workspace…")).toBeInstanceOf(HTMLElement);
    // Both requests are in flight before either has answered.
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining(["/api/chrome", "/api/users/alice"]));
    for (const release of pending) release();

    expect(await screen.findByRole("heading", { name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    const main = screen.getByRole("main");
    expect(within(main).getByRole("link", { name: "Clients" }).getAttribute("href")).toBe(
      "#/continuous-monitoring/clients",
    );
    const navigation = screen.getByRole("navigation", { name: "Main navigation" });
    expect(
      within(navigation)
        .getAllByRole("link")
        .map((link) => link.textContent),
    ).toEqual(["Home", "Continuous monitoring", "Clients", "Monitoring", "Reporting"]);
    expect(screen.getByRole("button", { name: "AS Alice Smith, account" })).toBeInstanceOf(HTMLButtonElement);
    await waitFor(() => expect(document.title).toBe("Home – Vigil"));
  });

  it("loads a page's screen on demand, under its title and the server's breadcrumbs", async () => {
    storeSignedInTokens("alice", ["developer"]);
    const { calls } = startApp("/bugs", {
      "GET /api/users/alice": () => envelope(testUser({ groups: ["developer"] })),
      "GET /api/bugs/reports": () => envelope({ items: [], total: 0, limit: 25, offset: 0 }),
    });
    expect(await screen.findByRole("heading", { name: "Bugs" })).toBeInstanceOf(HTMLElement);
    expect(await screen.findByRole("tab", { name: "Reports" })).toBeInstanceOf(HTMLElement);
    expect(await screen.findByRole("navigation", { name: "Breadcrumbs" })).toBeInstanceOf(HTMLElement);
    expect(calls.map((call) => call.path)).toContain("/api/chrome/breadcrumbs?path=%2Fbugs");
  });

  it("opens the Unit tests tab at the address people type for it, /bugs/unit-tests", async () => {
    storeSignedInTokens("alice", ["developer"]);
    startApp("/bugs/unit-tests", {
      "GET /api/users/alice": () => envelope(testUser({ groups: ["developer"] })),
      "GET /api/bugs/unit-tests": () =>
        envelope({
          items: [],
          total: 0,
          limit: 25,
          offset: 0,
          available: false,
          ranAt: null,
          revision: null,
          totals: { total: 0, passed: 0, failed: 0, skipped: 0 },
          matching: { total: 0, passed: 0, failed: 0, skipped: 0 },
          suites: [],
        }),
    });
    const tab = await screen.findByRole("tab", { name: "Unit tests" });
    expect(await screen.findByText(/No test results here yet/)).toBeInstanceOf(HTMLElement);
    await waitFor(() => expect(tab.getAttribute("aria-selected")).toBe("true"));
    expect(currentHash()).toBe("#/bugs?tab=unit-tests");
  });

  it("sends a user without access groups to /unauthorized when the menu call is denied", async () => {
    storeSignedInTokens("alice", []);
    startApp("/", {
      "GET /api/chrome": () => errorEnvelope(403, "forbidden", "Access denied"),
      "GET /api/users/alice": () => envelope(testUser({ groups: [] })),
    });
    expect(await screen.findByRole("heading", { name: "Unauthorized" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/unauthorized");
    expect(screen.getByText("You do not have access to this page.")).toBeInstanceOf(HTMLElement);
    expect(screen.getByRole("button", { name: "Sign out" })).toBeInstanceOf(HTMLButtonElement);
  });

  it("sends a user to /unauthorized when their groups do not grant the page", async () => {
    storeSignedInTokens("alice", ["technologist"]);
    startApp("/users", { "GET /api/users/alice": () => envelope(testUser({ groups: ["technologist"] })) });
    expect(await screen.findByRole("heading", { name: "Unauthorized" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/unauthorized");
  });

  it("signs out from the user menu and returns to /signin without the previous user's data", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    startApp("/");
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "AS Alice Smith, account" }));
    await user.click(await screen.findByRole("menuitem", { name: "Sign out" }));
    await waitFor(() => expect(currentHash()).toBe("#/signin"));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(Object.keys(window.localStorage).filter((key) => key.endsWith(".idToken"))).toEqual([]);
  });

  it("ends a session whose refresh token was revoked at /signin, remembering the page", async () => {
    storeSignedInTokens("alice", ["coordinator"], -60);
    const { calls } = startApp("/continuous-monitoring/clients", {
      // Amplify refreshes the expired tokens; Vigil's identity service refuses the revoked refresh token.
      "POST /cognito": () =>
        Response.json({ __type: "NotAuthorizedException", message: "Refresh Token has been revoked" }, { status: 400 }),
    });
    await waitFor(() => expect(currentHash()).toBe("#/signin?redirect=/continuous-monitoring/clients"));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(calls.some((call) => call.path === "/cognito")).toBe(true);
    expect(calls.some((call) => call.path === "/api/chrome")).toBe(false);
  });

  it("reloads once when a page's chunk fails to load (a new build replaced it)", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    const reload = vi.spyOn(pageReloader, "reload").mockImplementation(() => {});
    // React and React Router log the caught render error; that noise is the expected path here.
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(pageComponents, "home").mockRejectedValue(
      new TypeError("Failed to fetch dynamically imported module: /assets/home-old.js"),
    );
    startApp("/");
    expect(await screen.findByText("Loading the latest version…")).toBeInstanceOf(HTMLElement);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem("vigil:reload:/")).not.toBeNull();
  });

  it("shows the configuration error when /api/config cannot be read", async () => {
    window.location.hash = "#/";
    installFetch({ "GET /api/config": () => errorEnvelope(500, "internal", "Internal Server Error") });
    const originalError = console.error;
    console.error = () => {};
    try {
      render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
      expect(
        await screen.findByText("Configuration error (see console) – please contact the administrator"),
      ).toBeInstanceOf(HTMLElement);
    } finally {
      console.error = originalError;
    }
  });
});
