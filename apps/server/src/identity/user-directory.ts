import {
  type AccessGroup,
  accessGroupSchema,
  type CreatedUser,
  type MessageDelivery,
  type Technologist,
  type User,
  type UserSort,
  userStatusSchema,
} from "@vigil/contract";
import type { FastifyBaseLogger } from "fastify";
import { recordAudit } from "../audit/record-audit.js";
import type { Db } from "../db/client.js";
import { isUniqueViolation } from "../db/unique-violation.js";
import { AppError } from "../errors/app-error.js";
import { type MessageService, maskDestination } from "../messaging/message-service.js";
import { generatePassword, hashPassword } from "./passwords.js";
import {
  findUserBySub,
  findUserByUsername,
  insertUser,
  isEmailTaken,
  listUsers,
  normaliseUsername,
  type UserFilter,
  type UserRow,
} from "./users-repository.js";

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
export type DirectoryServices = {
  db: Db;
  messages: MessageService;
  signInUrl: string;
  /** The request's logger, so the messages' log lines carry its id (http/request-id.ts). */
  log?: FastifyBaseLogger;
};

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
    professional: {
      familyName: row.familyName,
      givenNames: row.givenNames,
      npi: row.npi,
      credentials: row.credentials,
      boardCertifications: row.boardCertifications,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function auditActor(actor: Actor) {
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

export const fieldIssue = (path: string, message: string) => ({ issues: [{ path, message }] });

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

export function temporaryPasswordExpiry(): Date {
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

export async function sendTemporaryPassword(
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
    await services.messages.send(
      {
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
      },
      services.log,
    );
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
  const { rows, total } = await listUsers(
    db,
    page,
    { search: filter.search || undefined, group: filter.group, enabled: filter.enabled },
    sort,
  );
  return { items: rows.map(toUser), total };
}

/**
 * Enabled members of one access group, by name, for the pickers that assign them (technologists to a case, the
 * reviewer of a case).
 */
export async function listEnabledMembers(
  db: Db,
  group: AccessGroup,
  query: { limit: number; offset: number; search?: string | undefined },
): Promise<{ items: Technologist[]; total: number }> {
  const { rows, total } = await listUsers(
    db,
    query,
    { group, enabled: true, search: query.search || undefined },
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
