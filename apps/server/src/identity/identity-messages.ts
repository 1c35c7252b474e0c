import type { Message } from "../messaging/message-service.js";

/**
 * The texts of the codes Vigil sends: short, naming Vigil, saying a code can take a minute to arrive (spec §9)
 * and that only the newest one works (a new code replaces the old).
 */
const newestOnly = "Codes can take a minute to arrive; if you asked more than once, use the newest.";

export function passwordResetMessage(to: string, code: string): Message {
  return {
    channel: "email",
    to,
    subject: "Your Vigil password reset code",
    body: [
      `Your Vigil password reset code is ${code}. It expires in 1 hour.`,
      newestOnly,
      "If you did not ask to reset your Vigil password, ignore this message: your password stays as it is.",
    ].join("\n\n"),
  };
}

export function signInCodeMessage(to: string, code: string): Message {
  return {
    channel: "sms",
    to,
    subject: "Vigil sign-in code",
    body: `Vigil sign-in code: ${code} (valid 3 minutes). ${newestOnly}`,
  };
}

export function attributeCodeMessage(channel: Message["channel"], to: string, code: string): Message {
  if (channel === "sms") {
    return {
      channel,
      to,
      subject: "Vigil verification code",
      body: `Vigil verification code: ${code} (valid 24 hours). ${newestOnly}`,
    };
  }
  return {
    channel,
    to,
    subject: "Verify your email address for Vigil",
    body: [
      `Your Vigil verification code is ${code}. It expires in 24 hours.`,
      newestOnly,
      "If you did not ask for it, ignore this message.",
    ].join("\n\n"),
  };
}

/**
 * Told to both addresses when an administrator changes a user's email: the old one (when it was verified, as for a
 * change the user makes), so its owner hears their account moved and can object, without learning the new address;
 * the new one, so its owner knows to confirm it from their Account page (until then no password-reset code goes
 * there). Names the account only.
 */
export function emailChangedByAdministratorMessages(
  username: string,
  from: { email: string; verified: boolean },
  to: string,
  signInUrl: string,
): Message[] {
  const subject = "The email address of your Vigil account was changed";
  const toOld: Message = {
    channel: "email",
    to: from.email,
    subject,
    body: [
      `An administrator changed the email address of the Vigil account ${username}: its messages no longer come to this address.`,
      "If this is not what you expected, tell your Vigil administrator at once.",
    ].join("\n\n"),
  };
  const toNew: Message = {
    channel: "email",
    to,
    subject,
    body: [
      `An administrator set this address as the email of the Vigil account ${username}.`,
      `To confirm it, sign in at ${signInUrl}, open Account and choose "Verify email": until then password-reset codes are not sent here.`,
      "If you do not know of this account, tell the Vigil administrator who set it, or ignore this message.",
    ].join("\n\n"),
  };
  return from.verified ? [toOld, toNew] : [toNew];
}

/**
 * Told to the account's verified email when the user changes their email or phone number: whoever holds only an
 * access token can change them, and the owner must hear of it.
 */
export function contactChangedMessage(to: string, changes: { AttributeName: string; Destination: string }[]): Message {
  const lines = changes.map(
    (change) => `- ${change.AttributeName === "email" ? "email address" : "phone number"}: now ${change.Destination}`,
  );
  return {
    channel: "email",
    to,
    subject: "Your Vigil contact details were changed",
    body: [
      "The contact details of your Vigil account were changed:",
      lines.join("\n"),
      "If you did not make this change, tell your Vigil administrator at once.",
    ].join("\n\n"),
  };
}
