import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { buildInfoPlugin, createBuildId } from "./build-info-plugin.ts";
import { precompressPlugin } from "./precompress-plugin.ts";

// The server (apps/server) serves the API, the identity service and the built app on one origin; in development
// Vite serves the app and forwards everything else there so cookies, CSP and URLs look the same.
const serverOrigin = process.env.VIGIL_SERVER_ORIGIN || "http://localhost:3000";
const proxied = ["/api", "/cognito", "/.well-known", "/build.json", "/oauth2"];

export default defineConfig(({ command }) => {
  const buildInfo = {
    buildId: command === "build" ? process.env.VIGIL_BUILD_ID || createBuildId() : "development",
    builtAt: new Date().toISOString(),
  };
  return {
    plugins: [react(), buildInfoPlugin(buildInfo), precompressPlugin()],
    define: {
      __BUILD_ID__: JSON.stringify(buildInfo.buildId),
    },
    server: {
      port: 5173,
      strictPort: true,
      proxy: Object.fromEntries(proxied.map((prefix) => [prefix, { target: serverOrigin, changeOrigin: false }])),
    },
    preview: { port: 5173 },
    build: {
      outDir: "dist",
      emptyOutDir: true,
      // Maps stay in dist/ for reading a stack trace, but are neither referenced from the bundle nor served: they
      // would publish the whole source.
      sourcemap: "hidden",
      // Amplify's sign-in UI is large; it only loads on /signin, so a bigger lazy chunk is expected there.
      chunkSizeWarningLimit: 900,
      rolldownOptions: {
        // The contract's modules only declare things (schemas, tables), but a bundler cannot know that a
        // top-level `z.object(…)` call has no side effect, so importing one schema through the package's index
        // kept every module of the contract, and all its schemas landed in the signed-in shell. Declared free of
        // side effects, each chunk keeps only the contract modules it uses.
        treeshake: { moduleSideEffects: [{ test: /packages[\\/]contract[\\/]src[\\/]/, sideEffects: false }] },
      },
    },
  };
});
