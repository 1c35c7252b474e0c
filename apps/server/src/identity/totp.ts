import { Secret, TOTP } from "otpauth";

/** RFC 6238 as authenticator apps and Cognito use it: SHA-1, 6 digits, 30-second steps. */
const period = 30;

/** A new shared secret (160 bits, RFC 4226's recommendation), base32 as Cognito's `SecretCode`. */
export function createTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * Checks a code against the current step ±1 (clock drift) and returns the step it matched, or undefined.
 * The caller refuses a step at or before the last one accepted, so each code works once.
 */
export function matchTotpStep(secret: string, code: string, now: Date): number | undefined {
  const token = code.trim();
  if (!/^\d{6}$/.test(token)) return undefined;
  const timestamp = now.getTime();
  const delta = TOTP.validate({
    token,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period,
    timestamp,
    window: 1,
  });
  if (delta === null) return undefined;
  return TOTP.counter({ period, timestamp }) + delta;
}
