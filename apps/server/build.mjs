import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

/**
 * `npm run build -w @vigil/server` (run by `npm start` and the bench): bundles src/server.ts into dist/server.js,
 * which `npm start` runs with plain node. Running the sources through tsx compiled every TypeScript file at start,
 * in the process and in tsx's loader thread with its own V8 heap: ~80 MB more resident memory than the bundle.
 * The bundle holds our code and the contract's (a workspace package whose entry is TypeScript); every package from
 * node_modules stays an import that node resolves as before. The CLI scripts (db:migrate, users, …) stay on tsx.
 *
 * Files read at run time are found relative to their source (the SQL migrations in src/db/migrations, the web
 * build, the test catalogue), so each module's `import.meta.url` is replaced by its own source file's URL, computed
 * from the bundle's location: nothing is copied into dist/, and dist/ must stay beside src/.
 *
 * dist/server.js.map maps the bundle back to the sources; node uses it with `NODE_OPTIONS=--enable-source-maps`
 * (not on by default: ~13 MB more resident memory; the bundle is not minified, so its stack traces stay readable).
 * The start script's heap flags are explained in docs/operations.md ("Running in production").
 */

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(serverDir, "dist", "server.js");

/** Bare imports (packages, node: builtins) stay external, except our own workspace packages. */
const externalPackages = {
  name: "external-packages",
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@vigil/") ? undefined : { path: args.path, external: true },
    );
  },
};

/** Each bundled module's `import.meta.url` as it was for its source file; other `import.meta` fields are refused. */
const sourceLocations = {
  name: "source-locations",
  setup(context) {
    context.onLoad({ filter: /\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const other = /import\.meta\.(?!url\b)\w+/.exec(source);
      if (other) throw new Error(`${other[0]} is not rewritten for the bundle: use import.meta.url`);
      const fromBundle = path.relative(path.dirname(outfile), args.path).split(path.sep).join("/");
      const contents = source.replaceAll(
        "import.meta.url",
        `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
      );
      return { contents, loader: "ts" };
    });
  },
};

const result = await build({
  // Paths in the bundle's comments and its source map are relative to this folder, wherever the build is run from.
  absWorkingDir: serverDir,
  entryPoints: [path.join(serverDir, "src", "server.ts")],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  plugins: [externalPackages, sourceLocations],
  logLevel: "warning",
  metafile: true,
});
const kb = Math.round((result.metafile.outputs["dist/server.js"]?.bytes ?? 0) / 1024);
console.log(`Built apps/server/dist/server.js (${kb} KB)`);
