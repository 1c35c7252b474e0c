import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createCaseRequestSchema } from "./cases.js";
import { createUserRequestSchema } from "./users.js";

function messages(schema: z.ZodType, input: unknown): Record<string, string> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return {};
  // The first message of each field, as a form shows it.
  const found: Record<string, string> = {};
  for (const issue of parsed.error.issues) found[issue.path.join(".")] ??= issue.message;
  return found;
}

describe("the contract's wording", () => {
  it("words zod's built-in problems as fragments that follow the field's name", () => {
    expect(messages(createUserRequestSchema, { username: "x y", email: "nope", name: "N".repeat(201) })).toEqual({
      username: "may not contain spaces",
      email: "must be an email address",
      name: "must be at most 200 characters",
    });
    expect(messages(createUserRequestSchema, { username: "", email: "a@example.org", groups: ["wizard"] })).toEqual({
      username: "is required",
      name: "is required",
      "groups.0": "is not one of the allowed values",
    });
  });

  it("is zod's default for any schema once the contract is loaded, and a schema's own message still wins", () => {
    expect(messages(z.object({ seats: z.number().int().max(40) }), { seats: 41 })).toEqual({
      seats: "must be at most 40",
    });
    expect(messages(z.object({ seats: z.number() }), { seats: "many" })).toEqual({ seats: "must be a number" });
    expect(messages(z.strictObject({ a: z.string() }), { a: "x", b: 1 })).toEqual({ "": "may not include b" });
    expect(messages(z.string().min(3, "needs three letters"), "ab")).toEqual({ "": "needs three letters" });
    expect(messages(createCaseRequestSchema, {}).clientId).toBe("is required");
  });
});
