import { Secret, TOTP } from "otpauth";

/**
 * What the journeys arrange through the API before the browser starts: the same Cognito protocol the
 * Authenticator speaks (`POST /cognito`), and the admin API (users, the outbox). Used for givens only — a user
 * who already chose a password, an authenticator app added earlier, a password reset by an administrator — never
 * for the steps a journey asserts.
 */

export type Tokens = { accessToken: string; idToken: string };

type Answer = { status: number; body: Record<string, unknown> };

export async function callIdentity(baseURL: string, operation: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${baseURL}/cognito`, {
    method: "POST",
    headers: {
      "content-type": "application/x-amz-json-1.1",
      "x-amz-target": `AWSCognitoIdentityProviderService.${operation}`,
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function identityOk(baseURL: string, operation: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await callIdentity(baseURL, operation, body);
  if (answer.status !== 200) {
    throw new Error(`${operation} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

function tokensOf(answer: Record<string, unknown>, what: string): Tokens {
  const result = answer.AuthenticationResult as { AccessToken?: string; IdToken?: string } | undefined;
  if (!result?.AccessToken || !result.IdToken) throw new Error(`No tokens after ${what}: ${JSON.stringify(answer)}`);
  return { accessToken: result.AccessToken, idToken: result.IdToken };
}

/** USER_PASSWORD_AUTH for a user without MFA: the tokens. */
export async function signInThroughApi(
  baseURL: string,
  clientId: string,
  credential: { username: string; password: string },
): Promise<Tokens> {
  const answer = await identityOk(baseURL, "InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: clientId,
    AuthParameters: { USERNAME: credential.username, PASSWORD: credential.password },
  });
  return tokensOf(answer, `signing ${credential.username} in`);
}

/** The first sign-in of an administrator-created user: NEW_PASSWORD_REQUIRED answered with `newPassword`. */
export async function choosePasswordThroughApi(
  baseURL: string,
  clientId: string,
  credential: { username: string; password: string },
  newPassword: string,
): Promise<Tokens> {
  const started = await identityOk(baseURL, "InitiateAuth", {
    AuthFlow: "USER_PASSWORD_AUTH",
    ClientId: clientId,
    AuthParameters: { USERNAME: credential.username, PASSWORD: credential.password },
  });
  if (started.ChallengeName !== "NEW_PASSWORD_REQUIRED") {
    throw new Error(`Expected NEW_PASSWORD_REQUIRED for ${credential.username}, got ${JSON.stringify(started)}`);
  }
  const finished = await identityOk(baseURL, "RespondToAuthChallenge", {
    ChallengeName: "NEW_PASSWORD_REQUIRED",
    ClientId: clientId,
    Session: started.Session,
    ChallengeResponses: { USERNAME: credential.username, NEW_PASSWORD: newPassword },
  });
  return tokensOf(finished, `${credential.username}'s new password`);
}

/**
 * Keeps guessing a wrong password for `username` until a counted failure locks the name for at least
 * `lockSeconds` (AUTH.md: after 5 failures, 2^(n−5) s). Guesses made while the name is locked are refused
 * ("Password attempts exceeded") without counting, so it retries until each lock has passed.
 */
export async function guessUntilLockedFor(
  baseURL: string,
  clientId: string,
  username: string,
  failuresSoFar: number,
  lockSeconds: number,
): Promise<void> {
  let failures = failuresSoFar;
  const deadline = Date.now() + 4 * lockSeconds * 1000 + 10_000;
  while (failures < 5 || 2 ** (failures - 5) < lockSeconds) {
    if (Date.now() > deadline) throw new Error(`${username} was not locked for ${lockSeconds} s in time.`);
    const answer = await callIdentity(baseURL, "InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: clientId,
      AuthParameters: { USERNAME: username, PASSWORD: "not-the-password-at-all" },
    });
    if (answer.body.message === "Incorrect username or password.") failures += 1;
    else if (answer.body.message === "Password attempts exceeded")
      await new Promise((resolve) => setTimeout(resolve, 200));
    else throw new Error(`Unexpected answer to a wrong password: ${JSON.stringify(answer.body)}`);
  }
}

// ─── Authenticator apps (TOTP) ──────────────────────────────────────────────────────────────────────────────

const stepMs = 30_000;

/** The 30-second step a TOTP code belongs to (RFC 6238), for now or for `at`. */
export function totpStep(at = Date.now()): number {
  return Math.floor(at / stepMs);
}

/** The code an authenticator app shows for `secret` during `step` — computed with otpauth, as such an app does. */
export function totpCode(secret: string, step = totpStep()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: step * stepMs,
  });
}

/**
 * An authenticator app's codes as a user types them: each later than the last one used (the server accepts a
 * step once) and never ahead of the server's ±1 step window; waits for the next step only when it must.
 */
export class AuthenticatorApp {
  private lastStep: number | undefined;

  constructor(readonly secret: string) {}

  async nextCode(): Promise<string> {
    const step = Math.max(totpStep(), (this.lastStep ?? Number.NEGATIVE_INFINITY) + 1);
    // The server accepts the current step and its neighbours; a step further ahead has to wait.
    while (step > totpStep() + 1) await new Promise((resolve) => setTimeout(resolve, 250));
    this.lastStep = step;
    return totpCode(this.secret, step);
  }

  /** The code of the step used last (to show that it is refused a second time). */
  lastCode(): string {
    if (this.lastStep === undefined) throw new Error("No code was used yet.");
    return totpCode(this.secret, this.lastStep);
  }

  /** Records a step as used (the code that verified the app while setting it up). */
  used(step: number): void {
    this.lastStep = step;
  }
}

/** Waits out the last seconds of a 30-second step, so a code computed now for the previous step stays valid. */
export async function awayFromStepEdge(): Promise<void> {
  const intoStep = Date.now() % stepMs;
  if (intoStep > 26_000) await new Promise((resolve) => setTimeout(resolve, stepMs - intoStep + 200));
}

/**
 * A signed-in user adds an authenticator app (AssociateSoftwareToken, VerifySoftwareToken) and turns it on
 * (SetUserMFAPreference), as an account page would. The verifying code is the previous step's, so the current
 * step is still unused when the journey starts. Returns the app, which knows which step was used.
 */
export async function addAuthenticatorApp(
  baseURL: string,
  accessToken: string,
  preference: { preferred: boolean },
): Promise<AuthenticatorApp> {
  const associated = await identityOk(baseURL, "AssociateSoftwareToken", { AccessToken: accessToken });
  const app = new AuthenticatorApp(associated.SecretCode as string);
  await awayFromStepEdge();
  const step = totpStep() - 1;
  await identityOk(baseURL, "VerifySoftwareToken", {
    AccessToken: accessToken,
    UserCode: totpCode(app.secret, step),
    FriendlyDeviceName: "e2e authenticator",
  });
  app.used(step);
  await identityOk(baseURL, "SetUserMFAPreference", {
    AccessToken: accessToken,
    SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: preference.preferred },
  });
  return app;
}

/** A signed-in user whose administrator set a phone number turns SMS MFA on (SetUserMFAPreference). */
export async function turnOnSmsMfa(baseURL: string, accessToken: string, preference: { preferred: boolean }) {
  await identityOk(baseURL, "SetUserMFAPreference", {
    AccessToken: accessToken,
    SMSMfaSettings: { Enabled: true, PreferredMfa: preference.preferred },
  });
}

// ─── The admin API ──────────────────────────────────────────────────────────────────────────────────────────

/** "…reset code is 123456…", "Vigil sign-in code: 123456…", "…verification code is 123456…". */
const codePattern = /code(?: is|:) (\d{6})\b/;

export type OutboxMessage = { id: string; channel: "email" | "sms"; to: string; subject: string; body: string };

export type NewUser = { username: string; email: string; name: string; phoneNumber?: string; groups: string[] };

/** An administrator's calls to `/api/…` with their ID token. */
export class AdminApi {
  private constructor(
    private readonly baseURL: string,
    private readonly idToken: string,
  ) {}

  static async signIn(
    baseURL: string,
    clientId: string,
    admin: { username: string; password: string },
  ): Promise<AdminApi> {
    const { idToken } = await signInThroughApi(baseURL, clientId, admin);
    return new AdminApi(baseURL, idToken);
  }

  private async call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseURL}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.idToken}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as { data?: unknown; error?: unknown };
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer.data;
  }

  /** `POST /api/users`; the temporary password is read from the email in the outbox, as the user would. */
  async createUser(user: NewUser): Promise<{ username: string; password: string }> {
    await this.call("POST", "/api/users", user);
    const message = await this.waitForMessage(user.email, (candidate) => candidate.subject === "Your Vigil account");
    const password = /Temporary password: (\S+)/.exec(message.body)?.[1];
    if (!password) throw new Error(`The account email carries no temporary password:\n${message.body}`);
    return { username: user.username, password };
  }

  /** `POST /api/users/:username/reset-password`: the user must reset their password at next sign-in. */
  async resetPassword(username: string): Promise<void> {
    await this.call("POST", `/api/users/${encodeURIComponent(username)}/reset-password`);
  }

  /** `GET /api/outbox?to=…`: the newest messages to an address or phone number first. */
  async outbox(recipient: string, limit = 5): Promise<OutboxMessage[]> {
    const data = (await this.call("GET", `/api/outbox?to=${encodeURIComponent(recipient)}&limit=${limit}`)) as {
      items: OutboxMessage[];
    };
    return data.items;
  }

  /** The id of the newest message to `recipient` (undefined when none), to wait for the next one after it. */
  async newestMessageId(recipient: string): Promise<string | undefined> {
    return (await this.outbox(recipient, 1))[0]?.id;
  }

  /** Waits until the newest message to `recipient` is a new one (not `afterId`) that `accept` takes. */
  async waitForMessage(
    recipient: string,
    accept: (message: OutboxMessage) => boolean = () => true,
    afterId?: string,
  ): Promise<OutboxMessage> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [newest] = await this.outbox(recipient, 1);
      if (newest && newest.id !== afterId && accept(newest)) return newest;
      if (Date.now() > deadline) {
        throw new Error(`No new message to ${recipient} within 10 s (newest: ${JSON.stringify(newest)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The 6-digit code of the newest message to `recipient` sent after message `afterId`. */
  async waitForCode(recipient: string, afterId?: string): Promise<string> {
    const message = await this.waitForMessage(recipient, (candidate) => codePattern.test(candidate.body), afterId);
    return codePattern.exec(message.body)?.[1] as string;
  }
}
