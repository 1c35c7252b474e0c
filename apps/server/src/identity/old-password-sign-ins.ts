import type { Db } from "../db/client.js";
import { consumeUserChallenges, revokeUserSessions } from "./sessions-repository.js";
import { clearSignInFailures } from "./sign-in-failures-repository.js";

/**
 * What a new password does to what the old one opened, whoever changes it (ChangePassword, ConfirmForgotPassword,
 * an administrator's reset): every sign-in made with the old password ends at once (its refresh token is revoked and
 * every token minted from it refused), except the caller's own after ChangePassword, and a sign-in still between its
 * steps (a pending MFA challenge) can no longer finish. When the user proved the new password themselves, the count
 * of failed attempts starts over. Runs in the transaction that stores the password; returns how many sign-ins
 * ended, for the audit event.
 */
export async function endOldPasswordSignIns(
  tx: Db,
  user: { sub: string; usernameKey: string },
  at: Date,
  options: { keepOriginJti?: string; clearFailures: boolean },
): Promise<number> {
  const revoked = await revokeUserSessions(tx, user.sub, at, options.keepOriginJti);
  await consumeUserChallenges(tx, user.sub, at);
  if (options.clearFailures) await clearSignInFailures(tx, user.usernameKey);
  return revoked;
}
