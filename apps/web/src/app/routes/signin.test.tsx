import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
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

type CognitoCall = { target: string; body: Record<string, unknown> };

function tokensFor(username: string) {
  const now = Math.floor(Date.now() / 1000);
  const common = {
    sub: "7d0f4f3e-2b7a-4a51-9a55-3f1f1b0c2a10",
    iat: now,
    exp: now + 3600,
    auth_time: now,
    origin_jti: "o1",
  };
  return {
    AccessToken: fakeJwt({
      ...common,
      username,
      token_use: "access",
      client_id: testConfig.identity.userPoolClientId,
      jti: "a1",
    }),
    IdToken: fakeJwt({
      ...common,
      "cognito:username": username,
      token_use: "id",
      aud: testConfig.identity.userPoolClientId,
    }),
    RefreshToken: "opaque-refresh-token",
    ExpiresIn: 3600,
    TokenType: "Bearer",
  };
}

/** Vigil's Cognito-compatible identity service at the wire level Amplify speaks: one POST, operation in a header. */
function identityService(answer: (call: CognitoCall) => unknown, calls: CognitoCall[]): Handler {
  return async ({ headers, text }) => {
    const target = (headers.get("x-amz-target") ?? "").replace("AWSCognitoIdentityProviderService.", "");
    const call = { target, body: JSON.parse((await text()) || "{}") as Record<string, unknown> };
    calls.push(call);
    return new Response(JSON.stringify(answer(call)), {
      status: 200,
      headers: { "content-type": "application/x-amz-json-1.1" },
    });
  };
}

function startAt(path: string, cognito: (call: CognitoCall) => unknown) {
  window.location.hash = `#${path}`;
  const calls: CognitoCall[] = [];
  installFetch({
    "GET /api/config": () => envelope(testConfig),
    "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
    "GET /api/users/alice": () => envelope(testUser()),
    "GET /api/chrome/breadcrumbs": () => envelope({ items: [] }),
    "POST /cognito": identityService(cognito, calls),
  });
  render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
  return calls;
}

describe("sign-in", () => {
  it("signs in with USER_PASSWORD_AUTH and returns to the page the user wanted", async () => {
    const calls = startAt("/signin?redirect=%2Fcontinuous-monitoring%2Fclients", ({ target }) => {
      if (target === "InitiateAuth") return { AuthenticationResult: tokensFor("alice"), ChallengeParameters: {} };
      if (target === "GetUser") {
        return {
          Username: "alice",
          UserAttributes: [
            { Name: "email", Value: "alice@example.org" },
            { Name: "email_verified", Value: "true" },
          ],
        };
      }
      return {};
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Username"), "alice");
    await user.click(screen.getByLabelText("Password"));
    await user.paste("correct horse battery staple");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const heading = await screen.findByRole("heading", { level: 1, name: "Clients" });
    expect(decodeURIComponent(window.location.hash)).toBe("#/continuous-monitoring/clients");
    // Keyboard and screen-reader users land on the page they asked for, not on <body>.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(calls[0]).toEqual({
      target: "InitiateAuth",
      body: expect.objectContaining({
        AuthFlow: "USER_PASSWORD_AUTH",
        AuthParameters: expect.objectContaining({ USERNAME: "alice" }),
      }),
    });
  });

  it("checks a new password against the server's password policy", async () => {
    startAt("/signin", ({ target }) => {
      if (target === "InitiateAuth") {
        return {
          ChallengeName: "NEW_PASSWORD_REQUIRED",
          Session: "session-1",
          ChallengeParameters: { USER_ID_FOR_SRP: "alice", requiredAttributes: "[]", userAttributes: "{}" },
        };
      }
      return {};
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Username"), "alice");
    await user.click(screen.getByLabelText("Password"));
    await user.paste("temporary-password");
    await user.click(screen.getByRole("button", { name: "Sign in" }));

    const newPassword = await screen.findByLabelText("Password");
    await user.type(newPassword, "short");
    await user.tab();
    await waitFor(() =>
      expect(screen.getByText("Password must have at least 12 characters")).toBeInstanceOf(HTMLElement),
    );
  });
});
