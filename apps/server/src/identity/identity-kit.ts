import type { FastifyBaseLogger } from "fastify";
import { type AuditEvent, recordAudit } from "../audit/record-audit.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { type Message, type MessageService, maskDestination } from "../messaging/message-service.js";
import { CognitoError, invalidParameter, invalidPassword } from "./cognito-error.js";
import { passwordPolicyViolations } from "./passwords.js";
import { findLiveSessionUser } from "./sessions-repository.js";
import type { TokenService } from "./token-service.js";
import { findUserBySub, type UserRow } from "./users-repository.js";

/** Who called: the client address and user agent, recorded with every audit event. */
export type CallContext = {
  ip: string | undefined;
  userAgent?: string | undefined;
  /** The request's logger: lines written for this call carry its id (http/request-id.ts). */
  log?: FastifyBaseLogger | undefined;
};

export type MfaType = "SMS_MFA" | "SOFTWARE_TOKEN_MFA";

export type CodeDeliveryDetails = { Destination: string; DeliveryMedium: "EMAIL" | "SMS"; AttributeName: string };

/**
 * The MFA methods a user can be challenged with right now. SMS counts only while the phone number is verified: a
 * number the user (or an administrator) just entered may be mistyped or someone else's, and sending sign-in codes
 * there would lock the user out or hand their second factor to a stranger. While it is unverified SMS MFA is
 * suspended, not turned off: with MFA optional the user signs in with their other method (or none) and verifies the
 * number from their account, then SMS codes resume; with MFA required and no other method they are offered TOTP
 * setup, as anyone without MFA is.
 */
export function enabledMfa(user: UserRow): MfaType[] {
  const methods: MfaType[] = [];
  if (user.smsMfaEnabled && user.phoneNumber && user.phoneNumberVerified) methods.push("SMS_MFA");
  if (user.totpEnabled && user.totpSecret) methods.push("SOFTWARE_TOKEN_MFA");
  return methods;
}

export function emailDelivery(email: string): CodeDeliveryDetails {
  return { Destination: maskDestination("email", email), DeliveryMedium: "EMAIL", AttributeName: "email" };
}

/** What every group of identity operations shares: the database, configuration, tokens, messages and checks. */
export class IdentityKit {
  constructor(
    readonly db: Db,
    readonly config: Config,
    readonly tokens: TokenService,
    readonly messages: MessageService,
    readonly log?: FastifyBaseLogger,
  ) {}

  async userFromAccessToken(accessToken: string): Promise<{ user: UserRow; originJti: string }> {
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
    return { user, originJti: claims.origin_jti };
  }

  /** What `deliver(message, { hideTiming: true })` costs the answer, sending nothing (see `MessageService.sendNothing`). */
  async deliverNothing(message: Message): Promise<void> {
    await this.messages.sendNothing(message);
  }

  checkPasswordPolicy(password: string): void {
    const violations = passwordPolicyViolations(password, this.config.passwordPolicy);
    if (violations.length > 0) throw invalidPassword(violations[0] as string);
  }

  checkMfaAvailable(): void {
    if (this.config.mfaMode === "OFF") throw invalidParameter("MFA is turned off for this user pool.");
  }

  checkClient(clientId: string): void {
    if (clientId !== this.config.userPoolClientId) {
      throw new CognitoError("ResourceNotFoundException", `User pool client ${clientId} does not exist.`);
    }
  }

  audit(db: Db, context: CallContext, event: Omit<AuditEvent, "ip" | "userAgent">): Promise<void> {
    return recordAudit(db, { ip: context.ip, userAgent: context.userAgent, ...event });
  }

  /**
   * Sends a code. Where the answer must not reveal whether anything was sent (ForgotPassword), a transport that
   * leaves the system (SMTP, SMS gateway) runs after the answer, so its latency does not show; the outbox is a
   * local insert and stays in line (tests read it right after the answer).
   */
  async deliver(message: Message, context: CallContext, options: { hideTiming: boolean }): Promise<void> {
    const log = context.log ?? this.log;
    if (options.hideTiming && this.messages.transportFor(message.channel) !== "outbox") {
      // Started once the answer is on its way: not even the transport's first synchronous steps delay it.
      setImmediate(() => {
        this.messages
          .send(message, log)
          .catch((error: unknown) => log?.error({ err: error, channel: message.channel }, "code delivery failed"));
      });
      return;
    }
    try {
      await this.messages.send(message, log);
    } catch (error) {
      log?.error({ err: error, channel: message.channel }, "code delivery failed");
      throw new CognitoError("CodeDeliveryFailureException", "Unable to deliver the verification code.");
    }
  }
}
