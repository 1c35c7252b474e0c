import { type CognitoError, codeMismatch, expiredCode, limitExceeded } from "./cognito-error.js";
import { confirmForgotPasswordSchema, forgotPasswordSchema, parseRequest } from "./cognito-requests.js";
import { type CallContext, type CodeDeliveryDetails, emailDelivery, type IdentityKit } from "./identity-kit.js";
import { passwordResetMessage } from "./identity-messages.js";
import { checkCode, consumeCode, issueCode } from "./one-time-codes.js";
import { hashPassword } from "./passwords.js";
import { hitRateLimit } from "./rate-limits-repository.js";
import { consumeUserChallenges, revokeUserSessions } from "./sessions-repository.js";
import { clearSignInFailures } from "./sign-in-failures-repository.js";
import { findCommonEmailDomain, findUserByUsername, normaliseUsername, updateUser } from "./users-repository.js";
import { discardVerificationCodes } from "./verification-codes-repository.js";

/** A uuid no user has. */
const nilUuid = "00000000-0000-0000-0000-000000000000";

/** ForgotPassword and ConfirmForgotPassword: a code by email, then a new password (AUTH.md sequence 6). */
export class PasswordResetOperations {
  private commonDomain: { value: string; at: number } | undefined;

  constructor(private readonly kit: IdentityKit) {}

  /**
   * Always answers a masked `CodeDeliveryDetails`, simulated when there is no account to send to, so the answer
   * does not tell who has an account. Limited per username per hour (known or not).
   */
  async forgotPassword(input: unknown, context: CallContext): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    const request = parseRequest(forgotPasswordSchema, input);
    this.kit.checkClient(request.ClientId);
    const username = request.Username.trim();
    const now = new Date();
    const limit = await hitRateLimit(
      this.kit.db,
      `forgot-password:${normaliseUsername(username)}`,
      this.kit.config.identityLimits.codeRequestsPerHour,
      3600,
      now,
    );
    const user = await findUserByUsername(this.kit.db, username);
    const fail = async (reason: string) => {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.forgot-password",
        outcome: "failure",
        actor: { sub: user?.sub ?? null, username: user?.username ?? username },
        target: { type: "user", id: user?.username ?? username },
        details: { reason },
      });
    };
    if (!limit.allowed) {
      await fail("hourly limit reached");
      throw limitExceeded();
    }
    const reason = !user
      ? "unknown user"
      : !user.enabled
        ? "user disabled"
        : user.status === "FORCE_CHANGE_PASSWORD"
          ? "temporary password not yet changed"
          : // A reset code sent to an address nobody proved could hand the account over: a stolen access token can
            // put any address there (UpdateUserAttributes). After an administrator's reset (RESET_REQUIRED) the code
            // goes to the address the administrator sees on the account, even unverified: that is how a user whose
            // address was wrong, corrected by an administrator, gets back in.
            !user.emailVerified && user.status !== "RESET_REQUIRED"
            ? "email not verified"
            : undefined;
    if (!user || reason) {
      const delivery = emailDelivery(user ? user.email : await this.simulatedEmail(username));
      // The same shape of database work as a real code (a transaction replacing codes, an audit event), so the
      // answer takes about as long.
      await this.kit.db.transaction(async (tx) => {
        await discardVerificationCodes(tx, user?.sub ?? nilUuid, "forgot-password");
        await this.kit.audit(tx, context, {
          action: "auth.forgot-password",
          outcome: "failure",
          actor: { sub: user?.sub ?? null, username: user?.username ?? username },
          target: { type: "user", id: user?.username ?? username },
          details: { reason: reason ?? "unknown user", simulatedDestination: delivery.Destination },
        });
      });
      return { CodeDeliveryDetails: delivery };
    }
    // Using the code proves the address (ConfirmForgotPassword marks it verified).
    const delivery = emailDelivery(user.email);
    const code = await this.kit.db.transaction(async (tx) => {
      const issued = await issueCode(tx, user.sub, "forgot-password", now);
      await this.kit.audit(tx, context, {
        action: "auth.forgot-password",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { codeSent: "EMAIL", destination: delivery.Destination },
      });
      return issued.code;
    });
    await this.kit.deliver(passwordResetMessage(user.email, code), { hideTiming: true });
    return { CodeDeliveryDetails: delivery };
  }

  async confirmForgotPassword(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(confirmForgotPasswordSchema, input);
    this.kit.checkClient(request.ClientId);
    const username = request.Username.trim();
    const now = new Date();
    const limit = await hitRateLimit(
      this.kit.db,
      `confirm-forgot-password:${normaliseUsername(username)}`,
      this.kit.config.identityLimits.codeConfirmationsPerHour,
      3600,
      now,
    );
    const user = await findUserByUsername(this.kit.db, username);
    const fail = async (reason: string, error: CognitoError) => {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.password-reset",
        outcome: "failure",
        actor: { sub: user?.sub ?? null, username: user?.username ?? username },
        target: { type: "user", id: user?.username ?? username },
        details: { reason },
      });
      return error;
    };
    if (!limit.allowed) throw await fail("hourly limit reached", limitExceeded());
    // The policy is public: checking it first reveals nothing, and a good code is not spent on a bad password.
    this.kit.checkPasswordPolicy(request.Password);
    if (!user) throw await fail("unknown user", codeMismatch());
    if (!user.enabled) throw await fail("user disabled", codeMismatch());
    const check = await checkCode(this.kit.db, user.sub, "forgot-password", request.ConfirmationCode, now);
    if (check.result === "mismatch") throw await fail("wrong code", codeMismatch());
    if (check.result === "expired") throw await fail("expired code", expiredCode());
    const passwordHash = await hashPassword(request.Password);
    await this.kit.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, check.row, now))) throw codeMismatch();
      await updateUser(tx, user.sub, {
        passwordHash,
        status: "CONFIRMED",
        temporaryPasswordExpiresAt: null,
        emailVerified: true,
      });
      // Whoever held the old password (or a token minted from it) is out at once.
      const revoked = await revokeUserSessions(tx, user.sub, now);
      await consumeUserChallenges(tx, user.sub, now);
      await clearSignInFailures(tx, user.usernameKey);
      await this.kit.audit(tx, context, {
        action: "auth.password-reset",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { revokedSessions: revoked },
      });
    });
    return {};
  }

  /**
   * What ForgotPassword shows for a name with no account: the name at the email domain most users share,
   * masked like a real one (a user named riley at vigil.example shows r***y@vigil.example either way).
   */
  private async simulatedEmail(username: string): Promise<string> {
    if (username.includes("@")) return username;
    if (!this.commonDomain || Date.now() - this.commonDomain.at > 10 * 60_000) {
      const domain = (await findCommonEmailDomain(this.kit.db)) ?? new URL(this.kit.config.publicUrl).hostname;
      this.commonDomain = { value: domain, at: Date.now() };
    }
    return `${username}@${this.commonDomain.value}`;
  }
}
