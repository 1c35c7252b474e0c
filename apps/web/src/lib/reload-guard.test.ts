import { describe, expect, it, vi } from "vitest";
import { claimReload, currentRoutePath, pageReloader, reloadOnce } from "./reload-guard";

describe("reload guard", () => {
  it("allows one reload per path per 10 seconds", () => {
    const start = 1_000_000;
    expect(claimReload("/bugs", start)).toBe(true);
    expect(claimReload("/bugs", start + 9_999)).toBe(false);
    expect(claimReload("/users", start + 5_000)).toBe(true);
    expect(claimReload("/bugs", start + 10_000)).toBe(true);
    expect(claimReload("/bugs", start + 15_000)).toBe(false);
  });

  it("keeps the claim in sessionStorage keyed by path, so it survives the reload", () => {
    claimReload("/billing", 42_000);
    expect(window.sessionStorage.getItem("vigil:reload:/billing")).toBe("42000");
  });

  it("keeps a one-time link's token out of storage: its page's claim is stored under the page's pattern", () => {
    const token = "0123456789abcdef0123456789abcdef.tfa1bc.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWduYXR1cmUtc2ln";
    expect(claimReload(`/acknowledge/${token}`, 50_000)).toBe(true);
    expect(claimReload(`/acknowledge/${token}`, 55_000)).toBe(false);
    const stored = Object.keys(window.sessionStorage).filter((key) => key.startsWith("vigil:reload:"));
    expect(stored).toContain("vigil:reload:/acknowledge/:token");
    expect(stored.some((key) => key.includes(token))).toBe(false);
  });

  it("reloads the page once and then refuses for the same path", () => {
    const reload = vi.spyOn(pageReloader, "reload").mockImplementation(() => {});
    expect(reloadOnce("/reporting")).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
    // The page is going away; a second failure in the same page load does not reload twice.
    expect(reloadOnce("/reporting")).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("reads the route path from the URL hash", () => {
    window.location.hash = "#/continuous-monitoring/clients?status=active";
    expect(currentRoutePath()).toBe("/continuous-monitoring/clients");
    window.location.hash = "";
    expect(currentRoutePath()).toBe("/");
  });
});
