import { z } from "zod";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { recordAudit } from "../modules/audit/audit-service.js";
import { CognitoError, expiredSession, incorrectCredentials, invalidParameter } from "./cognito-error.js";
import { digestToken, hashPassword, passwordPolicyViolations, verifyPassword } from "./passwords.js";
import {
  consumeAuthChallenge,
  findAuthChallenge,
  findAuthSessionByRefreshHash,
  findLiveSessionUser,
  insertAuthChallenge,
  insertAuthSession,
  revokeAuthSession,
  revokeUserSessions,
} from "./sessions-repository.js";
import { createOpaqueToken, type TokenService } from "./token-service.js";
import { findUserBySub, findUserByUsername, normaliseUsername, type UserRow, updateUser } from "./users-repository.js";

/** Each challenge step lives 3 minutes (spec §9 "pending sign-in state expires after 3 minutes"). */
const challengeLifetimeMs = 3 * 60_000;

/** Attributes a user may be asked to supply while setting their first password. */
const requiredAttributes = ["name", "email"] as const;

export type CallContext = { ip: string | undefined };

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

const initiateAuthSchema = z.object({
  AuthFlow: z.string(),
  ClientId: z.string(),
  AuthParameters: z.record(z.string(), z.string()).default({}),
});

const respondToAuthChallengeSchema = z.object({
  ChallengeName: z.string(),
  ClientId: z.string(),
  Session: z.string().optional(),
  ChallengeResponses: z.record(z.string(), z.string()).default({}),
});

const accessTokenRequestSchema = z.object({ AccessToken: z.string().min(1) });
const revokeTokenSchema = z.object({ Token: z.string().min(1), ClientId: z.string() });

/**
 * The Cognito user-pool operations Vigil implements (AUTH.md), with Cognito's request and response fields.
 * Failures that would reveal whether an account exists all read "Incorrect username or password."; the audit
 * log keeps the real reason.
 */
export class CognitoService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly tokens: TokenService,
  ) {}

  async initiateAuth(input: unknown, context: CallContext): Promise<InitiateAuthResponse> {
    const request = parse(initiateAuthSchema, input);
    this.checkClient(request.ClientId);
    switch (request.AuthFlow) {
      case "USER_PASSWORD_AUTH":
        return this.passwordAuth(request.AuthParameters, context);
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

  async respondToAuthChallenge(input: unknown, context: CallContext): Promise<InitiateAuthResponse> {
    const request = parse(respondToAuthChallengeSchema, input);
    this.checkClient(request.ClientId);
    if (request.ChallengeName !== "NEW_PASSWORD_REQUIRED") {
      throw invalidParameter(`Challenge ${request.ChallengeName} is not supported.`);
    }
    const username = request.ChallengeResponses.USERNAME;
    const newPassword = request.ChallengeResponses.NEW_PASSWORD;
    if (!username) throw invalidParameter("Missing required parameter USERNAME");
    if (!newPassword) throw invalidParameter("Missing required parameter NEW_PASSWORD");
    const challenge = request.Session ? await findAuthChallenge(this.db, digestToken(request.Session)) : undefined;
    const now = new Date();
    if (
      !challenge ||
      challenge.consumedAt ||
      challenge.expiresAt <= now ||
      challenge.challengeName !== request.ChallengeName
    ) {
      throw expiredSession();
    }
    const user = await findUserBySub(this.db, challenge.userSub);
    if (!user || user.usernameKey !== normaliseUsername(username) || !user.enabled) throw expiredSession();

    const violations = passwordPolicyViolations(newPassword, this.config.passwordPolicy);
    if (violations.length > 0) {
      throw new CognitoError("InvalidPasswordException", `Password does not conform to policy: ${violations[0]}`);
    }
    const attributes = readChallengeAttributes(request.ChallengeResponses);
    const missing = missingRequiredAttributes({ ...user, ...attributes });
    if (missing.length > 0) {
      throw invalidParameter(`Missing required attribute ${missing[0]}.`);
    }
    const passwordHash = await hashPassword(newPassword);
    return this.db.transaction(async (tx) => {
      if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
      const updated = await updateUser(tx, user.sub, {
        passwordHash,
        status: "CONFIRMED",
        temporaryPasswordExpiresAt: null,
        ...attributes,
      });
      await recordAudit(tx, {
        action: "auth.new-password",
        outcome: "success",
        actor: { sub: user.sub, username: user.username },
        target: { type: "user", id: user.username },
        ip: context.ip,
      });
      return {
        AuthenticationResult: await this.startSession(tx, updated as UserRow, request.ClientId, now),
        ChallengeParameters: {},
      };
    });
  }

  async getUser(input: unknown): Promise<{ Username: string; UserAttributes: { Name: string; Value: string }[] }> {
    const user = await this.userFromAccessToken(parse(accessTokenRequestSchema, input).AccessToken);
    const attributes: Record<string, string> = {
      sub: user.sub,
      email: user.email,
      email_verified: String(user.emailVerified),
      name: user.name,
    };
    if (user.phoneNumber) {
      attributes.phone_number = user.phoneNumber;
      attributes.phone_number_verified = String(user.phoneNumberVerified);
    }
    return {
      Username: user.username,
      UserAttributes: Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
    };
  }

  async revokeToken(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parse(revokeTokenSchema, input);
    this.checkClient(request.ClientId);
    const session = await findAuthSessionByRefreshHash(this.db, digestToken(request.Token));
    // Like Cognito, an unknown or already revoked token is not an error: the caller's goal is met.
    if (session && session.clientId === request.ClientId) {
      await this.db.transaction(async (tx) => {
        if (await revokeAuthSession(tx, session.originJti, new Date())) {
          await recordAudit(tx, {
            action: "auth.revoke-token",
            outcome: "success",
            actor: { sub: session.userSub },
            target: { type: "auth-session", id: session.originJti },
            ip: context.ip,
          });
        }
      });
    }
    return {};
  }

  async globalSignOut(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const user = await this.userFromAccessToken(parse(accessTokenRequestSchema, input).AccessToken);
    await this.db.transaction(async (tx) => {
      const revoked = await revokeUserSessions(tx, user.sub, new Date());
      await recordAudit(tx, {
        action: "auth.global-sign-out",
        outcome: "success",
        actor: { sub: user.sub, username: user.username },
        target: { type: "user", id: user.username },
        ip: context.ip,
        details: { revokedSessions: revoked },
      });
    });
    return {};
  }

  private async passwordAuth(parameters: Record<string, string>, context: CallContext): Promise<InitiateAuthResponse> {
    const username = parameters.USERNAME?.trim();
    const password = parameters.PASSWORD;
    if (!username) throw invalidParameter("Missing required parameter USERNAME");
    if (!password) throw invalidParameter("Missing required parameter PASSWORD");
    const user = await findUserByUsername(this.db, username);
    const passwordMatches = await verifyPassword(user?.passwordHash, password);
    const fail = async (reason: string): Promise<never> => {
      await recordAudit(this.db, {
        action: "auth.sign-in",
        outcome: "failure",
        actor: { sub: user?.sub ?? null, username },
        ip: context.ip,
        details: { reason },
      });
      throw incorrectCredentials();
    };
    if (!user) return fail("unknown user");
    if (!passwordMatches)
      return fail(user.status === "FORCE_CHANGE_PASSWORD" ? "wrong temporary password" : "wrong password");
    if (!user.enabled) return fail("user disabled");

    // Only now, with the password proven, may the answer reveal the account's state.
    const now = new Date();
    if (user.status === "RESET_REQUIRED") {
      throw new CognitoError("PasswordResetRequiredException", "Password reset required for the user");
    }
    if (user.status === "FORCE_CHANGE_PASSWORD") {
      if (user.temporaryPasswordExpiresAt && user.temporaryPasswordExpiresAt <= now) {
        await recordAudit(this.db, {
          action: "auth.sign-in",
          outcome: "failure",
          actor: user,
          ip: context.ip,
          details: { reason: "temporary password expired" },
        });
        throw new CognitoError(
          "NotAuthorizedException",
          "Temporary password has expired and must be reset by an administrator.",
        );
      }
      const session = createOpaqueToken();
      await insertAuthChallenge(this.db, {
        sessionHash: digestToken(session),
        userSub: user.sub,
        challengeName: "NEW_PASSWORD_REQUIRED",
        clientId: this.config.userPoolClientId,
        expiresAt: new Date(now.getTime() + challengeLifetimeMs),
      });
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
    }
    return this.db.transaction(async (tx) => {
      const result = await this.startSession(tx, user, this.config.userPoolClientId, now);
      await recordAudit(tx, { action: "auth.sign-in", outcome: "success", actor: user, ip: context.ip });
      return { AuthenticationResult: result, ChallengeParameters: {} };
    });
  }

  private async refreshAuth(parameters: Record<string, string>, clientId: string): Promise<InitiateAuthResponse> {
    const refreshToken = parameters.REFRESH_TOKEN;
    if (!refreshToken) throw invalidParameter("Missing required parameter REFRESH_TOKEN");
    const session = await findAuthSessionByRefreshHash(this.db, digestToken(refreshToken));
    const invalid = () => new CognitoError("NotAuthorizedException", "Invalid Refresh Token");
    if (!session || session.revokedAt || session.expiresAt <= new Date() || session.clientId !== clientId)
      throw invalid();
    const user = await findUserBySub(this.db, session.userSub);
    if (!user?.enabled) throw invalid();
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
      ChallengeParameters: {},
    };
  }

  private async startSession(db: Db, user: UserRow, clientId: string, now: Date): Promise<AuthenticationResult> {
    const refreshToken = createOpaqueToken();
    const session = await insertAuthSession(db, {
      userSub: user.sub,
      clientId,
      refreshTokenHash: digestToken(refreshToken),
      authTime: now,
      expiresAt: new Date(now.getTime() + this.config.tokens.refreshTokenHours * 3_600_000),
    });
    const issued = await this.tokens.issue(user, { originJti: session.originJti, authTime: now }, clientId);
    return {
      AccessToken: issued.accessToken,
      IdToken: issued.idToken,
      RefreshToken: refreshToken,
      ExpiresIn: issued.expiresIn,
      TokenType: "Bearer",
    };
  }

  private async userFromAccessToken(accessToken: string): Promise<UserRow> {
    let claims: Awaited<ReturnType<TokenService["verifyAccessToken"]>>;
    try {
      claims = await this.tokens.verifyAccessToken(accessToken);
    } catch {
      throw new CognitoError("NotAuthorizedException", "Invalid Access Token");
    }
    if (!(await findLiveSessionUser(this.db, claims.origin_jti, claims.sub))) {
      throw new CognitoError("NotAuthorizedException", "Access Token has been revoked");
    }
    const user = await findUserBySub(this.db, claims.sub);
    if (!user) throw new CognitoError("NotAuthorizedException", "Invalid Access Token");
    return user;
  }

  private checkClient(clientId: string): void {
    if (clientId !== this.config.userPoolClientId) {
      throw new CognitoError("ResourceNotFoundException", `User pool client ${clientId} does not exist.`);
    }
  }
}

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw invalidParameter(
      `1 validation error detected: Value at '${issue?.path.join(".") ?? ""}' ${issue?.message ?? "is invalid"}`,
    );
  }
  return result.data;
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
