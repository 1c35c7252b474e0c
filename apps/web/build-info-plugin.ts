import { randomBytes } from "node:crypto";
import type { Plugin } from "vite";

export type BuildInfo = { buildId: string; builtAt: string };

/** A build id that differs between any two builds: base-36 time plus a few random bytes. */
export function createBuildId(): string {
  return `${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`;
}

/**
 * Writes `dist/build.json` next to the bundle. The running app polls that file and compares its `buildId` with
 * the one compiled into its own bundle (`__BUILD_ID__`), so both must come from the same value.
 */
export function buildInfoPlugin(info: BuildInfo): Plugin {
  return {
    name: "vigil-build-info",
    apply: "build",
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "build.json", source: `${JSON.stringify(info, null, 2)}\n` });
    },
  };
}
