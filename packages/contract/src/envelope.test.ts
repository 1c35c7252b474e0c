import { describe, expect, it } from "vitest";
import { z } from "zod";
import { successEnvelope } from "./envelope.js";

describe("the success envelope", () => {
  it("is one schema per data schema, so the server compiles each response schema once", () => {
    const data = z.object({ id: z.string() });
    expect(successEnvelope(data)).toBe(successEnvelope(data));
    expect(successEnvelope(data)).not.toBe(successEnvelope(z.object({ id: z.string() })));
    expect(successEnvelope(data).parse({ enoch: "r1", data: { id: "a", extra: 1 } })).toEqual({
      enoch: "r1",
      data: { id: "a" },
    });
  });
});
