import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it } from "vitest";
import { createQueryClient } from "../lib/query-client";
import { emulateScreen } from "../test/emulate-screen";
import {
  coordinatorMenu,
  envelope,
  fakeJwt,
  type Handler,
  installFetch,
  storeSignedInTokens,
  testConfig,
  testUser,
} from "../test/fake-server";
import { App } from "./app";
import { createAppRouter } from "./router";

const unreachableNotice = /The sign-in service cannot be reached\. You are still signed in/;

/** What Vigil's identity service answers to Amplify's refresh (`GetTokensFromRefreshToken`). */
function refreshedTokens(username: string): Response {
  const now = Math.floor(Date.now() / 1000);
  const clientId = testConfig.identity.userPoolClientId;
  const common = { sub: testUser().sub, iss: "http://localhost:3000", iat: now, exp: now + 3600, auth_time: now };
  return Response.json({
    AuthenticationResult: {
      AccessToken: fakeJwt({ ...common, username, token_use: "access", client_id: clientId, jti: "a2" }),
      IdToken: fakeJwt({ ...common, "cognito:username": username, token_use: "id", aud: clientId }),
      ExpiresIn: 3600,
      TokenType: "Bearer",
    },
  });
}

function startApp(path: string, routes: Record<string, Handler>) {
  window.location.hash = `#${path}`;
  const network = installFetch({
    "GET /api/config": () => envelope(testConfig),
    "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
    "GET /api/users/alice": () => envelope(testUser()),
    "GET /api/chrome/breadcrumbs": ({ url }) =>
      envelope({ items: [{ title: "Here", url: null }], path: url.searchParams.get("path") }),
    ...routes,
  });
  render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
  return network;
}

describe("the session while the identity service is out of reach", () => {
  beforeEach(() => emulateScreen(true));

  it("keeps a user whose tokens expired signed in, says the connection is lost, and carries on once it is back", async () => {
    storeSignedInTokens("alice", ["coordinator"], -60);
    let reachable = false;
    const { calls, fetchMock } = startApp("/", {
      "POST /cognito": ({ headers }) => {
        // What fetch does when nothing answers: Amplify retries, then reports a network error.
        if (!reachable) throw new TypeError("Failed to fetch");
        expect(headers.get("x-amz-target")).toBe("AWSCognitoIdentityProviderService.GetTokensFromRefreshToken");
        return refreshedTokens("alice");
      },
    });

    expect(await screen.findByText(unreachableNotice)).toBeInstanceOf(HTMLElement);
    // Amplify called the published path on the page's own origin.
    const identityCall = fetchMock.mock.calls.find(([input]) => String(input).endsWith("/cognito"));
    expect(String(identityCall?.[0])).toBe(`${window.location.origin}/cognito`);
    // Still signed in: no sign-in form, the refresh token kept.
    expect(window.location.hash).toBe("#/");
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    expect(Object.keys(window.localStorage).some((key) => key.endsWith(".refreshToken"))).toBe(true);

    // Every call the screens made has given up for now (the details could not be loaded), none signed anyone out.
    expect(await screen.findByText("Your account details could not be loaded.")).toBeInstanceOf(HTMLElement);
    expect(screen.getByText(unreachableNotice)).toBeInstanceOf(HTMLElement);
    expect(screen.queryByRole("button", { name: "Sign in" })).toBeNull();
    // Nothing went to the API without a token.
    expect(calls.filter((call) => call.path.startsWith("/api/") && call.path !== "/api/config")).toEqual([]);

    reachable = true;
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "Try now" }));

    expect(await screen.findByRole("heading", { name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    await waitFor(() => expect(screen.queryByText(unreachableNotice)).toBeNull());
    const menuCall = calls.find((call) => call.path === "/api/chrome");
    expect(menuCall?.authorization).toMatch(/^Bearer /);
  });

  it("still ends the session when the identity service refuses the refresh", async () => {
    storeSignedInTokens("alice", ["coordinator"], -60);
    startApp("/continuous-monitoring/clients", {
      "POST /cognito": () =>
        Response.json({ __type: "NotAuthorizedException", message: "Refresh Token has expired" }, { status: 400 }),
    });
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLButtonElement);
    expect(decodeURIComponent(window.location.hash)).toBe("#/signin?redirect=/continuous-monitoring/clients");
    expect(screen.queryByText(unreachableNotice)).toBeNull();
  });
});
