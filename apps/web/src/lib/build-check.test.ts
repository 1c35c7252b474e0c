import { describe, expect, it, vi } from "vitest";
import { bundledBuildId, checkForNewBuild, isBuildUpdatePending } from "./build-check";

function buildJson(buildId: string) {
  return vi.fn(async () => Response.json({ buildId, builtAt: "2026-11-22T00:00:00.000Z" }));
}

describe("build check", () => {
  it("compares /build.json with the bundled build id", async () => {
    expect(bundledBuildId).toBe("test-build");
    const same = buildJson("test-build");
    expect(await checkForNewBuild(same)).toBe(false);
    expect(same).toHaveBeenCalledWith("/build.json", expect.objectContaining({ cache: "no-store" }));
    expect(await checkForNewBuild(buildJson("next-build"))).toBe(true);
    expect(isBuildUpdatePending()).toBe(true);
  });

  it("ignores a missing or malformed build.json", async () => {
    expect(await checkForNewBuild(vi.fn(async () => new Response("not found", { status: 404 })))).toBe(false);
    expect(await checkForNewBuild(vi.fn(async () => Response.json({ version: 3 })))).toBe(false);
    expect(
      await checkForNewBuild(
        vi.fn(async () => {
          throw new TypeError("offline");
        }),
      ),
    ).toBe(false);
  });
});
