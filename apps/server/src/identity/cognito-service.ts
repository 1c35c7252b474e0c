import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { type MessageService, maskDestination } from "../messaging/message-service.js";
import { AccountOperations } from "./account-operations.js";
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
  associateSoftwareTokenSchema,
  getTokensFromRefreshTokenSchema,
  initiateAuthSchema,
  parseRequest,
  respondToAuthChallengeSchema,
  revokeTokenSchema,
  verifySoftwareTokenSchema,
} from "./cognito-requests.js";
import { type CallContext, enabledMfa, IdentityKit, type MfaType } from "./identity-kit.js";
import { signInCodeMessage } from "./identity-messages.js";
import { checkCode, consumeCode, issueCode } from "./one-time-codes.js";
import { PasswordResetOperations } from "./password-reset.js";
import { digestToken, hashPassword, verifyPassword } from "./passwords.js";
import { deleteStaleRateLimits, hitRateLimit } from "./rate-limits-repository.js";
import { isEndedByAdministrator } from "./session-end.js";
import {
  type AuthChallengeRow,
  consumeAuthChallenge,
  deleteExpiredAuthChallenges,
  findAuthChallenge,
  findAuthSessionByRefreshHash,
  insertAuthChallenge,
  insertAuthSession,
  revokeAuthSession,
} from "./sessions-repository.js";
import {
  clearSignInFailures,
  deleteForgottenSignInFailures,
  refundSignInAttempt,
  reserveSignInAttempt,
} from "./sign-in-failures-repository.js";
import { createOpaqueToken, type TokenService } from "./token-service.js";
import { createTotpSecret, matchTotpStep } from "./totp.js";
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

/** Each challenge step lives 3 minutes (spec §9 "pending sign-in state expires after 3 minutes"). */
const challengeLifetimeMs = 3 * 60_000;

/** Attributes a user may be asked to supply while setting their first password. */
const requiredAttributes = ["name", "email"] as const;

/** Every this many throttled calls an instance sweeps expired rows (counters, codes, challenges). */
const sweepEvery = 500;

type ChallengeName = "NEW_PASSWORD_REQUIRED" | MfaType | "SELECT_MFA_TYPE" | "MFA_SETUP";

type AuthenticationResult = {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: "Bearer";
};

type InitiateAuthResponse =
  | { AuthenticationResult: AuthenticationResult; ChallengeParameters: Record<string, string> }
  | { ChallengeName: string; Session: string; ChallengeParameters: Record<string, string> };

/** A sign-in step decided inside a transaction, and what must happen once it committed (sending an SMS code). */
type Step = { response: InitiateAuthResponse; afterCommit?: () => Promise<void> };

/** What a challenge row remembers between steps. */
const challengeDataSchema = z
  .object({
    /** SMS_MFA: the `verification_codes` row of the code sent for this step. */
    codeId: z.string().optional(),
    /** MFA_SETUP: the TOTP secret handed out by AssociateSoftwareToken. */
    secret: z.string().optional(),
    /** MFA_SETUP: VerifySoftwareToken accepted a code; RespondToAuthChallenge may finish. */
    verified: z.boolean().optional(),
  })
  .catch({});
type ChallengeData = z.infer<typeof challengeDataSchema>;

const mfaCodeField: Record<MfaType, string> = {
  SMS_MFA: "SMS_MFA_CODE",
  SOFTWARE_TOKEN_MFA: "SOFTWARE_TOKEN_MFA_CODE",
};

/**
 * The Cognito user-pool operations Vigil implements (AUTH.md), with Cognito's request and response fields: here
 * the sign-in itself (InitiateAuth, the challenge sequences, TOTP setup, RevokeToken) and the per-IP throttle;
 * `account` and `passwordReset` hold the rest. Failures that would reveal whether an account exists all read
 * alike; the audit log keeps the real reason.
 */
export class CognitoService {
  private throttledCalls = 0;

  private readonly kit: IdentityKit;
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
    if (this.throttledCalls % sweepEvery === 0) this.sweep(now);
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

  private sweep(now: Date): void {
    const dayAgo = new Date(now.getTime() - 86_400_000);
    Promise.all([
      deleteStaleRateLimits(this.db, now),
      deleteForgottenSignInFailures(this.db, now),
      deleteExpiredVerificationCodes(this.db, dayAgo),
      deleteExpiredAuthChallenges(this.db, dayAgo),
    ]).catch((error: unknown) => this.log?.warn({ err: error }, "identity housekeeping failed"));
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
        const session = await this.createChallenge(tx, user, "NEW_PASSWORD_REQUIRED", clientId, now, context);
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
    return this.runStep((tx) => this.nextStep(tx, user, clientId, now, context, { by: "password" }));
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
    return { ...(await this.refreshTokens(refreshToken, clientId)), ChallengeParameters: {} };
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
    const { challenge, user } = await this.loadChallenge(request.Session, name, { username });
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
    const missing = missingRequiredAttributes({ ...user, ...attributes });
    if (missing.length > 0) throw invalidParameter(`Missing required attribute ${missing[0]}.`);
    const passwordHash = await hashPassword(newPassword);
    const now = new Date();
    return this.runStep(async (tx) => {
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
      return this.nextStep(tx, updated, clientId, now, context, { by: "new password" });
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
      return this.runStep(async (tx) => {
        if (!(await consumeCode(tx, check.row, now))) throw wrongCode();
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        return { response: await this.completeSignIn(tx, user, clientId, now, context, { mfa: type }) };
      });
    }
    const step = user.totpSecret ? matchTotpStep(user.totpSecret, code, now) : undefined;
    if (step === undefined) throw await refuse("wrong TOTP code", wrongCode());
    if (user.lastTotpStep !== null && step <= user.lastTotpStep) {
      throw await refuse("TOTP code already used", wrongCode());
    }
    try {
      return await this.runStep(async (tx) => {
        if (!(await acceptTotpStep(tx, user.sub, step))) throw wrongCode();
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        return { response: await this.completeSignIn(tx, user, clientId, now, context, { mfa: type }) };
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
    return this.runStep(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      return this.mfaChallenge(tx, user, answer as MfaType, clientId, now, context);
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
    return this.runStep(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      return {
        response: await this.completeSignIn(tx, user, clientId, now, context, { mfa: "SOFTWARE_TOKEN_MFA" }),
      };
    });
  }

  // ─── Software tokens (TOTP) ─────────────────────────────────────────────────────────────────────────────────

  /** With a challenge Session (MFA_SETUP) or an AccessToken (a signed-in user adding an authenticator app). */
  async associateSoftwareToken(
    input: unknown,
    context: CallContext,
  ): Promise<{ SecretCode: string; Session?: string }> {
    const request = parseRequest(associateSoftwareTokenSchema, input);
    const secret = createTotpSecret();
    const now = new Date();
    if (request.Session && !request.AccessToken) {
      const { challenge, user } = await this.loadChallenge(request.Session, "MFA_SETUP");
      const session = await this.db.transaction(async (tx) => {
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        await this.kit.audit(tx, context, {
          action: "auth.totp-associate",
          outcome: "success",
          actor: user,
          target: { type: "user", id: user.username },
          details: { during: "MFA_SETUP" },
        });
        return this.createChallenge(tx, user, "MFA_SETUP", challenge.clientId, now, context, { secret }, false);
      });
      return { SecretCode: secret, Session: session };
    }
    if (!request.AccessToken || request.Session) {
      throw invalidParameter("Give either an AccessToken or a Session (exactly one).");
    }
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    this.kit.checkMfaAvailable();
    await this.db.transaction(async (tx) => {
      await updateUser(tx, user.sub, { pendingTotpSecret: secret });
      await this.kit.audit(tx, context, {
        action: "auth.totp-associate",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
      });
    });
    return { SecretCode: secret };
  }

  async verifySoftwareToken(input: unknown, context: CallContext): Promise<{ Status: "SUCCESS"; Session?: string }> {
    const request = parseRequest(verifySoftwareTokenSchema, input);
    const now = new Date();
    const mismatch = () =>
      new CognitoError("EnableSoftwareTokenMFAException", "Code mismatch and fail enable Software Token MFA");
    const details = request.FriendlyDeviceName ? { friendlyDeviceName: request.FriendlyDeviceName } : {};
    const refuse = async (user: UserRow) => {
      await this.kit.audit(this.db, context, {
        action: "auth.totp-verify",
        outcome: "failure",
        actor: user,
        target: { type: "user", id: user.username },
        details: { ...details, reason: "wrong code" },
      });
      return mismatch();
    };

    if (request.Session && !request.AccessToken) {
      const { challenge, user } = await this.loadChallenge(request.Session, "MFA_SETUP");
      const { secret } = readChallengeData(challenge);
      if (!secret) throw invalidParameter("Call AssociateSoftwareToken with this session first.");
      const step = matchTotpStep(secret, request.UserCode, now);
      // A wrong code leaves the session usable: the user types the next one.
      if (step === undefined) throw await refuse(user);
      const session = await this.db.transaction(async (tx) => {
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        const others = enabledMfa(user);
        await updateUser(tx, user.sub, {
          totpSecret: secret,
          pendingTotpSecret: null,
          totpEnabled: true,
          lastTotpStep: step,
          preferredMfa: others.length === 0 ? "SOFTWARE_TOKEN_MFA" : user.preferredMfa,
        });
        await this.kit.audit(tx, context, {
          action: "auth.totp-verify",
          outcome: "success",
          actor: user,
          target: { type: "user", id: user.username },
          details: { ...details, during: "MFA_SETUP", enabled: "SOFTWARE_TOKEN_MFA" },
        });
        return this.createChallenge(tx, user, "MFA_SETUP", challenge.clientId, now, context, { verified: true }, false);
      });
      return { Status: "SUCCESS", Session: session };
    }
    if (!request.AccessToken || request.Session) {
      throw invalidParameter("Give either an AccessToken or a Session (exactly one).");
    }
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    if (!user.pendingTotpSecret) {
      throw new CognitoError(
        "SoftwareTokenMFANotFoundException",
        "Software token MFA has not been associated with the user: call AssociateSoftwareToken first.",
      );
    }
    const step = matchTotpStep(user.pendingTotpSecret, request.UserCode, now);
    if (step === undefined) throw await refuse(user);
    await this.db.transaction(async (tx) => {
      // Verified, not yet turned on: SetUserMFAPreference does that (as in Cognito).
      await updateUser(tx, user.sub, {
        totpSecret: user.pendingTotpSecret,
        pendingTotpSecret: null,
        lastTotpStep: step,
      });
      await this.kit.audit(tx, context, {
        action: "auth.totp-verify",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details,
      });
    });
    return { Status: "SUCCESS" };
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

  // ─── Sign-in steps ──────────────────────────────────────────────────────────────────────────────────────────

  /** After the password (or the first password): tokens, or the MFA challenge that applies (AUTH.md). */
  private async nextStep(
    tx: Db,
    user: UserRow,
    clientId: string,
    now: Date,
    context: CallContext,
    details: Record<string, unknown>,
  ): Promise<Step> {
    if (this.config.mfaMode === "OFF") {
      return { response: await this.completeSignIn(tx, user, clientId, now, context, details) };
    }
    const methods = enabledMfa(user);
    if (methods.length === 0) {
      if (this.config.mfaMode === "OPTIONAL") {
        return { response: await this.completeSignIn(tx, user, clientId, now, context, details) };
      }
      // MFA is required and the user has none: only TOTP can be set up here (SMS needs an administrator).
      const session = await this.createChallenge(tx, user, "MFA_SETUP", clientId, now, context);
      return {
        response: {
          ChallengeName: "MFA_SETUP",
          Session: session,
          ChallengeParameters: {
            MFAS_CAN_SETUP: JSON.stringify(["SOFTWARE_TOKEN_MFA"]),
            USER_ID_FOR_SRP: user.username,
          },
        },
      };
    }
    const preferred = methods.find((method) => method === user.preferredMfa);
    const only = methods.length === 1 ? methods[0] : undefined;
    const chosen = preferred ?? only;
    if (chosen) return this.mfaChallenge(tx, user, chosen, clientId, now, context);
    const session = await this.createChallenge(tx, user, "SELECT_MFA_TYPE", clientId, now, context);
    return {
      response: {
        ChallengeName: "SELECT_MFA_TYPE",
        Session: session,
        ChallengeParameters: { MFAS_CAN_CHOOSE: JSON.stringify(methods), USER_ID_FOR_SRP: user.username },
      },
    };
  }

  private async mfaChallenge(
    tx: Db,
    user: UserRow,
    type: MfaType,
    clientId: string,
    now: Date,
    context: CallContext,
  ): Promise<Step> {
    if (type === "SOFTWARE_TOKEN_MFA") {
      const session = await this.createChallenge(tx, user, type, clientId, now, context);
      return {
        response: { ChallengeName: type, Session: session, ChallengeParameters: { USER_ID_FOR_SRP: user.username } },
      };
    }
    const phoneNumber = user.phoneNumber as string;
    const { code, row } = await issueCode(tx, user.sub, "sms-mfa", now);
    const destination = maskDestination("sms", phoneNumber);
    const session = await this.createChallenge(tx, user, type, clientId, now, context, { codeId: row.id }, true, {
      destination,
    });
    return {
      response: {
        ChallengeName: type,
        Session: session,
        ChallengeParameters: {
          CODE_DELIVERY_DELIVERY_MEDIUM: "SMS",
          CODE_DELIVERY_DESTINATION: destination,
          USER_ID_FOR_SRP: user.username,
        },
      },
      afterCommit: () => this.kit.deliver(signInCodeMessage(phoneNumber, code), { hideTiming: false }),
    };
  }

  /** Tokens: a new `auth_sessions` row, the failure count wiped, the sign-in audited — one transaction. */
  private async completeSignIn(
    tx: Db,
    user: UserRow,
    clientId: string,
    now: Date,
    context: CallContext,
    details: Record<string, unknown>,
  ): Promise<InitiateAuthResponse> {
    const result = await this.startSession(tx, user, clientId, now);
    await clearSignInFailures(tx, user.usernameKey);
    await this.kit.audit(tx, context, { action: "auth.sign-in", outcome: "success", actor: user, details });
    return { AuthenticationResult: result, ChallengeParameters: {} };
  }

  /** Runs a step's transaction, then what must follow its commit (sending a code). */
  private async runStep(build: (tx: Db) => Promise<Step>): Promise<InitiateAuthResponse> {
    const step = await this.db.transaction(build);
    await step.afterCommit?.();
    return step.response;
  }

  /** A new opaque session (256 random bits, stored as a digest) bound to the user and the expected challenge. */
  private async createChallenge(
    tx: Db,
    user: UserRow,
    name: ChallengeName,
    clientId: string,
    now: Date,
    context: CallContext,
    data?: ChallengeData,
    audited = true,
    auditDetails: Record<string, unknown> = {},
  ): Promise<string> {
    const session = createOpaqueToken();
    await insertAuthChallenge(tx, {
      sessionHash: digestToken(session),
      userSub: user.sub,
      challengeName: name,
      clientId,
      expiresAt: new Date(now.getTime() + challengeLifetimeMs),
      data: data ?? null,
    });
    if (audited) {
      await this.kit.audit(tx, context, {
        action: "auth.challenge",
        outcome: "success",
        actor: user,
        details: { challenge: name, ...auditDetails },
      });
    }
    return session;
  }

  /** The challenge a Session names, if it is live, of the expected kind, and its user may still sign in. */
  private async loadChallenge(
    session: string | undefined,
    name: ChallengeName,
    options: { username?: string } = {},
  ): Promise<{ challenge: AuthChallengeRow; user: UserRow }> {
    const challenge = session ? await findAuthChallenge(this.db, digestToken(session)) : undefined;
    if (!challenge || challenge.consumedAt || challenge.expiresAt <= new Date() || challenge.challengeName !== name) {
      throw expiredSession();
    }
    const user = await findUserBySub(this.db, challenge.userSub);
    if (!user?.enabled) throw expiredSession();
    if (options.username !== undefined && user.usernameKey !== normaliseUsername(options.username)) {
      throw expiredSession();
    }
    return { challenge, user };
  }

  // ─── Helpers ────────────────────────────────────────────────────────────────────────────────────────────────

  private async startSession(db: Db, user: UserRow, clientId: string, now: Date): Promise<AuthenticationResult> {
    const refreshToken = createOpaqueToken();
    const session = await insertAuthSession(db, {
      userSub: user.sub,
      clientId,
      refreshTokenHash: digestToken(refreshToken),
      authTime: now,
      expiresAt: new Date(now.getTime() + this.config.tokens.refreshTokenHours * 3_600_000),
    });
    const issued = await this.tokens.issue(user, { originJti: session.originJti, authTime: now }, clientId, { db });
    return {
      AccessToken: issued.accessToken,
      IdToken: issued.idToken,
      RefreshToken: refreshToken,
      ExpiresIn: issued.expiresIn,
      TokenType: "Bearer",
    };
  }
}

function isChallengeName(name: string): name is ChallengeName {
  return ["NEW_PASSWORD_REQUIRED", "SMS_MFA", "SOFTWARE_TOKEN_MFA", "SELECT_MFA_TYPE", "MFA_SETUP"].includes(name);
}

function readChallengeData(challenge: AuthChallengeRow): ChallengeData {
  return challengeDataSchema.parse(challenge.data ?? {});
}

function missingRequiredAttributes(user: {
  name: string | null | undefined;
  email: string | null | undefined;
}): string[] {
  return requiredAttributes.filter((name) => !user[name]?.trim());
}

function readChallengeAttributes(responses: Record<string, string>): { name?: string } {
  const name = responses["userAttributes.name"]?.trim();
  return name ? { name } : {};
}
