import { type Message, maskDestination } from "../messaging/message-service.js";
import {
  type CognitoError,
  codeMismatch,
  expiredCode,
  incorrectCredentials,
  invalidParameter,
  limitExceeded,
  passwordAttemptsExceeded,
} from "./cognito-error.js";
import {
  accessTokenRequestSchema,
  attributeVerificationCodeSchema,
  changePasswordSchema,
  parseRequest,
  setUserMfaPreferenceSchema,
  updateUserAttributesSchema,
  verifyUserAttributeSchema,
} from "./cognito-requests.js";
import {
  type CallContext,
  type CodeDeliveryDetails,
  enabledMfa,
  type IdentityKit,
  type MfaType,
} from "./identity-kit.js";
import { attributeCodeMessage } from "./identity-messages.js";
import { type CodePurpose, checkCode, consumeCode, issueCode } from "./one-time-codes.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { hitRateLimit } from "./rate-limits-repository.js";
import { revokeUserSessions } from "./sessions-repository.js";
import { clearSignInFailures, reserveSignInAttempt } from "./sign-in-failures-repository.js";
import { updateUser } from "./users-repository.js";

/** What a signed-in user does with their access token: profile, password, MFA settings, attribute checks. */
export class AccountOperations {
  constructor(private readonly kit: IdentityKit) {}

  async getUser(input: unknown): Promise<{
    Username: string;
    UserAttributes: { Name: string; Value: string }[];
    PreferredMfaSetting?: string;
    UserMFASettingList?: string[];
  }> {
    const { user } = await this.kit.userFromAccessToken(parseRequest(accessTokenRequestSchema, input).AccessToken);
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
    const enabled = enabledMfa(user);
    const preferred = enabled.find((type) => type === user.preferredMfa);
    return {
      Username: user.username,
      UserAttributes: Object.entries(attributes).map(([Name, Value]) => ({ Name, Value })),
      // Cognito leaves both out when the user has no MFA.
      ...(preferred ? { PreferredMfaSetting: preferred } : {}),
      ...(enabled.length > 0 ? { UserMFASettingList: enabled } : {}),
    };
  }

  async changePassword(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(changePasswordSchema, input);
    const { user, originJti } = await this.kit.userFromAccessToken(request.AccessToken);
    this.kit.checkPasswordPolicy(request.ProposedPassword);
    const now = new Date();
    const fail = async (reason: string, error: CognitoError) => {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.change-password",
        outcome: "failure",
        actor: user,
        target: { type: "user", id: user.username },
        details: { reason },
      });
      return error;
    };
    // A stolen access token must not become a way to guess the password: the lockout applies here too.
    if (!(await reserveSignInAttempt(this.kit.db, user.usernameKey, now))) {
      throw await fail("locked out", passwordAttemptsExceeded());
    }
    if (!(await verifyPassword(user.passwordHash, request.PreviousPassword))) {
      throw await fail("wrong previous password", incorrectCredentials());
    }
    const passwordHash = await hashPassword(request.ProposedPassword);
    await this.kit.db.transaction(async (tx) => {
      await updateUser(tx, user.sub, { passwordHash });
      // The caller's own sign-in stays; every other one ends, as the password they came from is gone.
      const revoked = await revokeUserSessions(tx, user.sub, now, originJti);
      await clearSignInFailures(tx, user.usernameKey);
      await this.kit.audit(tx, context, {
        action: "auth.change-password",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { revokedSessions: revoked },
      });
    });
    return {};
  }

  /**
   * Users may change their name. Email and phone number are set by administrators: a stolen access token must not
   * be able to redirect password-reset codes or SMS sign-in codes (AUTH.md: SMS MFA needs a phone number set by an
   * administrator).
   */
  async updateUserAttributes(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(updateUserAttributesSchema, input);
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    const changes: { name?: string } = {};
    for (const attribute of request.UserAttributes) {
      const value = attribute.Value?.trim() ?? "";
      switch (attribute.Name) {
        case "name":
          if (!value || value.length > 200) throw invalidParameter("name must be 1 to 200 characters.");
          changes.name = value;
          break;
        case "email":
        case "phone_number":
          if (value !== ((attribute.Name === "email" ? user.email : user.phoneNumber) ?? "")) {
            throw invalidParameter(`${attribute.Name} is managed by an administrator and cannot be changed here.`);
          }
          break;
        case "sub":
        case "email_verified":
        case "phone_number_verified":
          throw invalidParameter(`Cannot modify the non-mutable attribute ${attribute.Name}`);
        default:
          throw invalidParameter(`user.${attribute.Name}: Attribute does not exist in the schema.`);
      }
    }
    if (Object.keys(changes).length === 0) return {};
    await this.kit.db.transaction(async (tx) => {
      await updateUser(tx, user.sub, changes);
      await this.kit.audit(tx, context, {
        action: "auth.update-attributes",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { attributes: Object.keys(changes) },
      });
    });
    return {};
  }

  async getUserAttributeVerificationCode(
    input: unknown,
    context: CallContext,
  ): Promise<{ CodeDeliveryDetails: CodeDeliveryDetails }> {
    const request = parseRequest(attributeVerificationCodeSchema, input);
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    const attribute = verifiableAttribute(request.AttributeName);
    const destination = attribute === "email" ? user.email : user.phoneNumber;
    if (!destination) throw invalidParameter(`The user has no ${attribute} to verify.`);
    const now = new Date();
    const limit = await hitRateLimit(
      this.kit.db,
      `attribute-code:${user.sub}`,
      this.kit.config.identityLimits.codeRequestsPerHour,
      3600,
      now,
    );
    if (!limit.allowed) throw limitExceeded();
    const channel: Message["channel"] = attribute === "email" ? "email" : "sms";
    const delivery: CodeDeliveryDetails = {
      Destination: maskDestination(channel, destination),
      DeliveryMedium: channel === "email" ? "EMAIL" : "SMS",
      AttributeName: attribute,
    };
    const code = await this.kit.db.transaction(async (tx) => {
      const issued = await issueCode(tx, user.sub, `verify-${attribute}`, now);
      await this.kit.audit(tx, context, {
        action: "auth.attribute-code",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { attribute, destination: delivery.Destination },
      });
      return issued.code;
    });
    await this.kit.deliver(attributeCodeMessage(channel, destination, code), { hideTiming: false });
    return { CodeDeliveryDetails: delivery };
  }

  async verifyUserAttribute(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(verifyUserAttributeSchema, input);
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    const attribute = verifiableAttribute(request.AttributeName);
    const now = new Date();
    const limit = await hitRateLimit(
      this.kit.db,
      `verify-attribute:${user.sub}`,
      this.kit.config.identityLimits.codeConfirmationsPerHour,
      3600,
      now,
    );
    if (!limit.allowed) throw limitExceeded();
    const purpose: CodePurpose = `verify-${attribute}`;
    const check = await checkCode(this.kit.db, user.sub, purpose, request.Code, now);
    if (check.result !== "valid") {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.verify-attribute",
        outcome: "failure",
        actor: user,
        target: { type: "user", id: user.username },
        details: { attribute, reason: check.result === "expired" ? "expired code" : "wrong code" },
      });
      throw check.result === "expired" ? expiredCode() : codeMismatch();
    }
    await this.kit.db.transaction(async (tx) => {
      if (!(await consumeCode(tx, check.row, now))) throw codeMismatch();
      await updateUser(tx, user.sub, attribute === "email" ? { emailVerified: true } : { phoneNumberVerified: true });
      await this.kit.audit(tx, context, {
        action: "auth.verify-attribute",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { attribute },
      });
    });
    return {};
  }

  async setUserMfaPreference(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const request = parseRequest(setUserMfaPreferenceSchema, input);
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    if (request.EmailMfaSettings?.Enabled || request.EmailMfaSettings?.PreferredMfa) {
      throw invalidParameter("Email MFA is not available in this user pool.");
    }
    if (request.WebAuthnMfaSettings?.Enabled || request.WebAuthnMfaSettings?.PreferredMfa) {
      throw invalidParameter("WebAuthn MFA is not available in this user pool.");
    }
    const sms = request.SMSMfaSettings;
    const totp = request.SoftwareTokenMfaSettings;
    let smsEnabled = sms?.Enabled ?? user.smsMfaEnabled;
    let totpEnabled = totp?.Enabled ?? user.totpEnabled;
    if (sms?.PreferredMfa) smsEnabled = sms.Enabled ?? true;
    if (totp?.PreferredMfa) totpEnabled = totp.Enabled ?? true;
    if ((smsEnabled && !user.smsMfaEnabled) || (totpEnabled && !user.totpEnabled)) this.kit.checkMfaAvailable();
    if (smsEnabled && !user.phoneNumber) {
      throw invalidParameter("User does not have delivery config set to turn on SMS_MFA");
    }
    if (totpEnabled && !user.totpSecret) throw invalidParameter("User has not verified software token mfa");
    if (sms?.PreferredMfa && totp?.PreferredMfa) throw invalidParameter("Only one MFA method can be preferred.");
    let preferred = user.preferredMfa as MfaType | null;
    if (sms?.PreferredMfa) preferred = "SMS_MFA";
    else if (totp?.PreferredMfa) preferred = "SOFTWARE_TOKEN_MFA";
    else {
      if (sms?.PreferredMfa === false && preferred === "SMS_MFA") preferred = null;
      if (totp?.PreferredMfa === false && preferred === "SOFTWARE_TOKEN_MFA") preferred = null;
    }
    if ((preferred === "SMS_MFA" && !smsEnabled) || (preferred === "SOFTWARE_TOKEN_MFA" && !totpEnabled)) {
      preferred = null;
    }
    await this.kit.db.transaction(async (tx) => {
      await updateUser(tx, user.sub, { smsMfaEnabled: smsEnabled, totpEnabled, preferredMfa: preferred });
      await this.kit.audit(tx, context, {
        action: "auth.mfa-preference",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: {
          before: { sms: user.smsMfaEnabled, totp: user.totpEnabled, preferred: user.preferredMfa },
          after: { sms: smsEnabled, totp: totpEnabled, preferred },
        },
      });
    });
    return {};
  }

  async globalSignOut(input: unknown, context: CallContext): Promise<Record<string, never>> {
    const { user } = await this.kit.userFromAccessToken(parseRequest(accessTokenRequestSchema, input).AccessToken);
    await this.kit.db.transaction(async (tx) => {
      const revoked = await revokeUserSessions(tx, user.sub, new Date());
      await this.kit.audit(tx, context, {
        action: "auth.global-sign-out",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: { revokedSessions: revoked },
      });
    });
    return {};
  }
}

function verifiableAttribute(name: string): "email" | "phone_number" {
  if (name === "email" || name === "phone_number") return name;
  throw invalidParameter(`${name} cannot be verified: only email and phone_number can.`);
}
