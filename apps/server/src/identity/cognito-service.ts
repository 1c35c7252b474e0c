import { singleLineMessage, singleLineTextSchema } from "@vigil/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import type { MessageService } from "../messaging/message-service.js";
import { AccountOperations } from "./account-operations.js";
import { ChallengeStore, isChallengeName, readChallengeData } from "./challenge-store.js";
import {
  CognitoError,
  expiredCode,
  expiredSession,
  incorrectCredentials,
  invalidParameter,
  passwordAttemptsExceeded,
  tooManyRequests,
} from "./cognito-error.js";
import {
  getTokensFromRefreshTokenSchema,
  initiateAuthSchema,
  parseRequest,
  respondToAuthChallengeSchema,
  revokeTokenSchema,
} from "./cognito-requests.js";
import { type CallContext, enabledMfa, IdentityKit, type MfaType } from "./identity-kit.js";
import { checkCode, consumeCode } from "./one-time-codes.js";
import { PasswordResetOperations } from "./password-reset.js";
import { digestToken, hashPassword, verifyPassword } from "./passwords.js";
import { deleteStaleRateLimits, hitRateLimit } from "./rate-limits-repository.js";
import { isEndedByAdministrator } from "./session-end.js";
import {
  type AuthChallengeRow,
  consumeAuthChallenge,
  deleteExpiredAuthChallenges,
  findAuthSessionByRefreshHash,
  revokeAuthSession,
} from "./sessions-repository.js";
import {
  deleteForgottenSignInFailures,
  refundSignInAttempt,
  reserveSignInAttempt,
} from "./sign-in-failures-repository.js";
import { type AuthenticationResult, type InitiateAuthResponse, SignInSteps } from "./sign-in-steps.js";
import { SoftwareTokenSetup } from "./software-token-setup.js";
import type { TokenService } from "./token-service.js";
import { matchTotpStep } from "./totp.js";
import {
  acceptTotpStep,
  findUserBySub,
  findUserByUsername,
  normaliseUsername,
  type UserRow,
  updateUser,
} from "./users-repository.js";
import { deleteExpiredVerificationCodes } from "./verification-codes-repository.js";

export type { CallContext } from "./identity-kit.js";

/** Attributes a user may be asked to supply while setting their first password. */
const requiredAttributes = ["name", "email"] as const;

/** Every this many throttled calls an instance sweeps expired rows (counters, codes, challenges). */
const sweepEvery = 500;

const mfaCodeField: Record<MfaType, string> = {
  SMS_MFA: "SMS_MFA_CODE",
  SOFTWARE_TOKEN_MFA: "SOFTWARE_TOKEN_MFA_CODE",
};

/**
 * The Cognito user-pool operations Vigil implements (AUTH.md), with Cognito's request and response fields: here
 * the sign-in itself (InitiateAuth, RespondToAuthChallenge, refresh, RevokeToken) and the per-IP throttle, over
 * `challenges` (the Sessions between steps) and `steps` (what follows a proven password); `softwareTokens`,
 * `account` and `passwordReset` hold the rest. Failures that would reveal whether an account exists all read
 * alike; the audit log keeps the real reason.
 */
export class CognitoService {
  private throttledCalls = 0;

  private readonly kit: IdentityKit;
  private readonly challenges: ChallengeStore;
  private readonly steps: SignInSteps;
  /** AssociateSoftwareToken and VerifySoftwareToken, during sign-in (MFA_SETUP) or with an access token. */
  readonly softwareTokens: SoftwareTokenSetup;
  /** GetUser, ChangePassword, MFA preferences, attributes, GlobalSignOut: calls made with an access token. */
  readonly account: AccountOperations;
  /** ForgotPassword and ConfirmForgotPassword. */
  readonly passwordReset: PasswordResetOperations;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly tokens: TokenService,
    messages: MessageService,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.kit = new IdentityKit(db, config, tokens, messages, log);
    this.challenges = new ChallengeStore(this.kit);
    this.steps = new SignInSteps(this.kit, this.challenges);
    this.softwareTokens = new SoftwareTokenSetup(this.kit, this.challenges);
    this.account = new AccountOperations(this.kit);
    this.passwordReset = new PasswordResetOperations(this.kit);
  }

  // ─── Throttling ──────────────────────────────────────────────────────────────────────────────────────────────

  /**
   * Per-IP throttle of every unauthenticated operation, on counters shared by all instances. Over the limit:
   * `TooManyRequestsException` with `Retry-After`.
   */
  async throttle(context: CallContext): Promise<void> {
    const now = new Date();
    const { requestsPerIp, ipWindowSeconds } = this.config.identityLimits;
    const hit = await hitRateLimit(this.db, `ip:${context.ip ?? "unknown"}`, requestsPerIp, ipWindowSeconds, now);
    this.throttledCalls += 1;
    if (this.throttledCalls % sweepEvery === 0) this.sweep(now, context.log ?? this.log);
    if (hit.allowed) return;
    // Audited once per address and window (the first refusal), so a flood cannot flood the audit log too.
    if (hit.count === requestsPerIp + 1) {
      await this.kit.audit(this.db, context, {
        action: "auth.throttle",
        outcome: "denied",
        details: { limit: requestsPerIp, windowSeconds: ipWindowSeconds },
      });
    }
    throw tooManyRequests(hit.retryAfterSeconds);
  }

  private sweep(now: Date, log: FastifyBaseLogger | undefined): void {
    const dayAgo = new Date(now.getTime() - 86_400_000);
    Promise.all([
      deleteStaleRateLimits(this.db, now),
      deleteForgottenSignInFailures(this.db, now),
      deleteExpiredVerificationCodes(this.db, dayAgo),
      deleteExpiredAuthChallenges(this.db, dayAgo),
    ]).catch((error: unknown) => log?.warn({ err: error }, "identity housekeeping failed"));
  }

  // ─── InitiateAuth ────────────────────────────────────────────────────────────────────────────────────────────

  async initiateAuth(input: unknown, context: CallContext): Promise<InitiateAuthResponse> {
    const request = parseRequest(initiateAuthSchema, input);
    this.kit.checkClient(request.ClientId);
    switch (request.AuthFlow) {
      case "USER_PASSWORD_AUTH":
        return this.passwordAuth(request.AuthParameters, request.ClientId, context);
      case "REFRESH_TOKEN_AUTH":
      case "REFRESH_TOKEN":
        return this.refreshAuth(request.AuthParameters, request.ClientId);
      case "USER_SRP_AUTH":
      case "CUSTOM_AUTH":
      case "USER_AUTH":
        throw invalidParameter(`${request.AuthFlow} is not enabled for this client. Use USER_PASSWORD_AUTH.`);
      default:
        throw invalidParameter(
          `1 validation error detected: Value '${request.AuthFlow}' at 'authFlow' failed to satisfy constraint.`,
        );
    }
  }

  private async passwordAuth(
    parameters: Record<string, string>,
    clientId: string,
    context: CallContext,
  ): Promise<InitiateAuthResponse> {
    const username = parameters.USERNAME?.trim();
    const password = parameters.PASSWORD;
    if (!username) throw invalidParameter("Missing required parameter USERNAME");
    if (!password) throw invalidParameter("Missing required parameter PASSWORD");
    const usernameKey = normaliseUsername(username);
    const now = new Date();
    const fail = async (reason: string, user: UserRow | undefined, error = incorrectCredentials()) => {
      await this.kit.audit(this.db, context, {
        action: "auth.sign-in",
        outcome: "failure",
        actor: { sub: user?.sub ?? null, username: user?.username ?? username },
        details: { reason },
      });
      return error;
    };

    // Counted before the password is checked, for every name, known or not (see reserveSignInAttempt).
    if (!(await reserveSignInAttempt(this.db, usernameKey, now))) {
      throw await fail("locked out", undefined, passwordAttemptsExceeded());
    }
    const user = await findUserByUsername(this.db, username);
    const passwordMatches = await verifyPassword(user?.passwordHash, password);
    if (!user) throw await fail("unknown user", undefined);
    if (!passwordMatches) {
      throw await fail(user.status === "FORCE_CHANGE_PASSWORD" ? "wrong temporary password" : "wrong password", user);
    }
    if (!user.enabled) throw await fail("user disabled", user);

    // Only now, with the password proven, may the answer reveal the account's state. A right password does not
    // count as a failure; the count is wiped once the whole sign-in (MFA included) succeeds.
    await refundSignInAttempt(this.db, usernameKey);
    if (user.status === "RESET_REQUIRED") {
      throw await fail(
        "password reset required",
        user,
        new CognitoError("PasswordResetRequiredException", "Password reset required for the user"),
      );
    }
    if (user.status === "FORCE_CHANGE_PASSWORD") {
      if (user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt <= now) {
        throw await fail(
          "temporary password expired",
          user,
          new CognitoError(
            "NotAuthorizedException",
            "Temporary password has expired and must be reset by an administrator.",
          ),
        );
      }
      return this.db.transaction(async (tx) => {
        const session = await this.challenges.create(tx, user, "NEW_PASSWORD_REQUIRED", clientId, now, context);
        return {
          ChallengeName: "NEW_PASSWORD_REQUIRED",
          Session: session,
          ChallengeParameters: {
            USER_ID_FOR_SRP: user.username,
            requiredAttributes: JSON.stringify(missingRequiredAttributes(user).map((name) => `userAttributes.${name}`)),
            userAttributes: JSON.stringify({
              email: user.email,
              name: user.name,
              ...(user.phoneNumber ? { phone_number: user.phoneNumber } : {}),
            }),
          },
        };
      });
    }
    return this.steps.run((tx) => this.steps.next(tx, user, clientId, now, context, { by: "password" }));
  }

  /**
   * GetTokensFromRefreshToken: the same refresh as InitiateAuth's REFRESH_TOKEN_AUTH (refresh tokens are not
   * rotated, so none is returned), answered without ChallengeParameters as Cognito does.
   */
  async getTokensFromRefreshToken(input: unknown): Promise<{ AuthenticationResult: AuthenticationResult }> {
    const request = parseRequest(getTokensFromRefreshTokenSchema, input);
    this.kit.checkClient(request.ClientId);
    return this.refreshTokens(request.RefreshToken, request.ClientId);
  }

  private async refreshAuth(parameters: Record<string, string>, clientId: string): Promise<InitiateAuthResponse> {
    const refreshToken = parameters.REFRESH_TOKEN;
    if (!refreshToken) throw invalidParameter("Missing required parameter REFRESH_TOKEN");
    return { ChallengeParameters: {}, ...(await this.refreshTokens(refreshToken, clientId)) };
  }

  /** New ID and access tokens for a live sign-in; a revoked, expired or foreign token, or a disabled user, is refused. */
  private async refreshTokens(
    refreshToken: string,
    clientId: string,
  ): Promise<{ AuthenticationResult: AuthenticationResult }> {
    const session = await findAuthSessionByRefreshHash(this.db, digestToken(refreshToken));
    const invalid = () => new CognitoError("NotAuthorizedException", "Invalid Refresh Token");
    if (!session || session.expiresAt <= new Date() || session.clientId !== clientId) throw invalid();
    const user = await findUserBySub(this.db, session.userSub);
    if (!user) throw invalid();
    // Cognito's own words for an account an administrator shut, said only to the holder of one of its live refresh
    // tokens: the app tells them their session ended because their account was changed, not because time ran out.
    if (!user.enabled) throw new CognitoError("NotAuthorizedException", "User is disabled.");
    if (session.revokedAt) {
      if (isEndedByAdministrator(user)) {
        throw new CognitoError("PasswordResetRequiredException", "Password reset required for the user");
      }
      // Cognito's words for a refresh token GlobalSignOut revoked: another device's app can say why it must sign in
      // again. The device's own sign-out (RevokeToken) keeps the plain refusal; it holds no token to refresh anyway.
      if (session.revokedWith === "every-sign-in") {
        throw new CognitoError("NotAuthorizedException", "Refresh Token has been revoked");
      }
      throw invalid();
    }
    const issued = await this.tokens.issue(
      user,
      { originJti: session.originJti, authTime: session.authTime },
      clientId,
    );
    return {
      AuthenticationResult: {
        AccessToken: issued.accessToken,
        IdToken: issued.idToken,
        ExpiresIn: issued.expiresIn,
        TokenType: "Bearer",
      },
    };
  }

  // ─── RespondToAuthChallenge ──────────────────────────────────────────────────────────────────────────────────

  async respondToAuthChallenge(input: unknown, context: CallContext): Promise<InitiateAuthResponse> {
    const request = parseRequest(respondToAuthChallengeSchema, input);
    this.kit.checkClient(request.ClientId);
    const name = request.ChallengeName;
    if (!isChallengeName(name)) throw invalidParameter(`Challenge ${name} is not supported.`);
    const username = request.ChallengeResponses.USERNAME;
    if (!username) throw invalidParameter("Missing required parameter USERNAME");
    const { challenge, user } = await this.challenges.load(request.Session, name, { username });
    const clientId = request.ClientId;
    switch (name) {
      case "NEW_PASSWORD_REQUIRED":
        return this.respondNewPassword(challenge, user, clientId, request.ChallengeResponses, context);
      case "SMS_MFA":
      case "SOFTWARE_TOKEN_MFA":
        return this.respondMfaCode(challenge, user, name, clientId, request.ChallengeResponses, context);
      case "SELECT_MFA_TYPE":
        return this.respondSelectMfaType(challenge, user, clientId, request.ChallengeResponses.ANSWER, context);
      case "MFA_SETUP":
        return this.respondMfaSetup(challenge, user, clientId, context);
    }
  }

  private async respondNewPassword(
    challenge: AuthChallengeRow,
    user: UserRow,
    clientId: string,
    responses: Record<string, string>,
    context: CallContext,
  ): Promise<InitiateAuthResponse> {
    const newPassword = responses.NEW_PASSWORD;
    if (!newPassword) throw invalidParameter("Missing required parameter NEW_PASSWORD");
    this.kit.checkPasswordPolicy(newPassword);
    const attributes = readChallengeAttributes(responses);
    const missing = missingRequiredAttributes({ name: attributes.name ?? user.name, email: user.email });
    if (missing.length > 0) throw invalidParameter(`Missing required attribute ${missing[0]}.`);
    const passwordHash = await hashPassword(newPassword);
    const now = new Date();
    return this.steps.run(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      const updated = (await updateUser(tx, user.sub, {
        passwordHash,
        status: "CONFIRMED",
        temporaryPasswordExpiresAt: null,
        ...attributes,
      })) as UserRow;
      await this.kit.audit(tx, context, {
        action: "auth.new-password",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: attributes.name ? { attributes: ["name"] } : undefined,
      });
      // Sequences 2 and 3 of AUTH.md: the first password leads on to MFA when MFA applies.
      return this.steps.next(tx, updated, clientId, now, context, { by: "new password" });
    });
  }

  private async respondMfaCode(
    challenge: AuthChallengeRow,
    user: UserRow,
    type: MfaType,
    clientId: string,
    responses: Record<string, string>,
    context: CallContext,
  ): Promise<InitiateAuthResponse> {
    const field = mfaCodeField[type];
    const code = responses[field];
    if (!code) throw invalidParameter(`Missing required parameter ${field}`);
    const now = new Date();
    const refuse = async (reason: string, error: CognitoError) => {
      await this.kit.audit(this.db, context, {
        action: "auth.mfa",
        outcome: "failure",
        actor: user,
        details: { reason, method: type },
      });
      return error;
    };
    // Wrong MFA codes count like wrong passwords; a wrong code does not burn the session.
    if (!(await reserveSignInAttempt(this.db, user.usernameKey, now))) {
      throw await refuse("locked out", passwordAttemptsExceeded());
    }
    const wrongCode = () => new CognitoError("CodeMismatchException", "Invalid code or auth state for the user.");
    if (type === "SMS_MFA") {
      const { codeId } = readChallengeData(challenge);
      const check = await checkCode(this.db, user.sub, "sms-mfa", code, now, codeId ? { codeId } : {});
      if (check.result === "mismatch") throw await refuse("wrong SMS code", wrongCode());
      if (check.result === "expired") throw await refuse("expired SMS code", expiredCode());
      return this.steps.run(async (tx) => {
        if (!(await consumeCode(tx, check.row, now))) throw wrongCode();
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        return { response: await this.steps.completeSignIn(tx, user, clientId, now, context, { mfa: type }) };
      });
    }
    const step = user.totpSecret ? matchTotpStep(user.totpSecret, code, now) : undefined;
    if (step === undefined) throw await refuse("wrong TOTP code", wrongCode());
    if (user.lastTotpStep !== null && step <= user.lastTotpStep) {
      throw await refuse("TOTP code already used", wrongCode());
    }
    try {
      return await this.steps.run(async (tx) => {
        if (!(await acceptTotpStep(tx, user.sub, step))) throw wrongCode();
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        return { response: await this.steps.completeSignIn(tx, user, clientId, now, context, { mfa: type }) };
      });
    } catch (error) {
      if (error instanceof CognitoError && error.type === "CodeMismatchException") {
        throw await refuse("TOTP code already used", error);
      }
      throw error;
    }
  }

  private async respondSelectMfaType(
    challenge: AuthChallengeRow,
    user: UserRow,
    clientId: string,
    answer: string | undefined,
    context: CallContext,
  ): Promise<InitiateAuthResponse> {
    if (!answer) throw invalidParameter("Missing required parameter ANSWER");
    const available = enabledMfa(user);
    if (!available.includes(answer as MfaType)) {
      throw invalidParameter(`Invalid MFA type ${answer}: choose one of ${available.join(", ")}.`);
    }
    const now = new Date();
    return this.steps.run(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      return this.steps.mfaChallenge(tx, user, answer as MfaType, clientId, now, context);
    });
  }

  private async respondMfaSetup(
    challenge: AuthChallengeRow,
    user: UserRow,
    clientId: string,
    context: CallContext,
  ): Promise<InitiateAuthResponse> {
    if (!readChallengeData(challenge).verified) {
      throw invalidParameter(
        "Software token MFA is not set up yet: call AssociateSoftwareToken and VerifySoftwareToken with the session.",
      );
    }
    const now = new Date();
    return this.steps.run(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      return {
        response: await this.steps.completeSignIn(tx, user, clientId, now, context, { mfa: "SOFTWARE_TOKEN_MFA" }),
      };
    });
  }

  async revokeToken(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(revokeTokenSchema, input);
    this.kit.checkClient(request.ClientId);
    const session = await findAuthSessionByRefreshHash(this.db, digestToken(request.Token));
    // Like Cognito, an unknown or already revoked token is not an error: the caller's goal is met.
    if (session && session.clientId === request.ClientId) {
      await this.db.transaction(async (tx) => {
        if (await revokeAuthSession(tx, session.originJti, new Date())) {
          await this.kit.audit(tx, context, {
            action: "auth.revoke-token",
            outcome: "success",
            actor: { sub: session.userSub },
            target: { type: "auth-session", id: session.originJti },
          });
        }
      });
    }
    return {};
  }
}

function missingRequiredAttributes(user: {
  name: string | null | undefined;
  email: string | null | undefined;
}): string[] {
  return requiredAttributes.filter((name) => !user[name]?.trim());
}

function readChallengeAttributes(responses: Record<string, string>): { name?: string } {
  const name = responses["userAttributes.name"]?.trim();
  if (name && !singleLineTextSchema.safeParse(name).success) {
    throw invalidParameter(`userAttributes.name ${singleLineMessage}.`);
  }
  return name ? { name } : {};
}
