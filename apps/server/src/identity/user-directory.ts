import {
  type AccessGroup,
  accessGroupSchema,
  type CreatedUser,
  type MessageDelivery,
  type PasswordReset,
  type Technologist,
  type User,
  type UserSort,
  userEtag,
  userStatusSchema,
} from "@vigil/contract";
import { recordAudit } from "../audit/record-audit.js";
import type { Db } from "../db/client.js";
import { isUniqueViolation } from "../db/unique-violation.js";
import { AppError } from "../errors/app-error.js";
import { type MessageService, maskDestination } from "../messaging/message-service.js";
import { generatePassword, hashPassword } from "./passwords.js";
import { revokeUserSessions } from "./sessions-repository.js";
import {
  findUserBySub,
  findUserByUsername,
  insertUser,
  isEmailTaken,
  listUsers,
  lockEnabledAdmins,
  lockUserByUsername,
  normaliseUsername,
  type UserFilter,
  type UserRow,
  updateUser,
} from "./users-repository.js";
import { discardVerificationCodes } from "./verification-codes-repository.js";

/** Admin-created users must change their temporary password within 7 days (AUTH.md). */
export const temporaryPasswordDays = 7;

/** Who acts, and from where: every administrative change is audited with it. */
export type Actor = {
  sub?: string | undefined;
  username: string;
  ip?: string | undefined;
  userAgent?: string | undefined;
};

/** What the administrative operations need beyond the database: mail, and where users sign in. */
export type DirectoryServices = { db: Db; messages: MessageService; signInUrl: string };

export function toUser(row: UserRow): User {
  const status = userStatusSchema.safeParse(row.status);
  return {
    username: row.username,
    sub: row.sub,
    email: row.email,
    emailVerified: row.emailVerified,
    phoneNumber: row.phoneNumber,
    phoneNumberVerified: row.phoneNumberVerified,
    name: row.name,
    isEnabled: row.enabled,
    status: status.success ? status.data : "CONFIRMED",
    groups: row.groups.filter((group): group is AccessGroup => accessGroupSchema.safeParse(group).success),
    mfa: {
      sms: row.smsMfaEnabled,
      totp: row.totpEnabled,
      preferred: row.preferredMfa === "SMS_MFA" || row.preferredMfa === "SOFTWARE_TOKEN_MFA" ? row.preferredMfa : null,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function auditActor(actor: Actor) {
  return { actor: { sub: actor.sub ?? null, username: actor.username }, ip: actor.ip, userAgent: actor.userAgent };
}

export type CreateUserInput = {
  username: string;
  email: string;
  name: string;
  groups: AccessGroup[];
  phoneNumber?: string | undefined;
  /** Set for demo users: a usable password instead of a temporary one. */
  password?: string | undefined;
};

const fieldIssue = (path: string, message: string) => ({ issues: [{ path, message }] });

/** Creates a user; without a password a temporary one is generated and returned once (FORCE_CHANGE_PASSWORD). */
export async function createUser(
  db: Db,
  input: CreateUserInput,
  actor: Actor,
): Promise<{ user: User; temporaryPassword: string | undefined }> {
  const groups = [...new Set(input.groups)];
  const refuse = async (path: string, message: string): Promise<never> => {
    await recordAudit(db, {
      action: "user.create",
      outcome: "failure",
      ...auditActor(actor),
      target: { type: "user", id: input.username.trim() },
      details: { reason: message },
    });
    throw new AppError("conflict", message, fieldIssue(path, message));
  };
  if (await findUserByUsername(db, input.username)) {
    await refuse("body.username", `A user named ${input.username.trim()} already exists.`);
  }
  // Sign-in by email and federated sign-in (linked by verified email) both need one account per address.
  if (await isEmailTaken(db, input.email)) await refuse("body.email", "Another user already has this email address.");
  const temporaryPassword = input.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.password ?? (temporaryPassword as string));
  try {
    return await db.transaction(async (tx) => {
      const row = await insertUser(tx, {
        username: input.username.trim(),
        email: input.email.trim(),
        // Administrators enter addresses they know; users confirm them on first use in later flows.
        emailVerified: true,
        phoneNumber: input.phoneNumber ?? null,
        phoneNumberVerified: Boolean(input.phoneNumber),
        name: input.name.trim(),
        passwordHash,
        status: temporaryPassword ? "FORCE_CHANGE_PASSWORD" : "CONFIRMED",
        temporaryPasswordExpiresAt: temporaryPassword ? temporaryPasswordExpiry() : null,
        groups,
      });
      await recordAudit(tx, {
        action: "user.create",
        outcome: "success",
        ...auditActor(actor),
        target: { type: "user", id: row.username },
        details: { groups, temporaryPassword: Boolean(temporaryPassword) },
      });
      return { user: toUser(row), temporaryPassword };
    });
  } catch (error) {
    // Two administrators creating the same name at once: the unique index decides, and the loser hears 409.
    if (isUniqueViolation(error, "users_username_key_idx")) {
      return refuse("body.username", `A user named ${input.username.trim()} already exists.`);
    }
    throw error;
  }
}

function temporaryPasswordExpiry(): Date {
  return new Date(Date.now() + temporaryPasswordDays * 86_400_000);
}

/**
 * Creates a user and emails them their temporary password (AUTH.md "Administration"). The password is never
 * part of the answer. Mail goes out after the commit (the outbox lives in the same database, and PGlite runs one
 * transaction at a time); if it cannot be sent, the user exists and "Reset password" sends a new one.
 */
export async function inviteUser(
  services: DirectoryServices,
  input: Omit<CreateUserInput, "password">,
  actor: Actor,
): Promise<CreatedUser> {
  const { user, temporaryPassword } = await createUser(services.db, input, actor);
  const delivery = await sendTemporaryPassword(services, user, temporaryPassword as string, "created", actor);
  return { user, delivery };
}

async function sendTemporaryPassword(
  services: DirectoryServices,
  user: User,
  temporaryPassword: string,
  occasion: "created" | "reissued",
  actor: Actor,
): Promise<MessageDelivery> {
  const opening =
    occasion === "created"
      ? "An administrator created a Vigil account for you."
      : "An administrator issued you a new temporary password for Vigil.";
  try {
    await services.messages.send({
      channel: "email",
      to: user.email,
      subject: occasion === "created" ? "Your Vigil account" : "Your new temporary Vigil password",
      body: [
        `Hello ${user.name},`,
        "",
        opening,
        "",
        `Username: ${user.username}`,
        `Temporary password: ${temporaryPassword}`,
        "",
        `Sign in at ${services.signInUrl} within ${temporaryPasswordDays} days; you will then choose your own password.`,
      ].join("\n"),
    });
  } catch (error) {
    await recordAudit(services.db, {
      action: "user.temporary-password.send",
      outcome: "failure",
      ...auditActor(actor),
      target: { type: "user", id: user.username },
      details: { reason: error instanceof Error ? error.message : String(error) },
    });
    throw new AppError(
      "unavailable",
      `The email with ${user.username}'s temporary password could not be sent. Use "Reset password" to send a new one.`,
    );
  }
  return {
    channel: "email",
    destination: maskDestination("email", user.email),
    transport: services.messages.transportFor("email"),
  };
}

export async function getUserByUsername(db: Db, username: string): Promise<User> {
  const row = await findUserByUsername(db, username);
  if (!row) throw new AppError("not_found", `No user named ${username}.`);
  return toUser(row);
}

export async function listAllUsers(
  db: Db,
  page: { limit: number; offset: number },
  filter: UserFilter = {},
  sort: { field: UserSort; order: "asc" | "desc" } = { field: "username", order: "asc" },
): Promise<{ items: User[]; total: number }> {
  const { rows, total } = await listUsers(db, page, { ...filter, search: filter.search || undefined }, sort);
  return { items: rows.map(toUser), total };
}

/** Enabled members of the technologist group, by name, for pickers. */
export async function listTechnologists(
  db: Db,
  query: { limit: number; offset: number; search?: string | undefined },
): Promise<{ items: Technologist[]; total: number }> {
  const { rows, total } = await listUsers(
    db,
    query,
    { group: "technologist", enabled: true, search: query.search || undefined },
    { field: "name", order: "asc" },
  );
  return { items: rows.map((row) => ({ id: row.sub, username: row.username, name: row.name })), total };
}

/** Enabled members of the reviewer group, by name, for the assign-reviewer picker. */
export async function listReviewers(
  db: Db,
  query: { limit: number; offset: number; search?: string | undefined },
): Promise<{ items: Technologist[]; total: number }> {
  const { rows, total } = await listUsers(
    db,
    query,
    { group: "reviewer", enabled: true, search: query.search || undefined },
    { field: "name", order: "asc" },
  );
  return { items: rows.map((row) => ({ id: row.sub, username: row.username, name: row.name })), total };
}

/** The user with this `sub` (the id pickers hand out), or undefined: other modules check assignees with it. */
export async function findUserById(db: Db, sub: string): Promise<User | undefined> {
  const row = await findUserBySub(db, sub);
  return row ? toUser(row) : undefined;
}

export function isSameUsername(left: string, right: string): boolean {
  return normaliseUsername(left) === normaliseUsername(right);
}

/** `If-Match` may list several tags and weak ones (`W/"…"`); any equal to the current tag matches. */
export function matchesEtag(ifMatch: string, etag: string): boolean {
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
    const revokedSessions = await revokeUserSessions(tx, row.sub, new Date());
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
 * sign-in codes are not sent to it. Removing the phone number turns SMS MFA off, as it has nowhere to go.
 */
export function setUserContact(
  db: Db,
  username: string,
  contact: { email: string; phoneNumber: string | null },
  ifMatch: string | null,
  actor: Actor,
): Promise<User> {
  const email = contact.email.trim();
  const phoneNumber = contact.phoneNumber?.trim() || null;
  return changeUser(db, { action: "user.set-contact", username, actor, ifMatch }, async (tx, row) => {
    const emailChanged = email !== row.email;
    const phoneChanged = phoneNumber !== row.phoneNumber;
    if (emailChanged && (await isEmailTaken(tx, email, row.sub))) {
      const message = "Another user already has this email address.";
      throw new AppError("conflict", message, fieldIssue("body.email", message));
    }
    if (emailChanged) await discardVerificationCodes(tx, row.sub, "verify-email");
    if (phoneChanged) await discardVerificationCodes(tx, row.sub, "verify-phone_number");
    const updated = await updateUser(tx, row.sub, {
      ...(emailChanged ? { email, emailVerified: false } : {}),
      ...(phoneChanged ? { phoneNumber, phoneNumberVerified: false } : {}),
      ...(phoneChanged && !phoneNumber
        ? { smsMfaEnabled: false, ...(row.preferredMfa === "SMS_MFA" ? { preferredMfa: null } : {}) }
        : {}),
    });
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
