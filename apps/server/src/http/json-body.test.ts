import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, caseIn, createClient, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { collectionOf } from "../testing/kits/records-kit.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

/**
 * Request bodies must be UTF-8: a malformed byte sequence is refused with a 400 naming the body, as NUL and lone
 * surrogates are, instead of being decoded to U+FFFD and stored in the patient's record as if the client had sent it.
 */
let harness: TestApp;
let team: Team;
let caseId: string;
let token: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "utf8");
  const client = await createClient(team.coordinator);
  caseId = (await caseIn(harness, team, client.id, "monitoring")).id;
  token = await harness.tokenFor("utf8-writer", ["technologist"]);
});
afterAll(() => harness.close());

/** `{"category":"handoff","body":"Left <bytes> side"}` with the given raw bytes inside the note's text. */
function noteWith(bytes: number[]): Buffer {
  return Buffer.concat([
    Buffer.from('{"category":"handoff","body":"Left '),
    Buffer.from(bytes),
    Buffer.from(' side"}'),
  ]);
}

function postNote(payload: Buffer, contentType = "application/json") {
  return harness.app.inject({
    method: "POST",
    url: `${base}${collectionOf("case-note", caseId)}`,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    payload,
  });
}

async function noteCount(): Promise<number> {
  const response = await team.technologist("GET", collectionOf("case-note", caseId));
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.items.length;
}

const malformed: Record<string, number[]> = {
  "a byte that never starts a character": [0xff],
  "a lead byte without its continuation": [0xc3, 0x28],
  "an over-long encoding of /": [0xc0, 0xaf],
  "an encoded surrogate (CESU-8)": [0xed, 0xa0, 0x80],
  "a character cut short": [0xe2, 0x82],
};

describe("a JSON body that is not UTF-8", () => {
  for (const [label, bytes] of Object.entries(malformed)) {
    it(`is refused with a 400 naming the body, and nothing is stored: ${label}`, async () => {
      const before = await noteCount();
      const response = await postNote(noteWith(bytes));
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.code).toBe("bad_request");
      expect(response.json().error.details.issues).toEqual([
        { path: "body", message: "must be valid UTF-8 text (it has a malformed byte sequence)" },
      ]);
      expect(await noteCount()).toBe(before);
    });
  }

  it("is refused whatever charset the content type claims: JSON is UTF-8", async () => {
    const response = await postNote(noteWith([0xe9]), "application/json; charset=iso-8859-1");
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("body");
  });

  it("stores well-formed text beyond ASCII exactly as sent", async () => {
    const text = "Left é 😀 Ωμέγα side";
    const response = await postNote(Buffer.from(JSON.stringify({ category: "handoff", body: text })));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.data.body).toBe(text);
  });

  it("still refuses a prototype-poisoning body, as Fastify's own parser did", async () => {
    const response = await postNote(Buffer.from('{"category":"handoff","body":"x","__proto__":{"admin":true}}'));
    expect(response.statusCode, response.body).toBe(400);
  });
});

describe("an identity request that is not UTF-8", () => {
  it("is refused with InvalidParameterException, not decoded to U+FFFD", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/cognito",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
      },
      payload: Buffer.concat([
        Buffer.from(
          `{"AuthFlow":"USER_PASSWORD_AUTH","ClientId":"${testClientId}","AuthParameters":{"USERNAME":"utf8-`,
        ),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('","PASSWORD":"irrelevant"}}'),
      ]),
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().__type).toBe("InvalidParameterException");
    expect(response.json().message).toMatch(/UTF-8/);
  });
});
