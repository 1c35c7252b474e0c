/**
 * Whether an administrator ended every sign-in of this account: disabled it, or reset its password (the account
 * stays `RESET_REQUIRED` until its user chooses a new one). Whoever still holds a token of such a sign-in is told
 * so (the API's 401, the refresh's refusal), and only they: the answer is about their own account.
 */
export function isEndedByAdministrator(account: { enabled: boolean; status: string }): boolean {
  return !account.enabled || account.status === "RESET_REQUIRED";
}
