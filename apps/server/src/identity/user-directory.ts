import { type AccessGroup, accessGroupSchema, type User } from "@vigil/contract";
import type { Db } from "../db/client.js";
import { AppError } from "../errors/app-error.js";
import { recordAudit } from "../modules/audit/audit-service.js";
import { generatePassword, hashPassword } from "./passwords.js";
import { findUserByUsername, insertUser, listUsers, normaliseUsername, type UserRow } from "./users-repository.js";

/** Admin-created users must change their temporary password within 7 days (AUTH.md). */
export const temporaryPasswordDays = 7;

export function toUser(row: UserRow): User {
  return {
    username: row.username,
    sub: row.sub,
    email: row.email,
    emailVerified: row.emailVerified,
    phoneNumber: row.phoneNumber,
    phoneNumberVerified: row.phoneNumberVerified,
    name: row.name,
    isEnabled: row.enabled,
    status: row.status as User["status"],
    groups: row.groups.filter((group): group is AccessGroup => accessGroupSchema.safeParse(group).success),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
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

/** Creates a user; without a password a temporary one is generated and returned once (FORCE_CHANGE_PASSWORD). */
export async function createUser(
  db: Db,
  input: CreateUserInput,
  actor: { sub?: string; username: string },
): Promise<{ user: User; temporaryPassword: string | undefined }> {
  if (await findUserByUsername(db, input.username)) {
    throw new AppError("conflict", `A user named ${input.username} already exists.`, { field: "username" });
  }
  const temporaryPassword = input.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(input.password ?? (temporaryPassword as string));
  return db.transaction(async (tx) => {
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
      temporaryPasswordExpiresAt: temporaryPassword ? new Date(Date.now() + temporaryPasswordDays * 86_400_000) : null,
      groups: input.groups,
    });
    await recordAudit(tx, {
      action: "user.create",
      outcome: "success",
      actor,
      target: { type: "user", id: row.username },
      details: { groups: input.groups, temporaryPassword: Boolean(temporaryPassword) },
    });
    return { user: toUser(row), temporaryPassword };
  });
}

export async function getUserByUsername(db: Db, username: string): Promise<User> {
  const row = await findUserByUsername(db, username);
  if (!row) throw new AppError("not_found", `No user named ${username}.`);
  return toUser(row);
}

export async function listAllUsers(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ items: User[]; total: number }> {
  const { rows, total } = await listUsers(db, page);
  return { items: rows.map(toUser), total };
}

export function isSameUsername(left: string, right: string): boolean {
  return normaliseUsername(left) === normaliseUsername(right);
}
