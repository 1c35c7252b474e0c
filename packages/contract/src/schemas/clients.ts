import { z } from "zod";
import { pageQuerySchema } from "../envelope.js";
import {
  authorSchema,
  emailSchema,
  idSchema,
  isoDateTimeSchema,
  phoneSchema,
  singleLineTextSchema,
  sortOrderSchema,
  timeZoneSchema,
  webUrlSchema,
} from "./common.js";

const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();
/** An address line, a city, a role: one line (see `singleLineTextSchema`). */
const optionalLine = (max: number) => singleLineTextSchema.max(max).nullable().optional();
const requiredLine = (max: number) => singleLineTextSchema.min(1, "is required").max(max);

export const clientStatusSchema = z.enum(["active", "inactive"]);

/**
 * The entity tag of a versioned client resource (client, contact, useful link) as the server sends it in
 * `ETag` and expects back in `If-Match`: the quoted version. A bare `3` is accepted in `If-Match` too.
 */
export function versionEtag(version: number): string {
  return `"${version}"`;
}

export const clientSchema = z.object({
  id: idSchema,
  name: z.string(),
  code: z.string(),
  status: clientStatusSchema,
  timezone: z.string(),
  phone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  country: z.string().nullable(),
  notes: z.string().nullable(),
  /** Set when archived (DELETE); archived clients are hidden from lists unless asked for. */
  archivedAt: isoDateTimeSchema.nullable(),
  openCaseCount: z.number().int().min(0),
  version: z.number().int().min(1),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type Client = z.infer<typeof clientSchema>;

/** The body of `POST clients` and `PUT clients/{id}`. */
export const clientInputSchema = z.object({
  name: requiredLine(200),
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9][A-Z0-9-]{1,15}$/, "must be 2–16 letters, digits or dashes"),
  status: clientStatusSchema.default("active"),
  timezone: timeZoneSchema,
  phone: phoneSchema.nullable().optional(),
  addressLine1: optionalLine(200),
  addressLine2: optionalLine(200),
  city: optionalLine(100),
  region: optionalLine(100),
  postalCode: optionalLine(20),
  country: optionalLine(100),
  notes: optionalText(5000),
});
export type ClientInput = z.input<typeof clientInputSchema>;

/**
 * `status`: `active` or `inactive` (never archived ones), `archived` (only archived clients), `all` (every
 * client that is not archived — archived clients are hidden unless asked for by name).
 */
export const clientListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(100).optional(),
  status: z.enum(["active", "inactive", "archived", "all"]).default("all"),
  sort: z.enum(["name", "code", "createdAt", "updatedAt"]).default("name"),
  order: sortOrderSchema.default("asc"),
});
export type ClientListQuery = z.input<typeof clientListQuerySchema>;

export const clientIdsSchema = z.array(z.object({ id: idSchema, name: z.string(), code: z.string() }));

export const contactSchema = z.object({
  _id: idSchema,
  clientId: idSchema,
  name: z.string(),
  role: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  isPrimary: z.boolean(),
  notifyOnCritical: z.boolean(),
  notes: z.string().nullable(),
  version: z.number().int().min(1),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type Contact = z.infer<typeof contactSchema>;

export const contactInputSchema = z
  .object({
    name: requiredLine(200),
    role: optionalLine(100),
    email: emailSchema.nullable().optional(),
    phone: phoneSchema.nullable().optional(),
    isPrimary: z.boolean().default(false),
    notifyOnCritical: z.boolean().default(false),
    notes: optionalText(2000),
  })
  .refine((contact) => !contact.notifyOnCritical || Boolean(contact.phone || contact.email), {
    message: "a contact notified of critical findings needs a phone number or an email address",
    path: ["notifyOnCritical"],
  });
export type ContactInput = z.input<typeof contactInputSchema>;

export const usefulLinkSchema = z.object({
  _id: idSchema,
  clientId: idSchema,
  title: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  version: z.number().int().min(1),
  createdAt: isoDateTimeSchema,
  updatedAt: isoDateTimeSchema,
});
export type UsefulLink = z.infer<typeof usefulLinkSchema>;

export const usefulLinkInputSchema = z.object({
  title: requiredLine(200),
  url: webUrlSchema,
  description: optionalText(1000),
});
export type UsefulLinkInput = z.input<typeof usefulLinkInputSchema>;

/** One field a referring facility fills in on the transfer form. */
export const transferFieldSchema = z.object({
  key: z
    .string()
    .trim()
    .regex(/^[a-z][a-zA-Z0-9]{0,49}$/, "must be a short camelCase key"),
  label: z.string().trim().min(1, "is required").max(200),
  type: z.enum(["text", "textarea", "date", "datetime", "phone", "checkbox", "select"]),
  required: z.boolean().default(false),
  options: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  help: z.string().trim().max(500).optional(),
});
export type TransferField = z.infer<typeof transferFieldSchema>;

export const transferFormContentSchema = z.object({
  title: z.string().trim().min(1).max(200).default("Transfer into continuous EEG monitoring"),
  instructions: z.string().trim().max(10_000).default(""),
  fields: z
    .array(transferFieldSchema)
    .max(100)
    .refine((fields) => new Set(fields.map((field) => field.key)).size === fields.length, "field keys must be unique"),
});

/** What a protocol revision says (PRODUCT.md §2). Thresholds follow DOMAIN.md §1.2 (10 kΩ default). */
export const protocolContentSchema = z.object({
  instructions: z.string().trim().max(20_000).default(""),
  impedanceThresholdKohm: z.number().positive().max(100).default(10),
  impedanceCheckIntervalHours: z.number().int().min(1).max(168).default(24),
  reviewTurnaroundHours: z.number().int().min(1).max(168).default(24),
  /** A STAT case must be taken by a reviewer (acknowledged) within this many minutes (PRODUCT.md §10). */
  statAcknowledgeMinutes: z
    .number()
    .int()
    .min(5, "must be at least 5 minutes")
    .max(1440, "must be at most 1440 minutes (24 hours)")
    .default(60),
  criticalNotification: z
    .object({
      notify: z.string().trim().max(500).default(""),
      withinMinutes: z.number().int().min(1).max(1440).default(30),
    })
    .default({ notify: "", withinMinutes: 30 }),
  /**
   * The client's contacts who receive each signed report and addendum: an e-mail with a one-time download link,
   * never the PDF itself. Revisions written before the setting name nobody (the column default).
   */
  reportRecipients: z
    .object({
      contactIds: z
        .array(idSchema)
        .max(20)
        .refine((ids) => new Set(ids).size === ids.length, "must not name a contact twice"),
    })
    .default({ contactIds: [] }),
  transferForm: transferFormContentSchema,
});
export type ProtocolContent = z.infer<typeof protocolContentSchema>;

export const protocolRevisionSchema = protocolContentSchema.extend({
  id: idSchema,
  clientId: idSchema,
  revision: z.number().int().min(1),
  changeNote: z.string().nullable(),
  author: authorSchema,
  createdAt: isoDateTimeSchema,
});
export type ProtocolRevision = z.infer<typeof protocolRevisionSchema>;

/** `GET clients/{id}/protocol`: the current revision and the whole append-only history, newest first. */
export const protocolSchema = z.object({
  clientId: idSchema,
  current: protocolRevisionSchema.nullable(),
  history: z.array(protocolRevisionSchema),
});

/** `POST clients/{id}/protocol/revisions`: names the revision it was based on (null for the first). */
export const createProtocolRevisionSchema = protocolContentSchema.extend({
  baseRevision: z.number().int().min(1).nullable(),
  changeNote: z.string().trim().max(1000).nullable().optional(),
});
export type CreateProtocolRevision = z.input<typeof createProtocolRevisionSchema>;

export const transferFormSchema = transferFormContentSchema.extend({
  clientId: idSchema,
  clientName: z.string(),
  revision: z.number().int().min(1),
  revisedAt: isoDateTimeSchema,
});

export const clientContactParamsSchema = z.object({ id: idSchema, contactId: idSchema });
export const contactParamsSchema = z.object({ contactId: idSchema });
export const clientLinkParamsSchema = z.object({ id: idSchema, linkId: idSchema });
