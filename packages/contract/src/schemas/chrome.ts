import { z } from "zod";

export type MenuEntry = { title: string; url: string; icon?: string; children?: MenuEntry[] };

/** The deepest menu the chrome answers with: a section, its pages, and one level below them. */
export const menuDepth = 3;

/**
 * An entry whose children go `depth - 1` levels further down. At the last level children are refused rather than
 * stripped, so a menu grown deeper fails its response check instead of losing its entries without a word.
 */
function menuLevel(depth: number): z.ZodType<MenuEntry> {
  const entry = z.object({ title: z.string(), url: z.string(), icon: z.string().optional() });
  return entry.extend({ children: depth <= 1 ? z.undefined() : z.array(menuLevel(depth - 1)).optional() });
}

/**
 * Hypermedia menu (PRODUCT.md §7): `Home` is the homepage, `Unauthorized` carries the denial redirect. Spelled out
 * to `menuDepth` levels rather than as a recursive (lazy) schema, so the response check runs through zod's compiled
 * parser, which refuses recursion (apps/server/src/http/response-serializer.ts).
 */
export const menuEntrySchema: z.ZodType<MenuEntry> = menuLevel(menuDepth);

export const chromeSchema = z.object({ items: z.array(menuEntrySchema) });
export type Chrome = z.infer<typeof chromeSchema>;

export const breadcrumbsQuerySchema = z.object({
  path: z.string().min(1).max(512).startsWith("/", "path must start with /"),
});
export const breadcrumbSchema = z.object({ title: z.string(), url: z.string().nullable() });
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;
export const breadcrumbsSchema = z.object({ items: z.array(breadcrumbSchema) });
