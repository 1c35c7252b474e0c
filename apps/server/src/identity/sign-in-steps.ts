import type { Db } from "../db/client.js";
import { maskDestination } from "../messaging/message-service.js";
import type { ChallengeStore } from "./challenge-store.js";
import { type CallContext, enabledMfa, type IdentityKit, type MfaType } from "./identity-kit.js";
import { signInCodeMessage } from "./identity-messages.js";
import { issueCode } from "./one-time-codes.js";
import { clearSignInFailures } from "./sign-in-failures-repository.js";
import { startSession } from "./start-session.js";
import type { UserRow } from "./users-repository.js";

export type AuthenticationResult = {
  AccessToken: string;
  IdToken: string;
  RefreshToken?: string;
  ExpiresIn: number;
  TokenType: "Bearer";
};

export type InitiateAuthResponse =
  | { AuthenticationResult: AuthenticationResult; ChallengeParameters: Record<string, string> }
  | { ChallengeName: string; Session: string; ChallengeParameters: Record<string, string> };

/** A sign-in step decided inside a transaction, and what must happen once it committed (sending an SMS code). */
export type Step = { response: InitiateAuthResponse; afterCommit?: () => Promise<void> };

/**
 * What follows a proven password, wherever it was proven (InitiateAuth, the first password, a chosen MFA type): the
 * MFA challenge that applies (AUTH.md), or the finished sign-in with its tokens.
 */
export class SignInSteps {
  constructor(
    private readonly kit: IdentityKit,
    private readonly challenges: ChallengeStore,
  ) {}

  /** After the password (or the first password): tokens, or the MFA challenge that applies (AUTH.md). */
  async next(
    tx: Db,
    user: UserRow,
    clientId: string,
    now: Date,
    context: CallContext,
    details: Record<string, unknown>,
  ): Promise<Step> {
    if (this.kit.config.mfaMode === "OFF") {
      return { response: await this.completeSignIn(tx, user, clientId, now, context, details) };
    }
    const methods = enabledMfa(user);
    if (methods.length === 0) {
      if (this.kit.config.mfaMode === "OPTIONAL") {
        return { response: await this.completeSignIn(tx, user, clientId, now, context, details) };
      }
      // MFA is required and the user has none: only TOTP can be set up here (SMS needs an administrator).
      const session = await this.challenges.create(tx, user, "MFA_SETUP", clientId, now, context);
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
    const session = await this.challenges.create(tx, user, "SELECT_MFA_TYPE", clientId, now, context);
    return {
      response: {
        ChallengeName: "SELECT_MFA_TYPE",
        Session: session,
        ChallengeParameters: { MFAS_CAN_CHOOSE: JSON.stringify(methods), USER_ID_FOR_SRP: user.username },
      },
    };
  }

  async mfaChallenge(
    tx: Db,
    user: UserRow,
    type: MfaType,
    clientId: string,
    now: Date,
    context: CallContext,
  ): Promise<Step> {
    if (type === "SOFTWARE_TOKEN_MFA") {
      const session = await this.challenges.create(tx, user, type, clientId, now, context);
      return {
        response: { ChallengeName: type, Session: session, ChallengeParameters: { USER_ID_FOR_SRP: user.username } },
      };
    }
    const phoneNumber = user.phoneNumber as string;
    const { code, row } = await issueCode(tx, user.sub, "sms-mfa", now);
    const destination = maskDestination("sms", phoneNumber);
    const session = await this.challenges.create(tx, user, type, clientId, now, context, { codeId: row.id }, true, {
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
      afterCommit: () => this.kit.deliver(signInCodeMessage(phoneNumber, code), context, { hideTiming: false }),
    };
  }

  /** Tokens: a new `auth_sessions` row, the failure count wiped, the sign-in audited — one transaction. */
  async completeSignIn(
    tx: Db,
    user: UserRow,
    clientId: string,
    now: Date,
    context: CallContext,
    details: Record<string, unknown>,
  ): Promise<InitiateAuthResponse> {
    const started = await startSession(tx, this.kit.tokens, {
      user,
      clientId,
      refreshTokenHours: this.kit.config.tokens.refreshTokenHours,
      now,
    });
    const result: AuthenticationResult = {
      AccessToken: started.accessToken,
      IdToken: started.idToken,
      RefreshToken: started.refreshToken,
      ExpiresIn: started.expiresIn,
      TokenType: "Bearer",
    };
    await clearSignInFailures(tx, user.usernameKey);
    await this.kit.audit(tx, context, { action: "auth.sign-in", outcome: "success", actor: user, details });
    return { AuthenticationResult: result, ChallengeParameters: {} };
  }

  /** Runs a step's transaction, then what must follow its commit (sending a code). */
  async run(build: (tx: Db) => Promise<Step>): Promise<InitiateAuthResponse> {
    const step = await this.kit.db.transaction(build);
    await step.afterCommit?.();
    return step.response;
  }
}
