import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AccessGroup, MenuEntry } from "@vigil/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiRequest } from "../lib/api-client";
import { createQueryClient } from "../lib/query-client";
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
import { createAppRouter } from "./router";
import { sessionRereadIntervalMs, sessionRereadOnReturnAfterMs } from "./session-refresh";

const usersEntry: MenuEntry = { title: "Users", url: "/users", icon: "people" };
const accountChangedMessage = "Your session ended: an administrator changed your account. Sign in again or ask them.";
const signedOutEverywhereMessage =
  "You were signed out because your account was signed out everywhere, or its password was changed, on another device or browser. Sign in again to go on.";

/**
 * Alice's account on the fake server, which an administrator changes while her tab stays open: the menu and her
 * details answer with her groups as they are at the time of each call, as Vigil's server does.
 */
function startApp(path: string, routes: Record<string, Handler> = {}) {
  const account = { groups: ["coordinator"] as AccessGroup[] };
  const menuOf = (groups: readonly AccessGroup[]): MenuEntry[] => [
    ...coordinatorMenu.filter(
      (entry) => groups.includes("coordinator") || ["Home", "Unauthorized"].includes(entry.title),
    ),
    ...(groups.includes("admin") ? [usersEntry] : []),
  ];
  window.location.hash = `#${path}`;
  const network = installFetch({
    "GET /api/config": () => envelope(testConfig),
    "GET /api/chrome": () => envelope({ items: menuOf(account.groups) }),
    "GET /api/users/alice": () => envelope(testUser({ groups: account.groups })),
    "GET /api/chrome/breadcrumbs": ({ url }) =>
      envelope({ items: [{ title: "Here", url: null }], path: url.searchParams.get("path") }),
    // Amplify's sign-out revokes the refresh token; Vigil answers even for a sign-in that already ended.
    "POST /cognito": () => Response.json({}),
    ...routes,
  });
  render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
  const reads = () => network.calls.filter((call) => call.path === "/api/chrome").length;
  return { account, reads, ...network };
}

const navigation = () => screen.getByRole("navigation", { name: "Main navigation" });
const currentHash = () => decodeURIComponent(window.location.hash);

function unauthorizedAnswer(details?: unknown): Response {
  const error = { status: 401, code: "unauthorized", message: "Your session ended.", ...(details ? { details } : {}) };
  return Response.json({ enoch: "release-1", error }, { status: 401 });
}

describe("the session follows what an administrator changes", () => {
  beforeEach(() => {
    emulateScreen(true);
    storeSignedInTokens("alice", ["coordinator"]);
  });
  afterEach(() => vi.useRealTimers());

  it("opens a page whose group was granted after the menu was read, instead of Unauthorized, with its menu entry", async () => {
    const { account, reads } = startApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    expect(within(navigation()).queryByRole("link", { name: "Users" })).toBeNull();
    const readsBefore = reads();

    account.groups = ["coordinator", "admin"];
    window.location.hash = "#/users";

    expect(await screen.findByRole("heading", { level: 1, name: "Users" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/users");
    expect(reads()).toBeGreaterThan(readsBefore);
    expect(within(navigation()).getByRole("link", { name: "Users" })).toBeInstanceOf(HTMLAnchorElement);
  });

  it("opens a page granted a moment after the last re-read, reading the groups again rather than reusing that read", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"], shouldAdvanceTime: true });
    const { account, reads } = startApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    // The periodic re-read answers with the groups as they were.
    const readsBefore = reads();
    vi.advanceTimersByTime(sessionRereadIntervalMs);
    await waitFor(() => expect(reads()).toBe(readsBefore + 1));
    await waitFor(() =>
      expect(within(navigation()).getByRole("link", { name: "Clients" })).toBeInstanceOf(HTMLElement),
    );

    // Within the moment a re-read is shared for (a burst of refusals), the administrator grants admin and the user
    // types the address of the page it opens.
    account.groups = ["coordinator", "admin"];
    window.location.hash = "#/users";

    expect(await screen.findByRole("heading", { level: 1, name: "Users" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/users");
    expect(reads()).toBe(readsBefore + 2);
  });

  it("still sends a user to Unauthorized for a page their current groups do not grant, after re-reading them", async () => {
    const { reads } = startApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    const readsBefore = reads();

    window.location.hash = "#/users";

    expect(await screen.findByRole("heading", { level: 1, name: "Unauthorized" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/unauthorized");
    expect(reads()).toBe(readsBefore + 1);
  });

  it("re-reads the session when a call is refused, so a removed group takes its page and menu entry away", async () => {
    const { account } = startApp("/", {
      "GET /api/continuous-monitoring/clients": () => errorEnvelope(403, "forbidden", "Access denied"),
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);

    // The administrator takes coordinator away; the menu on screen still offers Clients.
    account.groups = ["developer"];
    await userEvent.setup().click(within(navigation()).getByRole("link", { name: "Clients" }));

    expect(await screen.findByRole("heading", { level: 1, name: "Unauthorized" })).toBeInstanceOf(HTMLElement);
    expect(currentHash()).toBe("#/unauthorized");
    await waitFor(() => expect(within(navigation()).queryByRole("link", { name: "Clients" })).toBeNull());
  });

  it("re-reads the menu every few minutes while the tab is in view and on coming back to it, not at every focus", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"], shouldAdvanceTime: true });
    const { account, reads } = startApp("/");
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);

    account.groups = ["coordinator", "admin"];
    vi.advanceTimersByTime(sessionRereadIntervalMs);
    expect(await within(navigation()).findByRole("link", { name: "Users" })).toBeInstanceOf(HTMLAnchorElement);

    // Focus moments after a read asks nothing: the menu is fresh.
    const readsAfterInterval = reads();
    window.dispatchEvent(new Event("focus"));
    expect(reads()).toBe(readsAfterInterval);

    account.groups = ["coordinator"];
    vi.advanceTimersByTime(sessionRereadOnReturnAfterMs);
    window.dispatchEvent(new Event("focus"));
    await waitFor(() => expect(within(navigation()).queryByRole("link", { name: "Users" })).toBeNull());
    expect(reads()).toBe(readsAfterInterval + 1);
  });
});

describe("a session ended from outside", () => {
  beforeEach(() => emulateScreen(true));

  it("tells a user whose account an administrator changed why they are at the sign-in page, until dismissed", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    startApp("/continuous-monitoring/clients", {
      "GET /api/continuous-monitoring/clients": () => unauthorizedAnswer({ reason: "account-changed" }),
    });

    await waitFor(() => expect(currentHash()).toBe("#/signin"));
    expect(await screen.findByText(accountChangedMessage)).toBeInstanceOf(HTMLElement);
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(Object.keys(window.localStorage).filter((key) => key.endsWith(".idToken"))).toEqual([]);

    await userEvent.setup().click(screen.getByRole("button", { name: /dismiss/i }));
    await waitFor(() => expect(screen.queryByText(accountChangedMessage)).toBeNull());
  });

  it("tells a user signed out everywhere from another device why they are at the sign-in page", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    startApp("/continuous-monitoring/clients", {
      "GET /api/continuous-monitoring/clients": () => unauthorizedAnswer({ reason: "signed-out-everywhere" }),
    });

    await waitFor(() => expect(currentHash()).toBe("#/signin"));
    expect(await screen.findByText(signedOutEverywhereMessage)).toBeInstanceOf(HTMLElement);
    expect(screen.queryByText(accountChangedMessage)).toBeNull();
  });

  it("ends the session on a refused write too, with the reason", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    startApp("/", { "POST /api/bugs": () => unauthorizedAnswer({ reason: "account-changed" }) });
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);

    const result = await apiRequest("POST", "/bugs", { body: { title: "The menu is stale" } });
    expect(result?.error?.status).toBe(401);

    await waitFor(() => expect(currentHash()).toBe("#/signin"));
    expect(await screen.findByText(accountChangedMessage)).toBeInstanceOf(HTMLElement);
  });

  it("gives no reason when the API refuses a token the user's own sign-out or time ended", async () => {
    storeSignedInTokens("alice", ["coordinator"]);
    startApp("/continuous-monitoring/clients", {
      "GET /api/continuous-monitoring/clients": () => unauthorizedAnswer(),
    });

    await waitFor(() => expect(currentHash()).toBe("#/signin"));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(screen.queryByText(accountChangedMessage)).toBeNull();
  });

  it("says why when the user signed out everywhere elsewhere and refreshing expired tokens is refused", async () => {
    storeSignedInTokens("alice", ["coordinator"], -60);
    startApp("/continuous-monitoring/clients", {
      "POST /cognito": () =>
        Response.json({ __type: "NotAuthorizedException", message: "Refresh Token has been revoked" }, { status: 400 }),
    });

    await waitFor(() => expect(currentHash()).toBe("#/signin?redirect=/continuous-monitoring/clients"));
    expect(await screen.findByText(signedOutEverywhereMessage)).toBeInstanceOf(HTMLElement);
  });

  it.each([
    [
      "says why when an administrator disabled the account and refreshing expired tokens is refused",
      { __type: "NotAuthorizedException", message: "User is disabled." },
      true,
    ],
    [
      "says why when an administrator reset the password and refreshing expired tokens is refused",
      { __type: "PasswordResetRequiredException", message: "Password reset required for the user" },
      true,
    ],
    [
      "gives no reason when refreshing is refused because the sign-in ran out of time",
      { __type: "NotAuthorizedException", message: "Invalid Refresh Token" },
      false,
    ],
  ])("%s", async (_, refusal, told) => {
    storeSignedInTokens("alice", ["coordinator"], -60);
    startApp("/continuous-monitoring/clients", {
      "POST /cognito": () => Response.json(refusal, { status: 400 }),
    });

    await waitFor(() => expect(currentHash()).toBe("#/signin?redirect=/continuous-monitoring/clients"));
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    if (told) expect(screen.getByText(accountChangedMessage)).toBeInstanceOf(HTMLElement);
    else expect(screen.queryByText(accountChangedMessage)).toBeNull();
  });
});
