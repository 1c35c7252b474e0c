import type { PasswordPolicy } from "@vigil/contract";
import { z } from "zod";

export type PasswordRule = { id: string; label: string; met: (password: string) => boolean };

/**
 * The server's password policy (`/api/config`) as rules a person can read while typing, checked as the identity
 * service checks them (Unicode letter and digit classes, Cognito's list of symbols). The service also refuses
 * common passwords; that list stays on the server, so its refusal arrives with the submit.
 */
export function passwordRules(policy: PasswordPolicy): PasswordRule[] {
  const rules: PasswordRule[] = [
    {
      id: "length",
      label: `At least ${policy.minLength} characters`,
      met: (password) => password.length >= policy.minLength,
    },
  ];
  if (policy.requireLowercase) {
    rules.push({ id: "lowercase", label: "A lowercase letter", met: (password) => /\p{Ll}/u.test(password) });
  }
  if (policy.requireUppercase) {
    rules.push({ id: "uppercase", label: "An uppercase letter", met: (password) => /\p{Lu}/u.test(password) });
  }
  if (policy.requireNumbers) {
    rules.push({ id: "number", label: "A number", met: (password) => /\p{Nd}/u.test(password) });
  }
  if (policy.requireSpecialCharacters) {
    rules.push({
      id: "symbol",
      label: "A symbol such as ! @ # or -",
      met: (password) => /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/.test(password),
    });
  }
  return rules;
}

/** The change-password form: the current password, a new one that meets every rule, typed twice. */
export function changePasswordSchema(policy: PasswordPolicy) {
  const rules = passwordRules(policy);
  return z
    .object({
      currentPassword: z.string().min(1, "is required"),
      newPassword: z
        .string()
        .min(1, "is required")
        .superRefine((password, context) => {
          const unmet = rules.find((rule) => !rule.met(password));
          if (unmet) context.addIssue({ code: "custom", message: `needs: ${unmet.label.toLowerCase()}` });
        }),
      confirmPassword: z.string().min(1, "is required"),
    })
    .refine((values) => values.confirmPassword === values.newPassword, {
      path: ["confirmPassword"],
      message: "does not match the new password",
    });
}
