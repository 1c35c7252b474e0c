import { describe, expect, it } from "vitest";
import { ApiRequestError } from "../../lib/api-client";
import { testUser } from "../../test/fake-server";
import { currentUserOf } from "./server-errors";

const stale = (details: unknown) =>
  new ApiRequestError({ status: 412, code: "precondition_failed", message: "Changed meanwhile", details });

describe("the user a refused change brings back", () => {
  it("is the user as the server now holds them, from a 412's details", () => {
    const current = testUser({ groups: ["admin"], isEnabled: false });
    expect(currentUserOf(stale({ current }))).toEqual(current);
  });

  it("is none when the details hold no readable user, or the failure is not the server's answer", () => {
    expect(currentUserOf(stale({ current: { username: "alice" } }))).toBeUndefined();
    expect(currentUserOf(stale(undefined))).toBeUndefined();
    expect(currentUserOf(new Error("offline"))).toBeUndefined();
    expect(currentUserOf(null)).toBeUndefined();
  });
});
