import { readFile, stat } from "node:fs/promises";
import { isoDateTimeSchema, unitTestSchema } from "@vigil/contract";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";

/**
 * The catalogue `scripts/test-catalogue.mjs` writes after each test run (`.test-results/test-catalogue.json`):
 * when it ran, what it tested and every test with its last result. Served read-only; never written here.
 */
export const testCatalogueFileSchema = z.object({
  ranAt: isoDateTimeSchema,
  revision: z.string().nullable(),
  tests: z.array(unitTestSchema),
});
export type TestCatalogue = z.infer<typeof testCatalogueFileSchema>;

export type TestCatalogueStore = {
  /** The catalogue as the file holds it now, or undefined when there is none (or it cannot be read). */
  read: () => Promise<TestCatalogue | undefined>;
};

type Loaded = { signature: string; catalogue: Promise<TestCatalogue | undefined> };

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Reads the catalogue file, parsed once per version of it: a run of thousands of tests is a large file, and the
 * screen pages through it, so each request only `stat`s it and re-reads when its modification time or size
 * changed. A missing file is normal (no test run here yet); an unreadable or malformed one is logged once.
 */
export function createTestCatalogueStore(file: string, log: FastifyBaseLogger): TestCatalogueStore {
  let loaded: Loaded | undefined;

  async function parse(): Promise<TestCatalogue | undefined> {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if (!isMissing(error)) log.warn({ err: error, file }, "The test catalogue cannot be read; serving none");
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      log.warn({ err: error, file }, "The test catalogue is not valid JSON; serving none");
      return undefined;
    }
    const parsed = testCatalogueFileSchema.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join(".")}: ${issue.message}`)
        .join("; ");
      log.warn({ file, issues }, "The test catalogue does not have the expected shape; serving none");
      return undefined;
    }
    return parsed.data;
  }

  return {
    read: async () => {
      let signature: string;
      try {
        const info = await stat(file);
        if (!info.isFile()) return undefined;
        signature = `${info.mtimeMs}:${info.size}`;
      } catch (error) {
        if (!isMissing(error)) log.warn({ err: error, file }, "The test catalogue cannot be read; serving none");
        loaded = undefined;
        return undefined;
      }
      // Concurrent requests for a new version share one parse.
      if (loaded?.signature !== signature) loaded = { signature, catalogue: parse() };
      return loaded.catalogue;
    },
  };
}
