import { type CognitoError, codeMismatch, expiredCode, limitExceeded } from "./cognito-error.js";
import { confirmForgotPasswordSchema, forgotPasswordSchema, parseRequest } from "./cognito-requests.js";
import { ForgotPasswordDecoys } from "./forgot-password-decoys.js";
import { type CallContext, type CodeDeliveryDetails, emailDelivery, type IdentityKit } from "./identity-kit.js";
import { passwordResetMessage } from "./identity-messages.js";
import { endOldPasswordSignIns } from "./old-password-sign-ins.js";
import { checkCode, consumeCode, issueCode } from "./one-time-codes.js";
import { hashPassword } from "./passwords.js";
import { hitRateLimit } from "./rate-limits-repository.js";
import { findUserByUsername, normaliseUsername, updateUser } from "./users-repository.js";

/** ForgotPassword and ConfirmForgotPassword: a code by email, then a new password (AUTH.md sequence 6). */
export class PasswordResetOperations {
  private readonly decoys: ForgotPasswordDecoys;

  constructor(private readonly kit: IdentityKit) {
    this.decoys = new ForgotPasswordDecoys(kit.db, new URL(kit.config.publicUrl).hostname);
  }

  /**
   * Always answers a masked `CodeDeliveryDetails`, so the answer does not tell who has an account: for a name with no
   * account a decoy drawn from the real users' addresses (`ForgotPasswordDecoys`). Limited per username per hour
   * (known or not).
   *
   * Both paths do the same work, statement for statement: the rate-limit hit, the user lookup, the decoy (computed
   * for real users too), one transaction that replaces a code (a real one, or an inert `forgot-password-decoy` row
   * that expires at once) and writes the audit event, then the delivery: a transport that leaves the system runs after
   * the answer, and the outbox of a server without one runs the same insert, keeping nothing when there is no code.
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
    const decoy = await this.decoys.destinationFor(username);
    const actor = { sub: user?.sub ?? null, username: user?.username ?? username };
    const target = { type: "user", id: user?.username ?? username };
    if (!limit.allowed) {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.forgot-password",
        outcome: "failure",
        actor,
        target,
        details: { reason: "hourly limit reached" },
      });
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
    // A real user's answer is their own masked address whether or not a code goes out.
    const delivery: CodeDeliveryDetails = user
      ? emailDelivery(user.email)
      : { Destination: decoy.destination, DeliveryMedium: "EMAIL", AttributeName: "email" };
    const codeHolder = reason ? (user?.sub ?? decoy.holder?.sub) : user?.sub;
    const code = await this.kit.db.transaction(async (tx) => {
      const issued = codeHolder
        ? await issueCode(tx, codeHolder, reason ? "forgot-password-decoy" : "forgot-password", now)
        : undefined;
      await this.kit.audit(tx, context, {
        action: "auth.forgot-password",
        outcome: reason ? "failure" : "success",
        actor,
        target,
        details: reason
          ? { reason, simulatedDestination: delivery.Destination }
          : { codeSent: "EMAIL", destination: delivery.Destination },
      });
      return issued?.code;
    });
    if (user && !reason && code) {
      // Using the code proves the address (ConfirmForgotPassword marks it verified).
      await this.kit.deliver(passwordResetMessage(user.email, code), context, { hideTiming: true });
    } else {
      await this.kit.deliverNothing(passwordResetMessage(user?.email ?? decoy.holder?.email ?? username, "000000"));
    }
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
      const revoked = await endOldPasswordSignIns(tx, user, now, { clearFailures: true });
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
}
