import { z } from "zod";
import { authorSchema, idSchema, isoDateTimeSchema } from "./common.js";
import { smartClientIdSchema } from "./smart-clients.js";

/**
 * Pushing a client's signed reports to the hospital's own FHIR server (docs/design/FHIR.md, "Push"): where to send,
 * where to get a token (SMART Backend Services, Vigil signing its own assertion), as which client and with which
 * scopes.
 */

/** A FHIR base or token URL: https, or http on this machine only (a hospital's server on a test bench). */
export const fhirPushUrlSchema = z
  .url({ protocol: /^https?$/, message: "must be a web address starting with https://" })
  .max(2048)
  .refine((value) => {
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  }, "must start with https:// (plain http only for localhost)")
  .refine((value) => !URL.canParse(value) || new URL(value).search === "", "must not carry a query (?…)");

/** A system scope Vigil asks the hospital for: SMART v2 (`system/DiagnosticReport.cu`) or v1 (`….write`). */
export const fhirPushScopeSchema = z
  .string()
  .trim()
  .regex(
    /^system\/(\*|[A-Z][A-Za-z]{1,63})\.(c?r?u?d?s?|read|write|\*)$/,
    "must be a system scope such as system/DiagnosticReport.cu or system/DiagnosticReport.write",
  )
  .refine((value) => !value.endsWith("."), "must name at least one permission");

export const fhirPushSettingsInputSchema = z.object({
  /** The version the change was based on; null for the first settings of the client. */
  baseVersion: z.number().int().min(1).nullable(),
  enabled: z.boolean(),
  baseUrl: fhirPushUrlSchema,
  /** Null: read from `<baseUrl>/.well-known/smart-configuration` at each push. */
  tokenUrl: fhirPushUrlSchema.nullable(),
  systemClientId: smartClientIdSchema,
  scopes: z
    .array(fhirPushScopeSchema)
    .min(1, "must ask for at least one scope")
    .max(50)
    .refine((scopes) => new Set(scopes).size === scopes.length, "must not repeat a scope"),
});
export type FhirPushSettingsInput = z.input<typeof fhirPushSettingsInputSchema>;

export const fhirPushSettingsSchema = z.object({
  clientId: idSchema,
  enabled: z.boolean(),
  baseUrl: z.string(),
  tokenUrl: z.string().nullable(),
  systemClientId: z.string(),
  scopes: z.array(z.string()),
  version: z.number().int().min(1),
  updatedAt: isoDateTimeSchema,
  updatedBy: authorSchema,
});
export type FhirPushSettings = z.infer<typeof fhirPushSettingsSchema>;

/** The client's push settings (null until first saved) and what to give the hospital: Vigil's JWKS URL. */
export const fhirPushSettingsViewSchema = z.object({
  settings: fhirPushSettingsSchema.nullable(),
  jwksUrl: z.string(),
});
export type FhirPushSettingsView = z.infer<typeof fhirPushSettingsViewSchema>;
