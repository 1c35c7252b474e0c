import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PublicConfig } from "@vigil/contract";
import { afterEach, describe, expect, it } from "vitest";
import { dismissRedirectFailure } from "../../lib/auth";
import { createQueryClient } from "../../lib/query-client";
import {
  coordinatorMenu,
  envelope,
  fakeJwt,
  type Handler,
  installFetch,
  testConfig,
  testUser,
} from "../../test/fake-server";
import { App } from "../app";
import { createAppRouter } from "../router";

/** Federated sign-in through the hosted UI, as Amplify does it in the browser (the hosted UI itself is faked). */
const clientId = testConfig.identity.userPoolClientId;
const storagePrefix = `CognitoIdentityServiceProvider.${clientId}`;

function federatedConfig(providerName: string): PublicConfig {
  return {
    ...testConfig,
    federation: {
      enabled: true,
      providerName,
      domain: "auth.vigil.test",
      scopes: ["phone", "email", "profile", "openid", "aws.cognito.signin.user.admin"],
      redirectSignIn: ["http://localhost:3000/"],
      redirectSignOut: ["http://localhost:3000/"],
    },
  };
}

/** Boots the app at `address` (search and hash) as the hosted UI's redirect would land it there. */
function startAt(address: string, config: PublicConfig, routes: Record<string, Handler> = {}) {
  window.history.replaceState(null, "", address);
  const network = installFetch({
    "GET /api/config": () => envelope(config),
    "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
    "GET /api/users/alice": () => envelope(testUser()),
    "GET /api/chrome/breadcrumbs": () => envelope({ items: [] }),
    ...routes,
  });
  render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
  return network;
}

/** What Amplify stored before it sent the browser to the hosted UI. */
function rememberRedirectInFlight(state: string, verifier: string) {
  window.localStorage.setItem(`${storagePrefix}.inflightOAuth`, "true");
  window.localStorage.setItem(`${storagePrefix}.inflightOAuthDeadline`, String(Date.now() + 300_000));
  window.localStorage.setItem(`${storagePrefix}.oauthState`, state);
  window.localStorage.setItem(`${storagePrefix}.oauthPKCE`, verifier);
}

afterEach(() => {
  dismissRedirectFailure();
  window.history.replaceState(null, "", "/");
});

describe("federated sign-in", () => {
  it("shows the provider's button and starts Amplify's redirect with PKCE and state", async () => {
    startAt("/#/signin", federatedConfig("Google"));
    const button = await screen.findByRole("button", { name: /Sign In with Google/ });
    await userEvent.setup().click(button);
    // Amplify keeps the state (32 characters) and the PKCE verifier (128) for the way back (spec §9).
    await waitFor(() => expect(window.localStorage.getItem(`${storagePrefix}.inflightOAuth`)).toBe("true"));
    expect(window.localStorage.getItem(`${storagePrefix}.oauthState`)).toHaveLength(32);
    expect(window.localStorage.getItem(`${storagePrefix}.oauthPKCE`)).toHaveLength(128);
  });

  it("draws Vigil's own button for a provider the Authenticator does not know", async () => {
    startAt("/#/signin", federatedConfig("Example SSO"));
    expect(await screen.findByRole("button", { name: "Sign in with Example SSO" })).toBeInstanceOf(HTMLElement);
    expect(screen.queryByRole("button", { name: /Sign In with Google/ })).toBeNull();
  });

  it("opened at another address than the one the provider returns to, says in plain words where it works", async () => {
    const config = federatedConfig("Google");
    const atMainAddress = {
      ...config,
      federation: {
        ...(config.federation as NonNullable<PublicConfig["federation"]>),
        redirectSignIn: ["https://vigil.example.org/"],
      },
    };
    startAt("/#/signin", atMainAddress);
    const link = await screen.findByRole("link", { name: "Open the sign-in page at https://vigil.example.org" });
    expect(link.getAttribute("href")).toBe("https://vigil.example.org/#/signin");
    expect(screen.getByText(/Sign-in with Google works only at Vigil's main address, not at this one/)).toBeInstanceOf(
      HTMLElement,
    );
    // No button that could only fail with Amplify's "redirect is coming from a different origin".
    expect(screen.queryByRole("button", { name: /Sign In with Google/ })).toBeNull();
    expect(screen.queryByText(/different origin/)).toBeNull();
    expect(screen.getByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLElement);
  });

  it("shows no provider button without federation", async () => {
    startAt("/#/signin", testConfig);
    expect(await screen.findByRole("button", { name: "Sign in" })).toBeInstanceOf(HTMLElement);
    expect(screen.queryByRole("button", { name: /Sign In with/i })).toBeNull();
  });

  it("exchanges the code at the hosted UI's token endpoint and signs the user in", async () => {
    rememberRedirectInFlight("s".repeat(32), "v".repeat(128));
    const now = Math.floor(Date.now() / 1000);
    const common = { sub: testUser().sub, iat: now, exp: now + 3600, auth_time: now, origin_jti: "o1" };
    const bodies: string[] = [];
    startAt(`/?code=the-code&state=${"s".repeat(32)}`, federatedConfig("Google"), {
      "POST /oauth2/token": async ({ url, text }) => {
        expect(url.origin).toBe("https://auth.vigil.test");
        bodies.push(await text());
        return Response.json({
          access_token: fakeJwt({ ...common, username: "alice", token_use: "access", client_id: clientId }),
          id_token: fakeJwt({ ...common, "cognito:username": "alice", token_use: "id", aud: clientId }),
          refresh_token: "opaque",
          token_type: "Bearer",
          expires_in: 3600,
        });
      },
    });
    expect(await screen.findByRole("heading", { level: 1, name: "Welcome, Alice Smith" })).toBeInstanceOf(HTMLElement);
    expect(Object.fromEntries(new URLSearchParams(bodies[0]))).toEqual({
      grant_type: "authorization_code",
      code: "the-code",
      client_id: clientId,
      redirect_uri: "http://localhost:3000/",
      code_verifier: "v".repeat(128),
    });
    expect(window.location.search).toBe("");
  });

  it("shows the hosted UI's refusal on the sign-in screen, once", async () => {
    rememberRedirectInFlight("s".repeat(32), "v".repeat(128));
    const description = "No Vigil account uses this Google address. Ask an administrator.";
    startAt(
      `/?error=access_denied&error_description=${encodeURIComponent(description)}&state=${"s".repeat(32)}`,
      federatedConfig("Google"),
    );
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(description);
    expect(decodeURIComponent(window.location.hash)).toBe("#/signin");
    // The answer leaves the address bar, so a reload does not show it again.
    expect(window.location.search).toBe("");
    await userEvent.setup().click(screen.getByRole("button", { name: "Dismiss alert" }));
    await waitFor(() => expect(screen.queryByText(description)).toBeNull());
  });
});
