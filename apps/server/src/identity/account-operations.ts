import { emailSchema, phoneSchema, singleLineMessage, singleLineTextSchema } from "@vigil/contract";
import type { z } from "zod";
import { type Message, maskDestination } from "../messaging/message-service.js";
import {
  CognitoError,
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
import { attributeCodeMessage, contactChangedMessage } from "./identity-messages.js";
import { endOldPasswordSignIns } from "./old-password-sign-ins.js";
import { type CodePurpose, checkCode, consumeCode, issueCode } from "./one-time-codes.js";
import { hashPassword, verifyPassword } from "./passwords.js";
import { hitRateLimit } from "./rate-limits-repository.js";
import { revokeUserSessions } from "./sessions-repository.js";
import { reserveSignInAttempt } from "./sign-in-failures-repository.js";
import { isEmailTaken, type UserRow, updateUser } from "./users-repository.js";

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
      const revoked = await endOldPasswordSignIns(tx, user, now, { keepOriginJti: originJti, clearFailures: true });
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
   * Name, email and phone number, as in Cognito. A new email or phone number is stored unverified and a code goes to
   * the NEW address (`CodeDeliveryDetailsList`); VerifyUserAttribute with it marks it verified. Until then nothing
   * that proves identity is sent there: password-reset codes go to a verified email only (password-reset.ts) and an
   * unverified phone receives no SMS sign-in codes (`enabledMfa`). The old email hears of the change, so a stolen
   * access token cannot quietly redirect the account's codes. Codes sent here count towards the same hourly limit as
   * GetUserAttributeVerificationCode, so this cannot be used to mail arbitrary addresses.
   */
  async updateUserAttributes(
    input: unknown,
    context: CallContext,
  ): Promise<{ CodeDeliveryDetailsList?: CodeDeliveryDetails[] }> {
    const request = parseRequest(updateUserAttributesSchema, input);
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    const changes = readAttributeChanges(request.UserAttributes, user);
    const contacts = verifiableAttributes.filter((attribute) => changes[attributeColumn[attribute]] !== undefined);
    if (Object.keys(changes).length === 0) return {};
    const fail = async (reason: string, error: CognitoError) => {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.update-attributes",
        outcome: "failure",
        actor: user,
        target: { type: "user", id: user.username },
        details: { attributes: Object.keys(changes), reason },
      });
      return error;
    };
    if (changes.email !== undefined && (await isEmailTaken(this.kit.db, changes.email, user.sub))) {
      throw await fail(
        "email taken",
        new CognitoError("AliasExistsException", "An account with the given email already exists."),
      );
    }
    const now = new Date();
    // One hit per code about to be sent; refused before anything changes.
    for (let count = 0; count < contacts.length; count += 1) {
      if (!(await this.hitCodeLimit(user.sub, now))) throw await fail("hourly code limit reached", limitExceeded());
    }
    const sent = await this.kit.db.transaction(async (tx) => {
      await updateUser(
        tx,
        user.sub,
        Object.assign(
          {},
          changes,
          changes.email !== undefined ? { emailVerified: false } : {},
          changes.phoneNumber !== undefined ? { phoneNumberVerified: false } : {},
        ),
      );
      const codes: { attribute: VerifiableAttribute; to: string; code: string; delivery: CodeDeliveryDetails }[] = [];
      for (const attribute of contacts) {
        const to = changes[attributeColumn[attribute]] as string;
        // Replaces any code sent for the old value: only a code that reached the new address can verify it.
        const { code } = await issueCode(tx, user.sub, `verify-${attribute}`, now);
        codes.push({ attribute, to, code, delivery: deliveryTo(attribute, to) });
      }
      await this.kit.audit(tx, context, {
        action: "auth.update-attributes",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details: {
          attributes: Object.keys(changes),
          ...(codes.length > 0 ? { codesSentTo: codes.map((sent) => sent.delivery.Destination) } : {}),
        },
      });
      return codes;
    });
    if (contacts.length > 0 && user.emailVerified) {
      // A notice, not a code: its failure is logged and does not undo the change (`hideTiming` sends it off-line).
      const notice = contactChangedMessage(
        user.email,
        sent.map((entry) => entry.delivery),
      );
      await this.kit
        .deliver(notice, context, { hideTiming: true })
        .catch((error: unknown) =>
          (context.log ?? this.kit.log)?.error({ err: error }, "contact change notice failed"),
        );
    }
    for (const entry of sent) {
      const channel = entry.attribute === "email" ? "email" : "sms";
      await this.kit.deliver(attributeCodeMessage(channel, entry.to, entry.code), context, { hideTiming: false });
    }
    return sent.length > 0 ? { CodeDeliveryDetailsList: sent.map((entry) => entry.delivery) } : {};
  }

  /** One code sent to a user's own address; false once the hourly limit is reached. */
  private async hitCodeLimit(sub: string, now: Date): Promise<boolean> {
    const limit = await hitRateLimit(
      this.kit.db,
      `attribute-code:${sub}`,
      this.kit.config.identityLimits.codeRequestsPerHour,
      3600,
      now,
    );
    return limit.allowed;
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
    if (!(await this.hitCodeLimit(user.sub, now))) throw limitExceeded();
    const channel: Message["channel"] = attribute === "email" ? "email" : "sms";
    const delivery = deliveryTo(attribute, destination);
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
    await this.kit.deliver(attributeCodeMessage(channel, destination, code), context, { hideTiming: false });
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
    let decision: ReturnType<typeof decideMfaPreference>;
    try {
      decision = decideMfaPreference(request, user, () => this.kit.checkMfaAvailable());
    } catch (error) {
      // A refused change of a second factor is worth knowing about (a stolen token probing what it can turn off).
      if (error instanceof CognitoError) {
        await this.kit.audit(this.kit.db, context, {
          action: "auth.mfa-preference",
          outcome: "failure",
          actor: user,
          target: { type: "user", id: user.username },
          details: { reason: error.message },
        });
      }
      throw error;
    }
    const { smsEnabled, totpEnabled, preferred } = decision;
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

type VerifiableAttribute = "email" | "phone_number";
const verifiableAttributes: VerifiableAttribute[] = ["email", "phone_number"];
const attributeColumn = { email: "email", phone_number: "phoneNumber" } as const;

function verifiableAttribute(name: string): VerifiableAttribute {
  if (name === "email" || name === "phone_number") return name;
  throw invalidParameter(`${name} cannot be verified: only email and phone_number can.`);
}

function deliveryTo(attribute: VerifiableAttribute, destination: string): CodeDeliveryDetails {
  const channel = attribute === "email" ? "email" : "sms";
  return {
    Destination: maskDestination(channel, destination),
    DeliveryMedium: channel === "email" ? "EMAIL" : "SMS",
    AttributeName: attribute,
  };
}

/**
 * The attributes that really change, checked as Cognito checks them. A value equal to the current one is no change
 * (a profile form sends every field), so it neither unverifies the address nor sends a code.
 */
function readAttributeChanges(
  attributes: { Name: string; Value?: string | undefined }[],
  user: UserRow,
): { name?: string; email?: string; phoneNumber?: string } {
  const changes: { name?: string; email?: string; phoneNumber?: string } = {};
  for (const attribute of attributes) {
    const value = attribute.Value?.trim() ?? "";
    switch (attribute.Name) {
      case "name":
        if (!value || value.length > 200) throw invalidParameter("name must be 1 to 200 characters.");
        // A name reaches e-mail and SMS bodies: one line, as the API's own name fields (contract singleLineTextSchema).
        if (!singleLineTextSchema.safeParse(value).success) throw invalidParameter(`name ${singleLineMessage}.`);
        if (value !== user.name) changes.name = value;
        break;
      case "email":
        if (!emailSchema.safeParse(value).success) {
          throw invalidParameter("Invalid email address format: email must be an address such as name@example.org.");
        }
        if (value !== user.email) changes.email = value;
        break;
      case "phone_number":
        if (!phoneSchema.safeParse(value).success) {
          throw invalidParameter(
            "Invalid phone number format: phone_number must be in E.164 form, a + and up to 15 digits, e.g. +15555550100.",
          );
        }
        if (value !== user.phoneNumber) changes.phoneNumber = value;
        break;
      case "sub":
      case "email_verified":
      case "phone_number_verified":
        throw invalidParameter(`Cannot modify the non-mutable attribute ${attribute.Name}`);
      default:
        throw invalidParameter(`user.${attribute.Name}: Attribute does not exist in the schema.`);
    }
  }
  return changes;
}

/** What SetUserMFAPreference asks for, checked against what the user has; throws the refusal Cognito would give. */
function decideMfaPreference(
  request: z.infer<typeof setUserMfaPreferenceSchema>,
  user: UserRow,
  checkMfaAvailable: () => void,
): { smsEnabled: boolean; totpEnabled: boolean; preferred: MfaType | null } {
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
  if ((smsEnabled && !user.smsMfaEnabled) || (totpEnabled && !user.totpEnabled)) checkMfaAvailable();
  if (smsEnabled && !user.phoneNumber) {
    throw invalidParameter("User does not have delivery config set to turn on SMS_MFA");
  }
  // Turning SMS on (or preferring it) needs a number proved to reach the user; one already on stays on, suspended
  // while its number is unverified (see `enabledMfa`).
  if (((smsEnabled && !user.smsMfaEnabled) || sms?.PreferredMfa) && !user.phoneNumberVerified) {
    throw invalidParameter("User does not have delivery config set to turn on SMS_MFA: verify the phone_number first.");
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
  return { smsEnabled, totpEnabled, preferred };
}
