import { z } from "zod";
import { invalidParameter } from "./cognito-error.js";

/**
 * Request bodies of the Cognito operations, with Cognito's field names. Fields Vigil does not use (ClientMetadata,
 * UserContextData, AnalyticsMetadata…) are accepted and ignored, as Amplify sends some of them.
 */
export const initiateAuthSchema = z.object({
  AuthFlow: z.string(),
  ClientId: z.string(),
  AuthParameters: z.record(z.string(), z.string()).default({}),
});

export const respondToAuthChallengeSchema = z.object({
  ChallengeName: z.string(),
  ClientId: z.string(),
  Session: z.string().optional(),
  ChallengeResponses: z.record(z.string(), z.string()).default({}),
});

export const accessTokenRequestSchema = z.object({ AccessToken: z.string().min(1) });
export const revokeTokenSchema = z.object({ Token: z.string().min(1), ClientId: z.string() });

/** Cognito's GetTokensFromRefreshToken (what Amplify v6 refreshes with): the refresh flow under its own name. */
export const getTokensFromRefreshTokenSchema = z.object({
  RefreshToken: z.string().min(1),
  ClientId: z.string(),
  ClientSecret: z.string().optional(),
  DeviceKey: z.string().optional(),
  ClientMetadata: z.record(z.string(), z.string()).optional(),
});

export const associateSoftwareTokenSchema = z.object({
  AccessToken: z.string().min(1).optional(),
  Session: z.string().min(1).optional(),
});

export const verifySoftwareTokenSchema = z.object({
  AccessToken: z.string().min(1).optional(),
  Session: z.string().min(1).optional(),
  UserCode: z.string().min(1),
  FriendlyDeviceName: z.string().max(256).optional(),
});

const mfaSettingsSchema = z
  .object({ Enabled: z.boolean().optional(), PreferredMfa: z.boolean().optional() })
  .optional();

export const setUserMfaPreferenceSchema = z.object({
  AccessToken: z.string().min(1),
  SMSMfaSettings: mfaSettingsSchema,
  SoftwareTokenMfaSettings: mfaSettingsSchema,
  EmailMfaSettings: mfaSettingsSchema,
  WebAuthnMfaSettings: mfaSettingsSchema,
});

export const forgotPasswordSchema = z.object({ ClientId: z.string(), Username: z.string().min(1) });

export const confirmForgotPasswordSchema = z.object({
  ClientId: z.string(),
  Username: z.string().min(1),
  ConfirmationCode: z.string().min(1),
  Password: z.string().min(1),
});

export const changePasswordSchema = z.object({
  AccessToken: z.string().min(1),
  PreviousPassword: z.string().min(1),
  ProposedPassword: z.string().min(1),
});

export const updateUserAttributesSchema = z.object({
  AccessToken: z.string().min(1),
  UserAttributes: z.array(z.object({ Name: z.string().min(1), Value: z.string().optional() })).min(1),
});

export const attributeVerificationCodeSchema = z.object({
  AccessToken: z.string().min(1),
  AttributeName: z.string().min(1),
});

export const verifyUserAttributeSchema = z.object({
  AccessToken: z.string().min(1),
  AttributeName: z.string().min(1),
  Code: z.string().min(1),
});

/** Parses a request body; a failure reads like Cognito's own validation errors. */
export function parseRequest<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw invalidParameter(
      issue?.code === "invalid_type" && issue.input === undefined
        ? `1 validation error detected: Value at '${field}' failed to satisfy constraint: Member must not be null`
        : `1 validation error detected: Value at '${field}' ${issue?.message ?? "is invalid"}`,
    );
  }
  return result.data;
}
