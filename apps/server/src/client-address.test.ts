import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvents } from "./db/schema.js";
import { createTestApp, testClientId } from "./testing/test-app.js";

/** The client address feeds the per-IP throttle and the audit log, so a caller must not be able to choose it. */
async function auditedAddress(env: Record<string, string>): Promise<string | null> {
  const harness = await createTestApp(env);
  try {
    await harness.app.inject({
      method: "POST",
      url: "/cognito",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": "AWSCognitoIdentityProviderService.InitiateAuth",
        "x-forwarded-for": "203.0.113.9",
      },
      payload: JSON.stringify({
        AuthFlow: "USER_PASSWORD_AUTH",
        ClientId: testClientId,
        AuthParameters: { USERNAME: "nobody", PASSWORD: "wrong-password" },
      }),
    });
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, "auth.sign-in"))
      .orderBy(desc(auditEvents.at))
      .limit(1);
    return event?.ip ?? null;
  } finally {
    await harness.close();
  }
}

describe("the client address", () => {
  it("ignores X-Forwarded-For by default", async () => {
    expect(await auditedAddress({})).toBe("127.0.0.1");
  });

  it("believes X-Forwarded-For from a trusted proxy", async () => {
    expect(await auditedAddress({ TRUST_PROXY: "127.0.0.1" })).toBe("203.0.113.9");
  });
});
