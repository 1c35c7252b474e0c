import { z } from "zod";
import { errorBodySchema } from "./errors.js";

/** `enoch` is the server's release id; every JSON response carries it (PRODUCT.md §8). */
export const enochSchema = z.string().min(1);

const envelopes = new WeakMap<z.ZodType, z.ZodType>();

/**
 * The envelope around `data`, one object per data schema: zod schemas are immutable, and the server compiles each
 * response schema it meets once (apps/server/src/http/response-serializer.ts), so every caller gets the same one.
 */
export function successEnvelope<T extends z.ZodType>(data: T) {
  let envelope = envelopes.get(data);
  if (!envelope) {
    envelope = z.object({ enoch: enochSchema, data });
    envelopes.set(data, envelope);
  }
  return envelope as z.ZodObject<{ enoch: typeof enochSchema; data: T }>;
}

export const errorEnvelopeSchema = z.object({ enoch: enochSchema, error: errorBodySchema });
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** What the web client hands to screens: the spec's `{ success, data, error }`. */
export type ApiResult<T> =
  | { success: true; data: T; error: null }
  | { success: false; data: null; error: z.infer<typeof errorBodySchema> };

/** Paged lists: `limit` ≤ 200 and `{ items, total }` (PRODUCT.md §8). */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    limit: z.number().int(),
    offset: z.number().int(),
  });
}
