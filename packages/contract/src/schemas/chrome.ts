import { z } from "zod";

export type MenuEntry = { title: string; url: string; icon?: string; children?: MenuEntry[] };

/** Hypermedia menu (PRODUCT.md §7): `Home` is the homepage, `Unauthorized` carries the denial redirect. */
export const menuEntrySchema: z.ZodType<MenuEntry> = z.lazy(() =>
  z.object({
    title: z.string(),
    url: z.string(),
    icon: z.string().optional(),
    children: z.array(menuEntrySchema).optional(),
  }),
);

export const chromeSchema = z.object({ items: z.array(menuEntrySchema) });
export type Chrome = z.infer<typeof chromeSchema>;

export const breadcrumbsQuerySchema = z.object({
  path: z.string().min(1).max(512).startsWith("/", "path must start with /"),
});
export const breadcrumbSchema = z.object({ title: z.string(), url: z.string().nullable() });
export type Breadcrumb = z.infer<typeof breadcrumbSchema>;
export const breadcrumbsSchema = z.object({ items: z.array(breadcrumbSchema) });
