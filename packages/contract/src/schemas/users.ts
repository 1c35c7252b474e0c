import { z } from "zod";
import { accessGroupSchema } from "../access.js";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { emailSchema, isoDateTimeSchema, phoneSchema, singleLineTextSchema, sortOrderSchema } from "./common.js";

export const usernameSchema = z
  .string()
  .trim()
  .min(1, { message: "is required", abort: true })
  .max(128)
  .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u, "may not contain spaces");

export const userStatusSchema = z.enum(["FORCE_CHANGE_PASSWORD", "CONFIRMED", "RESET_REQUIRED"]);
export type UserStatus = z.infer<typeof userStatusSchema>;

export const mfaTypeSchema = z.enum(["SMS_MFA", "SOFTWARE_TOKEN_MFA"]);

/** Which second factors a user has set up, and the one they prefer (null: asked to choose when both are on). */
export const userMfaSchema = z.object({
  sms: z.boolean(),
  totp: z.boolean(),
  preferred: mfaTypeSchema.nullable(),
});
export type UserMfa = z.infer<typeof userMfaSchema>;

/**
 * A US National Provider Identifier: ten digits, the last a Luhn check digit computed over the nine before it
 * prefixed with 80840 (the card issuer prefix CMS assigned; CMS, "Requirements for NPI check digit").
 */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    const digit = Number(digits[digits.length - 1 - index]);
    const weighted = index % 2 === 1 ? digit * 2 : digit;
    sum += weighted > 9 ? weighted - 9 : weighted;
  }
  return sum % 10 === 0;
}

export const npiSchema = z
  .string()
  .trim()
  .regex(/^\d{10}$/, { message: "must be 10 digits (a US NPI)", abort: true })
  .refine(isValidNpi, "is not a valid NPI: its last digit does not match the check digit of the nine before it");

/**
 * Who a user is professionally, for what they sign (REPORTS.md, FHIR.md "Identifiers"): the name as parts (US Core
 * Practitioner wants a family name; `name` stays the display name every screen shows), the NPI, the credentials
 * printed after the name under a signature ("MD", "PhD"), and board certifications. Empty until someone fills it in.
 */
export const userProfessionalSchema = z.object({
  familyName: z.string().nullable(),
  givenNames: z.array(z.string()),
  npi: z.string().nullable(),
  credentials: z.string().nullable(),
  boardCertifications: z.array(z.string()),
});
export type UserProfessional = z.infer<typeof userProfessionalSchema>;

/** `PUT /users/{username}/professional`: the whole set at once; `null` or an empty list clears a field. */
export const userProfessionalRequestSchema = z.object({
  familyName: singleLineTextSchema.min(1, "is required").max(100).nullable(),
  givenNames: z.array(singleLineTextSchema.min(1, "is required").max(100)).max(5),
  npi: npiSchema.nullable(),
  credentials: singleLineTextSchema.min(1, "is required").max(60).nullable(),
  boardCertifications: z.array(singleLineTextSchema.min(1, "is required").max(200)).max(20),
});
export type UserProfessionalRequest = z.input<typeof userProfessionalRequestSchema>;

export const userSchema = z.object({
  username: z.string(),
  sub: z.uuid(),
  email: z.string(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberVerified: z.boolean(),
  name: z.string(),
  isEnabled: z.boolean(),
  status: userStatusSchema,
  groups: z.array(accessGroupSchema),
  mfa: userMfaSchema,
  professional: userProfessionalSchema,
  createdAt: z.iso.datetime(),
  /** Changes with every write: the user's version for `ETag` / `If-Match` (see `userEtag`). */
  updatedAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

/**
 * The entity tag of a user as the server sends it in `ETag` and expects back in `If-Match`. Users have no
 * version column; `updatedAt` changes with every write, so it serves as the version.
 */
export function userEtag(user: Pick<User, "updatedAt">): string {
  return `"${user.updatedAt}"`;
}

export const usernameParamsSchema = z.object({ username: usernameSchema });

export const userSortFields = ["username", "name", "email", "status", "createdAt", "updatedAt"] as const;
export const userSortSchema = z.enum(userSortFields);
export type UserSort = z.infer<typeof userSortSchema>;

/** `GET /users`: server-paged, searched over username, name and email, filtered by group and enabled. */
export const userListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(200).optional(),
  group: accessGroupSchema.optional(),
  enabled: z.stringbool().optional(),
  sort: userSortSchema.default("username"),
  order: sortOrderSchema.default("asc"),
});
export type UserListQuery = z.output<typeof userListQuerySchema>;

export const userPageSchema = pageOf(userSchema);
export type UserPage = z.infer<typeof userPageSchema>;

/** `POST /users`: the administrator supplies who; the server makes a temporary password and emails it. */
export const createUserRequestSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  name: singleLineTextSchema.min(1, "is required").max(200),
  phoneNumber: phoneSchema.optional(),
  groups: z.array(accessGroupSchema).max(20).default([]),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

/** Where a message to the user went: the masked address (spec §9) and the transport (`smtp`, `outbox`…). */
export const messageDeliverySchema = z.object({
  channel: z.enum(["email", "sms"]),
  destination: z.string(),
  transport: z.string(),
});
export type MessageDelivery = z.infer<typeof messageDeliverySchema>;

export const createdUserSchema = z.object({ user: userSchema, delivery: messageDeliverySchema });
export type CreatedUser = z.infer<typeof createdUserSchema>;

/**
 * `POST /users/{username}/reset-password`: a confirmed user must reset at next sign-in (RESET_REQUIRED); a user
 * who never signed in gets a new temporary password by email instead (`delivery` says where it went).
 */
export const passwordResetSchema = z.object({ user: userSchema, delivery: messageDeliverySchema.nullable() });
export type PasswordReset = z.infer<typeof passwordResetSchema>;

export const accessGroupsRequestSchema = z.object({ groups: z.array(accessGroupSchema).max(20) });
export type AccessGroupsRequest = z.infer<typeof accessGroupsRequestSchema>;

export const toggleUserRequestSchema = z.object({ isEnabled: z.boolean() });
export type ToggleUserRequest = z.infer<typeof toggleUserRequestSchema>;

export const setSmsMfaRequestSchema = z.object({ enabled: z.boolean() });

/**
 * `PUT /users/{username}/contact`: the administrator sets the email address and phone number (`null` removes the
 * phone number, and with it SMS MFA). A value that changes is stored unverified (`emailVerified` /
 * `phoneNumberVerified` false) until the user confirms the code sent to it from their account; an unchanged value
 * keeps its state. An email another user has is a 409 on `body.email`.
 */
export const userContactRequestSchema = z.object({
  email: emailSchema,
  phoneNumber: phoneSchema.nullable(),
});
export type UserContactRequest = z.infer<typeof userContactRequestSchema>;

/** Pickers (assign a technologist to a case): enabled members of the technologist group. */
export const technologistSchema = z.object({ id: z.uuid(), username: z.string(), name: z.string() });
export type Technologist = z.infer<typeof technologistSchema>;
export const technologistListQuerySchema = pageQuerySchema.extend({
  limit: z.coerce.number().int().min(1).max(200).default(200),
  search: z.string().trim().max(200).optional(),
});
export const technologistPageSchema = pageOf(technologistSchema);

/** Messages kept in the outbox when no transport is configured (development): readable by administrators. */
export const outboxQuerySchema = z.object({
  to: z.string().trim().min(1).max(254).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
});
export const outboxMessageSchema = z.object({
  id: z.uuid(),
  channel: z.enum(["email", "sms"]),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: isoDateTimeSchema,
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
export const outboxSchema = z.object({ items: z.array(outboxMessageSchema) });
