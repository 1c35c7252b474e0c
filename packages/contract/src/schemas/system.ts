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

export const publicConfigSchema = z.object({
  identity: z.object({
    userPoolId: z.string(),
    userPoolClientId: z.string(),
    userPoolEndpoint: z.string(),
    loginWith: z.enum(["username", "email"]),
  }),
  passwordPolicy: passwordPolicySchema,
  mfa: z.enum(["OFF", "OPTIONAL", "ON"]),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
