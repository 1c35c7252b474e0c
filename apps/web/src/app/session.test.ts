import { describe, expect, it } from "vitest";
import { chromeQueryKey } from "../features/chrome/api/get-chrome";
import { getApiErrors, pushApiError } from "../lib/api-errors";
import { createQueryClient } from "../lib/query-client";
import { authQueryKey, forgetPreviousUserOnChange } from "./session";

describe("the signed-in user's data", () => {
  it("is dropped when another user signs in in the same tab, and kept while the same user stays", () => {
    const queryClient = createQueryClient();
    const stop = forgetPreviousUserOnChange(queryClient);
    queryClient.setQueryData(authQueryKey, "alice");
    queryClient.setQueryData(chromeQueryKey("alice"), { items: [{ title: "Clients", url: "/clients" }] });
    queryClient.setQueryData(["cases", "list"], { items: ["alice's case"] });

    // The same user read again (a refresh, another tab signing in as them): nothing is lost.
    queryClient.setQueryData(authQueryKey, "alice");
    expect(queryClient.getQueryData(["cases", "list"])).toEqual({ items: ["alice's case"] });

    // The stored session was wiped outside the app (nobody), then bob signed in here.
    queryClient.setQueryData(authQueryKey, null);
    pushApiError({ status: 404, code: "not_found", message: "Case not found" }, { method: "GET", path: "/cases/1" });
    queryClient.setQueryData(authQueryKey, "bob");

    expect(queryClient.getQueryData(chromeQueryKey("alice"))).toBeUndefined();
    expect(queryClient.getQueryData(["cases", "list"])).toBeUndefined();
    expect(getApiErrors()).toEqual([]);
    expect(queryClient.getQueryData(authQueryKey)).toBe("bob");
    stop();
  });
});
