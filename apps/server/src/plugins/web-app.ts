import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { type BuildInfo, buildInfoSchema } from "@vigil/contract";
import type { FastifyInstance } from "fastify";

export function readBuildInfo(distDir: string): BuildInfo | undefined {
  const file = path.join(distDir, "build.json");
  if (!existsSync(file)) return undefined;
  const parsed = buildInfoSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  return parsed.success ? parsed.data : undefined;
}

/**
 * Serves the built web app at `/`. Hashed assets are cached for a year; `index.html` and `build.json` are
 * never cached, so a new release is noticed by the build-update check. Routing is hash-based, so no
 * history fallback is needed: unknown paths are 404s. Text files go out as the brotli or gzip copy the build wrote
 * beside them (`precompress-plugin.ts`), whichever the browser accepts; source maps are never served.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  if (!existsSync(path.join(distDir, "index.html"))) {
    app.get("/", { config: { routeName: "web-missing", access: "public" } }, async (_request, reply) =>
      reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The web app is not built. Run `npm run build -w @vigil/web` (npm start does this for you)."),
    );
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: "/",
    index: ["index.html"],
    wildcard: true,
    maxAge: 0,
    preCompressed: true,
    allowedPath: (pathName) => !pathName.endsWith(".map"),
    setHeaders: (response, filePath) => {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      response.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "no-cache");
    },
  });
}
