import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import type { PasswordPolicy } from "@vigil/contract";
import { isCommonPassword } from "./common-passwords.js";

/** argon2id with the library's defaults (OWASP-recommended memory and time cost). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// Verified against for unknown users so that "no such user" costs the same time as "wrong password".
const dummyHash = hash("vigil-timing-equaliser-password");

export async function verifyPassword(passwordHash: string | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/**
 * Cognito's wording for each failed rule ("Password does not conform to policy: …"), then AUTH.md's check against
 * a list of common passwords.
 */
export function passwordPolicyViolations(password: string, policy: PasswordPolicy): string[] {
  const problems: string[] = [];
  if (password.length < policy.minLength) problems.push("Password not long enough");
  if (policy.requireLowercase && !/\p{Ll}/u.test(password)) problems.push("Password must have lowercase characters");
  if (policy.requireUppercase && !/\p{Lu}/u.test(password)) problems.push("Password must have uppercase characters");
  if (policy.requireNumbers && !/\p{Nd}/u.test(password)) problems.push("Password must have numeric characters");
  if (policy.requireSpecialCharacters && !/[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(password)) {
    problems.push("Password must have symbol characters");
  }
  if (isCommonPassword(password)) problems.push("Password is too common");
  return problems;
}

const alphabet = {
  lower: "abcdefghijkmnpqrstuvwxyz",
  upper: "ABCDEFGHJKLMNPQRSTUVWXYZ",
  digits: "23456789",
  symbols: "!#%+-=?@^_",
};

/**
 * A generated password that satisfies any policy (every class present), avoiding look-alike characters
 * because temporary passwords are read off an email or a terminal.
 */
export function generatePassword(length = 16): string {
  const classes = Object.values(alphabet);
  const all = classes.join("");
  const characters = classes.map((set) => set[randomInt(set.length)] as string);
  while (characters.length < length) characters.push(all[randomInt(all.length)] as string);
  for (let index = characters.length - 1; index > 0; index--) {
    const other = randomInt(index + 1);
    [characters[index], characters[other]] = [characters[other] as string, characters[index] as string];
  }
  return characters.join("");
}

/** Refresh tokens and challenge sessions are stored as SHA-256 digests: a database leak reveals no usable token. */
export function digestToken(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}

/** Compares two strings (digests, PKCE challenges) in time that does not depend on where they first differ. */
export function safeEqual(left: string, right: string): boolean {
  const a = Buffer.from(left);
  const b = Buffer.from(right);
  return a.length === b.length && timingSafeEqual(a, b);
}
