import { z } from "zod";
import { authorSchema, idSchema, isoDateTimeSchema, singleLineTextSchema } from "./common.js";

/**
 * Hospital systems registered for SMART Backend Services (docs/design/FHIR.md): a client id, the public keys its
 * assertions are signed with, and the system scopes it may be granted.
 */

/** The signing algorithms SMART Backend Services names; the token endpoint accepts no other. */
export const smartSigningAlgorithms = ["RS384", "ES384"] as const;

/** SMART v2 permissions, in the order a scope writes them: create, read, update, delete, search. */
export const smartPermissions = ["c", "r", "u", "d", "s"] as const;
export type SmartPermission = (typeof smartPermissions)[number];

/** `system/<ResourceType or *>.<one or more of c r u d s, in that order>` (SMART App Launch 2.x, scopes). */
export const smartScopePattern = /^system\/(\*|[A-Z][A-Za-z]{1,63})\.(c?r?u?d?s?)$/;

export const smartScopeSchema = z
  .string()
  .trim()
  .refine((value) => {
    const match = smartScopePattern.exec(value);
    return match !== null && (match[2] ?? "") !== "";
  }, "must be a SMART v2 system scope such as system/DiagnosticReport.rs (permissions c, r, u, d, s in that order)");

/** Private members of a JWK: a key holding any of them is a secret that must never be sent to Vigil. */
export const privateJwkMembers = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"] as const;

/**
 * One public key of a hospital's JWKS: RSA (RS384) or EC P-384 (ES384). Other members (`kid`, `use`, `key_ops`,
 * `x5c`…) pass through; a private member (`d`, or a symmetric `k`) refuses the whole set.
 */
export const smartPublicJwkSchema = z
  .looseObject({
    kty: z.enum(["RSA", "EC"], { message: "must be RSA or EC (keys for RS384 or ES384)" }),
    kid: z.string().min(1).max(256).optional(),
    alg: z.enum(smartSigningAlgorithms, { message: "must be RS384 or ES384" }).optional(),
    n: z.string().min(1).optional(),
    e: z.string().min(1).optional(),
    crv: z.string().optional(),
    x: z.string().min(1).optional(),
    y: z.string().min(1).optional(),
  })
  .superRefine((key, context) => {
    for (const member of privateJwkMembers) {
      if (member in key) {
        context.addIssue({
          code: "custom",
          path: [member],
          message: `is a private key member: paste the public keys only (a JWKS without "${member}"); the private key stays with the hospital`,
        });
      }
    }
    if (key.kty === "RSA") {
      if (!key.n || !key.e) context.addIssue({ code: "custom", path: ["n"], message: "an RSA key needs n and e" });
      if (key.alg && key.alg !== "RS384")
        context.addIssue({ code: "custom", path: ["alg"], message: "an RSA key signs with RS384" });
    }
    if (key.kty === "EC") {
      if (key.crv !== "P-384") {
        context.addIssue({ code: "custom", path: ["crv"], message: "an EC key must be on curve P-384 (ES384)" });
      }
      if (!key.x || !key.y) context.addIssue({ code: "custom", path: ["x"], message: "an EC key needs x and y" });
      if (key.alg && key.alg !== "ES384")
        context.addIssue({ code: "custom", path: ["alg"], message: "an EC key signs with ES384" });
    }
  });
export type SmartPublicJwk = z.infer<typeof smartPublicJwkSchema>;

export const smartJwksSchema = z.object({
  keys: z.array(smartPublicJwkSchema).min(1, "must hold at least one key").max(20, "may hold at most 20 keys"),
});
export type SmartJwks = z.infer<typeof smartJwksSchema>;

/** A JWKS URL: https, or http on this machine only (a hospital's key server on a test bench). */
export const smartJwksUrlSchema = z
  .url({ protocol: /^https?$/, message: "must be a web address starting with https://" })
  .max(2048)
  .refine((value) => {
    // Zod runs this check even when the address did not parse; that case is already refused above.
    if (!URL.canParse(value)) return true;
    const url = new URL(value);
    return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  }, "must start with https:// (plain http only for localhost)");

/** A client id as the hospital's system sends it in `iss` and `sub`. */
export const smartClientIdSchema = z
  .string()
  .trim()
  .min(3, "must be at least 3 characters")
  .max(128, "must be at most 128 characters")
  .regex(/^[A-Za-z0-9._~:-]+$/, "may hold letters, digits and . _ ~ : - only");

const smartClientContent = {
  name: singleLineTextSchema.min(1, "is required").max(200),
  /** Exactly one of the two (the other null): where the keys are published, or the keys themselves. */
  jwksUrl: smartJwksUrlSchema.nullable(),
  jwks: smartJwksSchema.nullable(),
  scopes: z
    .array(smartScopeSchema)
    .min(1, "must grant at least one scope")
    .max(100)
    .refine((scopes) => new Set(scopes).size === scopes.length, "must not repeat a scope"),
  enabled: z.boolean().default(true),
};

function oneKeySource(value: { jwksUrl: string | null; jwks: SmartJwks | null }, context: z.RefinementCtx): void {
  if ((value.jwksUrl === null) === (value.jwks === null)) {
    context.addIssue({
      code: "custom",
      path: ["jwksUrl"],
      message: "give either a JWKS URL or a pasted JWKS (exactly one)",
    });
  }
}

/** `POST clients/{id}/fhir-systems`: `systemClientId` absent → Vigil makes one. */
export const createSmartClientSchema = z
  .object({ systemClientId: smartClientIdSchema.optional(), ...smartClientContent })
  .superRefine(oneKeySource);
export type CreateSmartClient = z.input<typeof createSmartClientSchema>;

/** `PUT clients/{id}/fhir-systems/{systemId}`: the version the change was based on; the client id never changes. */
export const updateSmartClientSchema = z
  .object({ baseVersion: z.number().int().min(1), ...smartClientContent })
  .superRefine(oneKeySource);
export type UpdateSmartClient = z.input<typeof updateSmartClientSchema>;

export const smartClientSchema = z.object({
  id: idSchema,
  clientId: idSchema,
  systemClientId: z.string(),
  name: z.string(),
  jwksUrl: z.string().nullable(),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).nullable(),
  scopes: z.array(z.string()),
  enabled: z.boolean(),
  version: z.number().int().min(1),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
  updatedBy: authorSchema,
});
export type SmartClient = z.infer<typeof smartClientSchema>;

export const smartClientListSchema = z.object({ items: z.array(smartClientSchema) });
export type SmartClientList = z.infer<typeof smartClientListSchema>;

export const smartClientParamsSchema = z.object({ id: idSchema, systemId: idSchema });
