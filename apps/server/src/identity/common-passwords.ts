import { dictionary } from "@zxcvbn-ts/language-common";

/**
 * The ~49,000 most common passwords from public breach corpora, as ranked and maintained by the zxcvbn-ts project
 * (`@zxcvbn-ts/language-common`, MIT). Only the list is used, not zxcvbn's scoring: AUTH.md asks for "a check
 * against a list of common passwords" on top of the configured length and composition rules.
 */
let commonPasswords: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary["passwords-common"]);
  // The list is lower case; "Password1234" is as weak as "password1234".
  return commonPasswords.has(password.normalize("NFKC").toLowerCase());
}
