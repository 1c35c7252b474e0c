import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; below this size the headers cost more than the bytes saved. */
const compressible = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const minimumBytes = 1024;

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, once, at the best compression each format
 * has: the server (`@fastify/static` with `preCompressed`) then sends whichever the browser accepts without
 * compressing per request. On a slow hospital guest network the sign-in chunk is a quarter of its size.
 */
export function precompressPlugin(): Plugin {
  return {
    name: "vigil-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? "dist";
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          if (!compressible.test(output.fileName)) return;
          const source = output.type === "chunk" ? output.code : output.source;
          const bytes = Buffer.from(source);
          if (bytes.byteLength < minimumBytes) return;
          const file = path.join(outDir, output.fileName);
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
              },
            }),
            gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}
