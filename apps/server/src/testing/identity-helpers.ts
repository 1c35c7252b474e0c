import type { LightMyRequestResponse } from "fastify";
import { Secret, TOTP } from "otpauth";
import { findUserByUsername, type UserRow, updateUser } from "../identity/users-repository.js";
import { type TestApp, testClientId } from "./test-app.js";

/**
 * Small steps of the Cognito protocol as Amplify sends them, for the identity tests. Codes are read from the
 * outbox (the real delivery path when no transport is configured) and TOTP codes computed with `otpauth`, as an
 * authenticator app would.
 */
export function identityClient(harness: TestApp) {
  const passwordAuth = (username: string, password: string, headers: Record<string, string> = {}) =>
    cognito(
      harness,
      "InitiateAuth",
      {
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: testClientId,
        AuthParameters: { USERNAME: username, PASSWORD: password },
      },
      headers,
    );

  const respond = (challengeName: string, session: string, responses: Record<string, string>) =>
    harness.cognito("RespondToAuthChallenge", {
      ChallengeName: challengeName,
      ClientId: testClientId,
      Session: session,
      ChallengeResponses: responses,
    });

  /** The newest code sent to an email address or phone number. */
  const latestCode = async (recipient: string): Promise<string> => {
    const [message] = await harness.app.messages.listOutbox({ recipient, limit: 1 });
    const code = message?.body.match(/\b(\d{6})\b/)?.[1];
    if (!code) throw new Error(`no code was sent to ${recipient}`);
    return code;
  };

  const outboxCount = async (recipient: string): Promise<number> =>
    (await harness.app.messages.listOutbox({ recipient, limit: 500 })).length;

  const user = async (username: string): Promise<UserRow> => {
    const row = await findUserByUsername(harness.database.db, username);
    if (!row) throw new Error(`no user ${username}`);
    return row;
  };

  const setUser = async (username: string, changes: Parameters<typeof updateUser>[2]): Promise<UserRow> =>
    (await updateUser(harness.database.db, (await user(username)).sub, changes)) as UserRow;

  return { passwordAuth, respond, latestCode, outboxCount, user, setUser };
}

/** The POST /cognito call, with extra headers (a client IP, a user agent). */
export function cognito(
  harness: TestApp,
  operation: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method: "POST",
    url: "/cognito",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `AWSCognitoIdentityProviderService.${operation}`,
      ...headers,
    },
    payload: JSON.stringify(body),
  });
}

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from now. */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/**
 * Waits out the last moments of a 30-second step, so a code computed now is still "this step" (or the
 * neighbouring one the test means) when the server checks it.
 */
export async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % 30_000;
  if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 200));
}
