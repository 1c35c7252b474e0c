import { type CaseListItem, casePageSchema, chromeSchema, routes, successEnvelope } from "@vigil/contract";
import { InvalidSchemaError, ResponseSerializationError } from "fastify-type-provider-zod";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { responseSchemaProblems, serializeResponse } from "./response-serializer.js";

const compile = (schema: z.ZodType) => serializeResponse({ schema, method: "GET", url: "/api/test", httpPart: "body" });

const listItem: CaseListItem = {
  id: "6f1c1c1e-2f4a-4f7b-9d55-0d0b7f5c2a11",
  caseNumber: "C-2026-000123",
  clientId: "a3c9d7e2-5b1f-4c8e-8f6a-2d4b9e7c1f30",
  studyType: "icu-ceeg",
  hasVideo: true,
  priority: "stat",
  stage: "monitoring",
  createdAt: "2026-11-20T03:14:00.000Z",
  updatedAt: "2026-11-21T08:00:00.000Z",
  clientName: "St. Example",
  clientCode: "STX",
  clientTimezone: "America/Chicago",
  patientName: "O'Brien, Zoë",
  mrn: "MRN-1",
  technologists: [{ sub: null, username: "tech1", name: "Tech One" }],
  reviewer: null,
  acknowledgedAt: null,
  recordingStartedAt: "2026-11-20T04:00:00.000Z",
  recordingEndedAt: null,
  hasPendingTransition: false,
  version: 2,
};
const page = { items: [listItem], total: 1, limit: 50, offset: 0, totalIsEstimate: false };

describe("the response serializer", () => {
  it("writes what zod's encoding of the same answer writes", () => {
    const schema = successEnvelope(casePageSchema);
    const answer = { enoch: "r1", data: page };
    expect(compile(schema)(answer)).toBe(JSON.stringify(z.encode(schema, answer)));
  });

  it("leaves out what the response schema does not name, at every depth", () => {
    const schema = successEnvelope(casePageSchema);
    const leaky = {
      enoch: "r1",
      internal: "x",
      data: {
        ...page,
        sql: "select",
        items: [
          { ...listItem, passwordHash: "argon2…", technologists: [{ ...listItem.technologists[0], mfaSecret: "s" }] },
        ],
      },
    };
    const written = compile(schema)(leaky);
    expect(written).not.toMatch(/internal|sql|passwordHash|mfaSecret/);
    expect(JSON.parse(written)).toEqual({ enoch: "r1", data: page });
  });

  it("refuses an answer that breaks the contract instead of writing it", () => {
    const write = compile(successEnvelope(casePageSchema));
    const broken = { enoch: "r1", data: { ...page, items: [{ ...listItem, stage: "lost", createdAt: "yesterday" }] } };
    expect(() => write(broken)).toThrow(ResponseSerializationError);
  });

  it("keeps the hottest answers within what zod's generated parser compiles", () => {
    // z.compile falls back to the runtime parser without a word; strict makes that fallback an error here.
    for (const schema of [casePageSchema, chromeSchema]) {
      expect(() => z.compile(successEnvelope(schema), { strict: true })).not.toThrow();
    }
  });

  it("refuses at registration a response schema that is not zod's", () => {
    expect(() => serializeResponse({ schema: { type: "object" }, method: "GET", url: "/x", httpPart: "body" })).toThrow(
      InvalidSchemaError,
    );
  });
});

describe("response schemas parse as they encode", () => {
  it("holds for every route of the contract's table", () => {
    const problems = Object.entries(routes).flatMap(([name, route]) =>
      route.response ? responseSchemaProblems(route.response).map((problem) => `${name} ${problem}`) : [],
    );
    expect(problems).toEqual([]);
  });

  it("finds a transform or codec however deep it sits", () => {
    const stamp = z.codec(z.iso.datetime(), z.date(), {
      decode: (text) => new Date(text),
      encode: (date) => date.toISOString(),
    });
    const tree = z.object({
      items: z.array(z.object({ at: stamp.nullable() })),
      kind: z.union([z.literal("a"), z.string().transform((text) => text.length)]),
      nested: z.lazy(() => z.object({ when: z.string().pipe(z.string()) })),
    });
    expect(responseSchemaProblems(tree)).toEqual([
      "items.element.at.innerType: pipe",
      "kind.options[1]: pipe",
      "kind.options[1].out: transform",
      "nested.when: pipe",
    ]);
    expect(responseSchemaProblems(successEnvelope(casePageSchema))).toEqual([]);
  });
});
