import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { loadSigningKey, rotateSigningKey } from "./fhir-push-keys.js";

let harness: TestApp;
beforeAll(async () => {
  harness = await createTestApp();
}, 60_000);
afterAll(() => harness.close());

describe("Vigil's push signing key", () => {
  it("rotates to a new active key while the retired one stays published, so fresh assertions still verify", async () => {
    const before = await loadSigningKey(harness.database.db);
    const kid = await rotateSigningKey(harness.database.db);
    expect(kid).not.toBe(before.kid);
    expect((await loadSigningKey(harness.database.db)).kid).toBe(kid);
    const published = await harness.app.inject({ method: "GET", url: "/fhir/.well-known/jwks.json" });
    expect(published.statusCode).toBe(200);
    const keys = (published.json() as { keys: { kid: string; d?: string }[] }).keys;
    expect(keys.map((key) => key.kid)).toEqual([kid, before.kid]);
    expect(keys.filter((key) => "d" in key)).toEqual([]);
  });
});
