import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { repoRoot, resultsDir } from "./config.js";

/**
 * The web build's JavaScript per route, gzip-compressed (zlib level 6, what a server's gzip sends by default).
 *
 * Vite's manifest says which chunk each source module became and what it imports statically. The signed-in
 * shell's initial JavaScript is the entry chunk (index.html's module script) with everything it imports
 * statically, plus index.html's classic scripts; a route adds its screen's lazily loaded chunk and the static
 * imports of that chunk the shell does not already have. Routes come from app/router.tsx (`pageComponents`).
 *
 * apps/web/dist is used when it was built with a manifest; otherwise the app is built once more with
 * `vite build --manifest` into bench-results/web-build (apps/web/dist and vite.config.ts are left alone), and that
 * build is reused while it is newer than the web and contract sources.
 */

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

export type WebSizes = {
  buildDir: string;
  shell: { files: string[]; gzipBytes: number; rawBytes: number };
  /** Each shell file's gzip size. */
  shellSizes: Record<string, number>;
  routes: { page: string; module: string; files: string[]; gzipBytes: number; withShellGzipBytes: number }[];
};

const webRoot = path.join(repoRoot, "apps", "web");

function newestSource(): number {
  let newest = 0;
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  for (const dir of [
    path.join(webRoot, "src"),
    path.join(webRoot, "public"),
    path.join(repoRoot, "packages", "contract", "src"),
  ]) {
    if (existsSync(dir)) walk(dir);
  }
  for (const file of ["index.html", "vite.config.ts", "package.json"])
    newest = Math.max(newest, statSync(path.join(webRoot, file)).mtimeMs);
  return newest;
}

function buildWithManifest(log: (line: string) => void): string {
  const distManifest = path.join(webRoot, "dist", ".vite", "manifest.json");
  if (existsSync(distManifest)) return path.join(webRoot, "dist");
  const outDir = path.join(resultsDir, "web-build");
  const manifest = path.join(outDir, ".vite", "manifest.json");
  if (existsSync(manifest) && statSync(manifest).mtimeMs > newestSource()) return outDir;
  log(`building the web app with a manifest into ${path.relative(repoRoot, outDir)} (vite build --manifest)`);
  execFileSync(
    path.join(repoRoot, "node_modules", ".bin", "vite"),
    ["build", "--manifest", "--outDir", outDir, "--emptyOutDir"],
    {
      cwd: webRoot,
      env: { ...process.env, VIGIL_BUILD_ID: "bench" },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  return outDir;
}

/** `page-id: () => import("./routes/home")` in router.tsx → the page's module, as the manifest names it. */
function routeModules(): { page: string; module: string }[] {
  const router = readFileSync(path.join(webRoot, "src", "app", "router.tsx"), "utf8");
  const routes: { page: string; module: string }[] = [];
  for (const match of router.matchAll(/(?:"([\w-]+)"|([\w]+)):\s*\(\)\s*=>\s*import\("([^"]+)"\)/g)) {
    const page = (match[1] ?? match[2]) as string;
    const base = path.join(webRoot, "src", "app", match[3] as string);
    const file = [".tsx", ".ts", "/index.tsx", "/index.ts"]
      .map((ext) => base + ext)
      .find((candidate) => existsSync(candidate));
    if (file) routes.push({ page, module: path.relative(webRoot, file).split(path.sep).join("/") });
  }
  return routes;
}

export function measureWebSizes(log: (line: string) => void = console.log): WebSizes {
  const buildDir = buildWithManifest(log);
  const manifest = JSON.parse(readFileSync(path.join(buildDir, ".vite", "manifest.json"), "utf8")) as Manifest;
  const gzipCache = new Map<string, { gzip: number; raw: number }>();
  const sizeOf = (file: string) => {
    let size = gzipCache.get(file);
    if (!size) {
      const content = readFileSync(path.join(buildDir, file));
      size = { gzip: gzipSync(content, { level: 6 }).length, raw: content.length };
      gzipCache.set(file, size);
    }
    return size;
  };
  /** A chunk's file and every file it imports statically, transitively. */
  const closure = (key: string, into = new Set<string>()): Set<string> => {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) return into;
    into.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, into);
    return into;
  };

  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error("The web build's manifest has no entry chunk.");
  const shellFiles = closure(entryKey);
  // index.html's classic scripts (public/) load before the bundle: part of the first load too.
  const html = readFileSync(path.join(buildDir, "index.html"), "utf8");
  for (const match of html.matchAll(/<script(?![^>]*type="module")[^>]*\ssrc="\/([^"]+\.js)"/g))
    shellFiles.add(match[1] as string);
  const total = (files: Iterable<string>) => {
    let gzip = 0;
    let raw = 0;
    for (const file of files) {
      const size = sizeOf(file);
      gzip += size.gzip;
      raw += size.raw;
    }
    return { gzip, raw };
  };
  const shellSize = total(shellFiles);

  const routes = routeModules().map(({ page, module }) => {
    const own = [...closure(module)].filter((file) => !shellFiles.has(file));
    const size = total(own);
    return { page, module, files: own, gzipBytes: size.gzip, withShellGzipBytes: size.gzip + shellSize.gzip };
  });
  return {
    buildDir: path.relative(repoRoot, buildDir),
    shell: { files: [...shellFiles], gzipBytes: shellSize.gzip, rawBytes: shellSize.raw },
    shellSizes: Object.fromEntries([...shellFiles].map((file) => [file, sizeOf(file).gzip])),
    routes,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = measureWebSizes();
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`shell: ${kb(sizes.shell.gzipBytes)} KB gzip (${sizes.shell.files.length} files)`);
  for (const route of sizes.routes) console.log(`${route.page.padEnd(24)} +${kb(route.gzipBytes)} KB`);
}
