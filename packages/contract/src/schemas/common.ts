import { z } from "zod";

/** Shared field rules, so every form and route words the same problem the same way. */
export const idSchema = z.uuid("must be a valid id");
export const idParamsSchema = z.object({ id: idSchema });

export const isoDateTimeSchema = z.iso.datetime({ offset: true });

/** E.164: a plus, the country code and the number, no spaces (PRODUCT.md; spec §5 strips other characters). */
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+[1-9]\d{6,14}$/, "must be a phone number in international form, e.g. +15555550100");

export const emailSchema = z.email("must be an email address").max(254);

/** Only http(s): a `javascript:` or `data:` link in a clinical tool is an attack, not a link. */
export const webUrlSchema = z
  .url({ protocol: /^https?$/, message: "must be a web address starting with http:// or https://" })
  .max(2048);

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return value.includes("/") || value === "UTC";
  } catch {
    return false;
  }
}

/** IANA zone names (America/Chicago); billing months and reports are cut in it. */
export const timeZoneSchema = z.string().trim().refine(isTimeZone, "must be an IANA time zone such as America/Chicago");

export const sortOrderSchema = z.enum(["asc", "desc"]);

/** `If-Match` carries the version the client last read; PUT/PATCH without it get 428, with a stale one 412. */
// Loose: the other headers (authorization, user-agent) must survive validation untouched.
export const ifMatchHeadersSchema = z.looseObject({ "if-match": z.string().optional() });

/** Who wrote a revision or made a change, as shown beside it. */
export const authorSchema = z.object({ sub: z.string().nullable(), username: z.string(), name: z.string().nullable() });
export type Author = z.infer<typeof authorSchema>;
