import { type AccessGroup, type PasswordReset, type User, type UserProfessional, userEtag } from "@vigil/contract";
import { recordAudit } from "../audit/record-audit.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors/app-error.js";
import { maskDestination } from "../messaging/message-service.js";
import { emailChangedByAdministratorMessages } from "./identity-messages.js";
import { endOldPasswordSignIns } from "./old-password-sign-ins.js";
import { generatePassword, hashPassword } from "./passwords.js";
import { revokeUserSessions } from "./sessions-repository.js";
import {
  type Actor,
  auditActor,
  type DirectoryServices,
  fieldIssue,
  sendTemporaryPassword,
  temporaryPasswordExpiry,
  toUser,
} from "./user-directory.js";
import {
  findUserByUsername,
  isEmailTaken,
  lockEnabledAdmins,
  lockUserByUsername,
  type UserRow,
  updateUser,
} from "./users-repository.js";
import { discardVerificationCodes } from "./verification-codes-repository.js";

/**
 * What an administrator changes about an existing user (`/api/users/{username}/…`): groups, enabled, contact
 * details, MFA, a password reset. Each goes through `changeUser`: one locked row, `If-Match`, the change and its
 * audit event in one transaction, a refusal audited too.
 */

/** `If-Match` may list several tags and weak ones (`W/"…"`); any equal to the current tag matches. */
function matchesEtag(ifMatch: string, etag: string): boolean {
  return ifMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .includes(etag);
}

type ChangeOptions = {
  action: string;
  username: string;
  actor: Actor;
  /** The client's `If-Match`; `undefined` when the operation does not use one. */
  ifMatch?: string | null | undefined;
  /** Changes that can take an administrator away lock every enabled admin first (see `lockEnabledAdmins`). */
  guardsAdmins?: boolean;
};

/**
 * One administrative change to one user: the row is locked, `If-Match` checked against it, the change and its
 * audit event written in one transaction. A refused change (unknown user, stale version, a rule) is audited as a
 * failure with its reason, then reported to the caller.
 */
async function changeUser(
  db: Db,
  options: ChangeOptions,
  change: (tx: Db, row: UserRow) => Promise<{ row: UserRow; details?: Record<string, unknown> }>,
): Promise<User> {
  const target = { type: "user", id: options.username };
  try {
    if (options.ifMatch === null) {
      throw new AppError("precondition_required", "This change needs an If-Match header with the user's ETag.");
    }
    return await db.transaction(async (tx) => {
      // Admins first, then the target: every transaction takes the locks in this order, so none wait in a circle.
      const admins = options.guardsAdmins ? await lockEnabledAdmins(tx) : [];
      const row = await lockUserByUsername(tx, options.username);
      if (!row) throw new AppError("not_found", `No user named ${options.username}.`);
      const current = toUser(row);
      if (options.ifMatch && !matchesEtag(options.ifMatch, userEtag(current))) {
        throw new AppError(
          "precondition_failed",
          `${current.username} was changed by someone else. Review the current details and try again.`,
          { current },
          { etag: userEtag(current) },
        );
      }
      const result = await change(tx, row);
      if (options.guardsAdmins) ensureAnAdminRemains(row, result.row, admins);
      await recordAudit(tx, {
        action: options.action,
        outcome: "success",
        ...auditActor(options.actor),
        target: { type: "user", id: row.username },
        details: result.details,
      });
      return toUser(result.row);
    });
  } catch (error) {
    if (error instanceof AppError) {
      await recordAudit(db, {
        action: options.action,
        outcome: "failure",
        ...auditActor(options.actor),
        target,
        details: { reason: error.message, status: error.status },
      });
    }
    throw error;
  }
}

const isActiveAdmin = (row: Pick<UserRow, "enabled" | "groups">) => row.enabled && row.groups.includes("admin");

/** Checked after the write and before the commit: throwing rolls the change back. */
function ensureAnAdminRemains(before: UserRow, after: UserRow, lockedAdmins: string[]): void {
  if (!isActiveAdmin(before) || isActiveAdmin(after)) return;
  if (lockedAdmins.some((sub) => sub !== before.sub)) return;
  throw new AppError(
    "conflict",
    `${before.username} is the last enabled administrator: they cannot be disabled or lose the admin group. ` +
      "Give another user the admin group first.",
    { reason: "last-admin" },
  );
}

/** `PUT /users/{username}/access-groups`. Groups take effect on the user's next request. */
export function setAccessGroups(
  db: Db,
  username: string,
  groups: AccessGroup[],
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  const next = [...new Set(groups)];
  return changeUser(
    db,
    { action: "user.access-groups", username, actor, ifMatch, guardsAdmins: true },
    async (tx, row) => ({
      row: (await updateUser(tx, row.sub, { groups: next })) as UserRow,
      details: {
        from: row.groups,
        to: next,
        added: next.filter((group) => !row.groups.includes(group)),
        removed: row.groups.filter((group) => !next.includes(group as AccessGroup)),
      },
    }),
  );
}

/** `PUT /users/{username}/toggle`. Disabling revokes every session, so each token the user holds stops working. */
export function setUserEnabled(
  db: Db,
  username: string,
  isEnabled: boolean,
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  return changeUser(
    db,
    { action: isEnabled ? "user.enable" : "user.disable", username, actor, ifMatch, guardsAdmins: true },
    async (tx, row) => {
      const updated = (await updateUser(tx, row.sub, { enabled: isEnabled })) as UserRow;
      const revokedSessions = isEnabled ? 0 : await revokeUserSessions(tx, row.sub, new Date());
      return { row: updated, details: { wasEnabled: row.enabled, revokedSessions } };
    },
  );
}

/**
 * `POST /users/{username}/reset-password` (Cognito's AdminResetUserPassword): the user is signed out and must
 * reset at next sign-in, where the password they know answers `PasswordResetRequiredException` and the
 * Authenticator takes them through "Forgot password". A user who never signed in has no password of their own
 * to reset: they get a new temporary password (and 7 more days) by email instead.
 */
export async function resetUserPassword(
  services: DirectoryServices,
  username: string,
  actor: Actor,
): Promise<PasswordReset> {
  const before = await findUserByUsername(services.db, username);
  const temporaryPassword = before?.status === "FORCE_CHANGE_PASSWORD" ? generatePassword() : undefined;
  const passwordHash = temporaryPassword ? await hashPassword(temporaryPassword) : undefined;
  const user = await changeUser(services.db, { action: "user.reset-password", username, actor }, async (tx, row) => {
    // The password they know stops working: so does everything it signed in, finished or half-way.
    const revokedSessions = await endOldPasswordSignIns(tx, row, new Date(), { clearFailures: false });
    const reissued = row.status === "FORCE_CHANGE_PASSWORD" && passwordHash !== undefined;
    const updated = reissued
      ? await updateUser(tx, row.sub, { passwordHash, temporaryPasswordExpiresAt: temporaryPasswordExpiry() })
      : await updateUser(tx, row.sub, { status: "RESET_REQUIRED", temporaryPasswordExpiresAt: null });
    return {
      row: updated as UserRow,
      details: { outcome: reissued ? "temporary-password-reissued" : "reset-required", revokedSessions },
    };
  });
  // Still FORCE_CHANGE_PASSWORD afterwards means the new temporary password was stored: send it.
  const delivery =
    user.status === "FORCE_CHANGE_PASSWORD" && temporaryPassword
      ? await sendTemporaryPassword(services, user, temporaryPassword, "reissued", actor)
      : null;
  return { user, delivery };
}

/**
 * `PUT /users/{username}/sms-mfa`: turns SMS MFA on or off (AUTH.md: SMS MFA needs a phone number set by an
 * administrator). Turning it off also drops an SMS preference, so the next sign-in does not ask for SMS.
 */
export function setUserSmsMfa(
  db: Db,
  username: string,
  enabled: boolean,
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  return changeUser(db, { action: "user.set-sms-mfa", username, actor, ifMatch }, async (tx, row) => {
    if (enabled && !row.phoneNumber) {
      throw new AppError("conflict", `${row.username} has no phone number, so SMS codes cannot be sent.`, {
        issues: [{ path: "body.enabled", message: "needs a phone number on the account" }],
      });
    }
    return {
      row: (await updateUser(tx, row.sub, {
        smsMfaEnabled: enabled,
        ...(!enabled && row.preferredMfa === "SMS_MFA" ? { preferredMfa: null } : {}),
      })) as UserRow,
      details: { enabled, before: row.smsMfaEnabled },
    };
  });
}

/**
 * `PUT /users/{username}/contact`: an administrator sets a user's email and phone number. A value that changes is
 * stored unverified and any code sent for the old value is discarded, so only a code sent to the new address can
 * verify it (GetUserAttributeVerificationCode from the user's account); until then password-reset codes and SMS
 * sign-in codes are not sent to it. Removing the phone number turns SMS MFA off, as it has nowhere to go. A changed
 * email is told to both addresses once the change is made (`emailChangedByAdministratorMessages`); a notice that
 * cannot be sent is logged in the audit trail and does not undo the change.
 */
export async function setUserContact(
  services: DirectoryServices,
  username: string,
  contact: { email: string; phoneNumber: string | null },
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  const email = contact.email.trim();
  const phoneNumber = contact.phoneNumber?.trim() || null;
  let previous: { email: string; verified: boolean } | undefined;
  const user = await changeUser(
    services.db,
    { action: "user.set-contact", username, actor, ifMatch },
    async (tx, row) => {
      const emailChanged = email !== row.email;
      previous = emailChanged ? { email: row.email, verified: row.emailVerified } : undefined;
      const phoneChanged = phoneNumber !== row.phoneNumber;
      if (emailChanged && (await isEmailTaken(tx, email, row.sub))) {
        const message = "Another user already has this email address.";
        throw new AppError("conflict", message, fieldIssue("body.email", message));
      }
      if (emailChanged) await discardVerificationCodes(tx, row.sub, "verify-email");
      if (phoneChanged) await discardVerificationCodes(tx, row.sub, "verify-phone_number");
      const updated = await updateUser(
        tx,
        row.sub,
        Object.assign(
          {},
          emailChanged ? { email, emailVerified: false } : {},
          phoneChanged ? { phoneNumber, phoneNumberVerified: false } : {},
          phoneChanged && !phoneNumber
            ? { smsMfaEnabled: false, ...(row.preferredMfa === "SMS_MFA" ? { preferredMfa: null } : {}) }
            : {},
        ),
      );
      return {
        row: updated as UserRow,
        // Masked like every delivery in the log: the audit trail says what changed, not the addresses themselves.
        details: {
          changed: [...(emailChanged ? ["email"] : []), ...(phoneChanged ? ["phoneNumber"] : [])],
          ...(emailChanged
            ? { email: { from: maskDestination("email", row.email), to: maskDestination("email", email) } }
            : {}),
          ...(phoneChanged
            ? {
                phoneNumber: {
                  from: row.phoneNumber ? maskDestination("sms", row.phoneNumber) : null,
                  to: phoneNumber ? maskDestination("sms", phoneNumber) : null,
                },
              }
            : {}),
          ...(phoneChanged && !phoneNumber && row.smsMfaEnabled ? { smsMfaTurnedOff: true } : {}),
        },
      };
    },
  );
  if (previous) {
    for (const notice of emailChangedByAdministratorMessages(user.username, previous, email, services.signInUrl)) {
      await services.messages.send(notice, services.log).catch((error: unknown) =>
        recordAudit(services.db, {
          action: "user.email-change-notice.send",
          outcome: "failure",
          ...auditActor(actor),
          target: { type: "user", id: user.username },
          details: {
            to: maskDestination("email", notice.to),
            reason: error instanceof Error ? error.message : String(error),
          },
        }),
      );
    }
  }
  return user;
}

/**
 * `PUT /users/{username}/professional`: the names as parts, NPI, credentials and certifications, set by the user
 * or an administrator. The audit row names each changed field with its old and new value: these are public
 * professional facts (the NPI is published by NPPES), and a report signed later prints them.
 */
export function setUserProfessional(
  db: Db,
  username: string,
  professional: UserProfessional,
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  return changeUser(db, { action: "user.set-professional", username, actor, ifMatch }, async (tx, row) => {
    const before: UserProfessional = {
      familyName: row.familyName,
      givenNames: row.givenNames,
      npi: row.npi,
      credentials: row.credentials,
      boardCertifications: row.boardCertifications,
    };
    const changed = (Object.keys(before) as (keyof UserProfessional)[]).filter(
      (field) => JSON.stringify(before[field]) !== JSON.stringify(professional[field]),
    );
    const updated = changed.length === 0 ? row : ((await updateUser(tx, row.sub, professional)) as UserRow);
    return {
      row: updated,
      details: {
        changed,
        ...Object.fromEntries(changed.map((field) => [field, { from: before[field], to: professional[field] }])),
      },
    };
  });
}

/** `POST /users/{username}/reset-mfa`: removes SMS and authenticator-app MFA, any pending setup and the preference. */
export function resetUserMfa(db: Db, username: string, actor: Actor): Promise<User> {
  return changeUser(db, { action: "user.reset-mfa", username, actor }, async (tx, row) => ({
    row: (await updateUser(tx, row.sub, {
      smsMfaEnabled: false,
      totpEnabled: false,
      totpSecret: null,
      pendingTotpSecret: null,
      preferredMfa: null,
      lastTotpStep: null,
    })) as UserRow,
    details: { hadSms: row.smsMfaEnabled, hadTotp: row.totpEnabled },
  }));
}
