import type { AddressInfo } from "node:net";
import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ForgotPasswordCommand,
  GetTokensFromRefreshTokenCommand,
  GetUserAttributeVerificationCodeCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  NotAuthorizedException,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  VerifySoftwareTokenCommand,
  VerifyUserAttributeCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityClient, totpCode } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

/**
 * Vigil's identity endpoint driven by the official AWS SDK v3 Cognito client over real HTTP: compatibility proven
 * by a client the team did not write (it serialises requests, adds the trailing slash, parses errors by
 * `__type`, reads `x-amzn-requestid`).
 */
let harness: TestApp;
let sdk: CognitoIdentityProviderClient;

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

beforeAll(async () => {
  harness = await createTestApp({ MFA_MODE: "OPTIONAL" });
  await harness.app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = harness.app.server.address() as AddressInfo;
  sdk = new CognitoIdentityProviderClient({
    region: "local-1",
    endpoint: `http://127.0.0.1:${port}/cognito`,
    // The user-pool operations are unsigned in the SDK: no AWS credentials are needed, and none may be looked up.
    credentials: async () => {
      throw new Error("Vigil's identity endpoint needs no AWS credentials");
    },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  sdk?.destroy();
  await harness?.close();
});

const passwordSignIn = (username: string, password: string) =>
  sdk.send(
    new InitiateAuthCommand({
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: testClientId,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    }),
  );

/** The error the SDK throws, for asserting on its name and metadata. */
async function failureOf(promise: Promise<unknown>): Promise<Error & { $metadata: { httpStatusCode?: number } }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { $metadata: { httpStatusCode?: number } };
  }
  throw new Error("expected the call to fail");
}

describe("the official AWS SDK Cognito client", () => {
  it("signs in with a password, refreshes both ways, and reads the user", async () => {
    const password = await harness.addUser("sdk-reader", ["reviewer"]);
    const signedIn = await passwordSignIn("sdk-reader", password);
    expect(signedIn.$metadata.httpStatusCode).toBe(200);
    expect(signedIn.$metadata.requestId).toMatch(uuid);
    const tokens = signedIn.AuthenticationResult;
    expect(tokens).toMatchObject({ TokenType: "Bearer", ExpiresIn: 3600 });
    if (!tokens?.AccessToken || !tokens.RefreshToken) throw new Error("no tokens");

    const user = await sdk.send(new GetUserCommand({ AccessToken: tokens.AccessToken }));
    expect(user.Username).toBe("sdk-reader");
    expect(user.UserAttributes).toContainEqual({ Name: "email", Value: "sdk-reader@vigil.test" });
    expect(user.$metadata.requestId).not.toBe(signedIn.$metadata.requestId);

    const refreshed = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: "REFRESH_TOKEN_AUTH",
        ClientId: testClientId,
        AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
      }),
    );
    expect(refreshed.AuthenticationResult?.AccessToken).toEqual(expect.any(String));
    const viaNewCall = await sdk.send(
      new GetTokensFromRefreshTokenCommand({ ClientId: testClientId, RefreshToken: tokens.RefreshToken }),
    );
    const freshAccess = viaNewCall.AuthenticationResult?.AccessToken as string;
    expect((await sdk.send(new GetUserCommand({ AccessToken: freshAccess }))).Username).toBe("sdk-reader");
  });

  it("surfaces a refusal as NotAuthorizedException by name, with the status and request id", async () => {
    await harness.addUser("sdk-refused", ["reviewer"]);
    const error = await failureOf(passwordSignIn("sdk-refused", "not-the-password"));
    expect(error).toBeInstanceOf(NotAuthorizedException);
    expect(error.name).toBe("NotAuthorizedException");
    expect(error.message).toBe("Incorrect username or password.");
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect((error.$metadata as { requestId?: string }).requestId).toMatch(uuid);

    // Sign-up is hidden in Vigil: the SDK hears a named refusal, not a crash.
    const unsupported = await failureOf(
      sdk.send(new SignUpCommand({ ClientId: testClientId, Username: "sdk-newcomer", Password: "a-long-password" })),
    );
    expect(unsupported.name).toBe("UnsupportedOperationException");
    expect(unsupported.$metadata.httpStatusCode).toBe(400);
  });

  it("changes the email with a code from the outbox, and changes the password", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("sdk-mover", ["reviewer"]);
    const accessToken = (await passwordSignIn("sdk-mover", password)).AuthenticationResult?.AccessToken as string;

    const updated = await sdk.send(
      new UpdateUserAttributesCommand({
        AccessToken: accessToken,
        UserAttributes: [{ Name: "email", Value: "sdk-mover@clinic.example" }],
      }),
    );
    expect(updated.CodeDeliveryDetailsList).toEqual([
      { AttributeName: "email", DeliveryMedium: "EMAIL", Destination: "s***r@clinic.example" },
    ]);
    const resent = await sdk.send(
      new GetUserAttributeVerificationCodeCommand({ AccessToken: accessToken, AttributeName: "email" }),
    );
    expect(resent.CodeDeliveryDetails?.Destination).toBe("s***r@clinic.example");
    await sdk.send(
      new VerifyUserAttributeCommand({
        AccessToken: accessToken,
        AttributeName: "email",
        Code: await client.latestCode("sdk-mover@clinic.example"),
      }),
    );
    const user = await sdk.send(new GetUserCommand({ AccessToken: accessToken }));
    expect(user.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: "email", Value: "sdk-mover@clinic.example" },
        { Name: "email_verified", Value: "true" },
      ]),
    );

    await sdk.send(
      new ChangePasswordCommand({
        AccessToken: accessToken,
        PreviousPassword: password,
        ProposedPassword: "a-changed-sdk-password",
      }),
    );
    expect((await passwordSignIn("sdk-mover", "a-changed-sdk-password")).AuthenticationResult).toBeDefined();
  });

  it("resets a forgotten password with the emailed code", async () => {
    const client = identityClient(harness);
    await harness.addUser("sdk-forgetful", ["reviewer"]);
    const requested = await sdk.send(new ForgotPasswordCommand({ ClientId: testClientId, Username: "sdk-forgetful" }));
    expect(requested.CodeDeliveryDetails).toEqual({
      AttributeName: "email",
      DeliveryMedium: "EMAIL",
      Destination: "s***l@vigil.test",
    });
    await sdk.send(
      new ConfirmForgotPasswordCommand({
        ClientId: testClientId,
        Username: "sdk-forgetful",
        ConfirmationCode: await client.latestCode("sdk-forgetful@vigil.test"),
        Password: "a-remembered-sdk-password",
      }),
    );
    expect((await passwordSignIn("sdk-forgetful", "a-remembered-sdk-password")).AuthenticationResult).toBeDefined();
  });

  it("sets up an authenticator app, prefers it, and answers its sign-in challenge", async () => {
    const password = await harness.addUser("sdk-totp", ["reviewer"]);
    const accessToken = (await passwordSignIn("sdk-totp", password)).AuthenticationResult?.AccessToken as string;
    const associated = await sdk.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    const secret = associated.SecretCode as string;
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    const verified = await sdk.send(
      new VerifySoftwareTokenCommand({
        AccessToken: accessToken,
        UserCode: totpCode(secret),
        FriendlyDeviceName: "sdk",
      }),
    );
    expect(verified.Status).toBe("SUCCESS");
    await sdk.send(
      new SetUserMFAPreferenceCommand({
        AccessToken: accessToken,
        SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true },
      }),
    );
    const user = await sdk.send(new GetUserCommand({ AccessToken: accessToken }));
    expect(user.PreferredMfaSetting).toBe("SOFTWARE_TOKEN_MFA");
    expect(user.UserMFASettingList).toEqual(["SOFTWARE_TOKEN_MFA"]);

    const challenge = await passwordSignIn("sdk-totp", password);
    expect(challenge.ChallengeName).toBe("SOFTWARE_TOKEN_MFA");
    // The code VerifySoftwareToken used is spent; the next step's code is within the accepted window.
    const answered = await sdk.send(
      new RespondToAuthChallengeCommand({
        ClientId: testClientId,
        ChallengeName: "SOFTWARE_TOKEN_MFA",
        Session: challenge.Session,
        ChallengeResponses: { USERNAME: "sdk-totp", SOFTWARE_TOKEN_MFA_CODE: totpCode(secret, 1) },
      }),
    );
    expect(answered.AuthenticationResult?.IdToken).toEqual(expect.any(String));
  });

  it("revokes a refresh token, and signs out everywhere", async () => {
    const password = await harness.addUser("sdk-leaver", ["reviewer"]);
    const first = (await passwordSignIn("sdk-leaver", password)).AuthenticationResult;
    await sdk.send(new RevokeTokenCommand({ ClientId: testClientId, Token: first?.RefreshToken as string }));
    const refresh = await failureOf(
      sdk.send(new GetTokensFromRefreshTokenCommand({ ClientId: testClientId, RefreshToken: first?.RefreshToken })),
    );
    expect(refresh.name).toBe("NotAuthorizedException");

    const second = (await passwordSignIn("sdk-leaver", password)).AuthenticationResult;
    await sdk.send(new GlobalSignOutCommand({ AccessToken: second?.AccessToken }));
    const afterSignOut = await failureOf(sdk.send(new GetUserCommand({ AccessToken: second?.AccessToken })));
    expect(afterSignOut.name).toBe("NotAuthorizedException");
    expect(afterSignOut.message).toBe("Access Token has been revoked");
  });
});
