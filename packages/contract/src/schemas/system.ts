import { z } from "zod";

export const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.object({ engine: z.enum(["postgres", "pglite"]), latencyMs: z.number() }),
});
export type Health = z.infer<typeof healthSchema>;

/** `GET /build.json`: written by the web build, polled by the app to notice a newer release. */
export const buildInfoSchema = z.object({ buildId: z.string(), builtAt: z.string() });
export type BuildInfo = z.infer<typeof buildInfoSchema>;

/** Public configuration the web app needs before sign-in (identity endpoint, password policy). */
export const passwordPolicySchema = z.object({
  minLength: z.number().int().min(6),
  requireLowercase: z.boolean(),
  requireUppercase: z.boolean(),
  requireNumbers: z.boolean(),
  requireSpecialCharacters: z.boolean(),
});
export type PasswordPolicy = z.infer<typeof passwordPolicySchema>;

/**
 * Federated sign-in through the hosted UI (Amplify's `loginWith.oauth`): the provider on the button, the hosted
 * UI's domain (always reached over HTTPS), the scopes asked for and where the hosted UI sends users back.
 */
export const publicFederationConfigSchema = z.object({
  enabled: z.boolean(),
  providerName: z.string(),
  domain: z.string(),
  scopes: z.array(z.string()),
  redirectSignIn: z.array(z.string()),
  redirectSignOut: z.array(z.string()),
});
export type PublicFederationConfig = z.infer<typeof publicFederationConfigSchema>;

export const publicConfigSchema = z.object({
  identity: z.object({
    userPoolId: z.string(),
    userPoolClientId: z.string(),
    /**
     * Where Amplify sends the Cognito calls: a path on the origin the page was loaded from (`/cognito`, Vigil's
     * own identity service) or an absolute URL (an identity endpoint elsewhere, allowed by the page's CSP).
     */
    userPoolEndpoint: z.string(),
    loginWith: z.enum(["username", "email"]),
  }),
  passwordPolicy: passwordPolicySchema,
  mfa: z.enum(["OFF", "OPTIONAL", "ON"]),
  /** The issuer shown in authenticator apps; the Authenticator puts it in the TOTP QR code (`totpIssuer`). */
  totpIssuer: z.string(),
  /** null when federated sign-in is not configured: no provider button. */
  federation: publicFederationConfigSchema.nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
