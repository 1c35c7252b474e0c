import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client.js";
import {
  consumeVerificationCode,
  countFailedVerificationAttempt,
  findLatestVerificationCode,
  findVerificationCodeById,
  replaceVerificationCode,
  type VerificationCodeRow,
} from "./verification-codes-repository.js";

/** What a one-time code proves; stored in `verification_codes.purpose`. */
export type CodePurpose =
  | "forgot-password"
  | "verify-email"
  | "verify-phone_number"
  | "sms-mfa"
  | "forgot-password-decoy";

export const codeLifetimeMs: Record<CodePurpose, number> = {
  "forgot-password": 60 * 60_000,
  "verify-email": 24 * 60 * 60_000,
  "verify-phone_number": 24 * 60 * 60_000,
  // As long as the sign-in step it belongs to.
  "sms-mfa": 3 * 60_000,
  // ForgotPassword's stand-in for a code when none is sent (same work on both paths): expired at birth, never
  // checked by anything, swept with the other expired codes.
  "forgot-password-decoy": 0,
};

/** After this many wrong guesses a code is dead even before it expires; the user asks for a new one. */
export const maxCodeAttempts = 5;

/** Six digits from the CSPRNG, leading zeros kept. */
export function generateCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** Codes are stored as digests bound to their user and purpose: a database read reveals no code to type. */
function digestCode(userSub: string, purpose: CodePurpose, code: string): Buffer {
  return createHash("sha256").update(`${purpose}\u0000${userSub}\u0000${code}`).digest();
}

/** Creates a code (replacing older ones of the same purpose) inside the caller's transaction. */
export async function issueCode(
  db: Db,
  userSub: string,
  purpose: CodePurpose,
  now: Date,
): Promise<{ code: string; row: VerificationCodeRow }> {
  const code = generateCode();
  const row = await replaceVerificationCode(db, {
    userSub,
    purpose,
    codeHash: digestCode(userSub, purpose, code).toString("base64url"),
    expiresAt: new Date(now.getTime() + codeLifetimeMs[purpose]),
  });
  return { code, row };
}

export type CodeCheck =
  | { result: "valid"; row: VerificationCodeRow }
  /** No live code, or the wrong digits: CodeMismatchException. */
  | { result: "mismatch" }
  /** The right digits, too late (or after too many wrong guesses): ExpiredCodeException. */
  | { result: "expired" };

/**
 * Compares a typed code with the newest one issued, in constant time. "Expired" is only said to someone who
 * typed the right digits, so a stranger learns nothing (not even that a code was ever sent).
 * A wrong guess is counted on the code row.
 */
export async function checkCode(
  db: Db,
  userSub: string,
  purpose: CodePurpose,
  typed: string,
  now: Date,
  options: { codeId?: string } = {},
): Promise<CodeCheck> {
  const row = options.codeId
    ? await findVerificationCodeById(db, options.codeId)
    : await findLatestVerificationCode(db, userSub, purpose);
  if (!row || row.userSub !== userSub || row.purpose !== purpose || row.consumedAt) return { result: "mismatch" };
  const expected = Buffer.from(row.codeHash, "base64url");
  const actual = digestCode(userSub, purpose, typed.trim());
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (!matches) {
    await countFailedVerificationAttempt(db, row.id);
    return { result: "mismatch" };
  }
  if (row.expiresAt <= now || row.attempts >= maxCodeAttempts) return { result: "expired" };
  return { result: "valid", row };
}

/** Uses a checked code up; false when a concurrent request already did (treat as a mismatch). */
export function consumeCode(db: Db, row: VerificationCodeRow, now: Date): Promise<boolean> {
  return consumeVerificationCode(db, row.id, now);
}
