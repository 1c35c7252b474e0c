import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, verificationCodes } from "../db/schema.js";
import { identityClient } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp({ RESET_CODE_REQUESTS_PER_HOUR: "3" });
});
afterAll(() => harness.close());

const otherCode = (code: string) => (code === "000000" ? "111111" : "000000");

describe("UpdateUserAttributes", () => {
  it("lets users change their name", async () => {
    const password = await harness.addUser("renamed", ["reviewer"]);
    const { accessToken } = await harness.signIn("renamed", password);
    const response = await harness.cognito("UpdateUserAttributes", {
      AccessToken: accessToken,
      UserAttributes: [{ Name: "name", Value: "  Renée Renamed " }],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({});
    const me = (await harness.cognito("GetUser", { AccessToken: accessToken })).json();
    expect(me.UserAttributes).toContainEqual({ Name: "name", Value: "Renée Renamed" });
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.update-attributes"), eq(auditEvents.actorUsername, "renamed")));
    expect(event?.details).toEqual({ attributes: ["name"] });
  });

  it("keeps email and phone number with administrators, and refuses unknown or fixed attributes", async () => {
    const password = await harness.addUser("fixed", ["reviewer"]);
    const { accessToken } = await harness.signIn("fixed", password);
    const update = (Name: string, Value: string) =>
      harness.cognito("UpdateUserAttributes", { AccessToken: accessToken, UserAttributes: [{ Name, Value }] });
    expect((await update("email", "thief@evil.example")).json().__type).toBe("InvalidParameterException");
    expect((await update("phone_number", "+15555550999")).json().__type).toBe("InvalidParameterException");
    expect((await update("email_verified", "true")).json().message).toBe(
      "Cannot modify the non-mutable attribute email_verified",
    );
    expect((await update("custom:shoe", "42")).json().message).toBe(
      "user.custom:shoe: Attribute does not exist in the schema.",
    );
    expect((await update("name", "")).json().__type).toBe("InvalidParameterException");
    // Sending the current email unchanged (as a profile form does) is fine.
    expect((await update("email", "fixed@vigil.test")).statusCode).toBe(200);
  });

  it("needs a valid access token", async () => {
    const response = await harness.cognito("UpdateUserAttributes", {
      AccessToken: "garbage",
      UserAttributes: [{ Name: "name", Value: "x" }],
    });
    expect(response.json()).toEqual({ __type: "NotAuthorizedException", message: "Invalid Access Token" });
  });
});

describe("attribute verification", () => {
  it("sends a code to the email and marks it verified with that code, once", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("verifier", ["reviewer"]);
    await client.setUser("verifier", { emailVerified: false });
    const { accessToken } = await harness.signIn("verifier", password);

    const sent = await harness.cognito("GetUserAttributeVerificationCode", {
      AccessToken: accessToken,
      AttributeName: "email",
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      CodeDeliveryDetails: { Destination: "v***r@vigil.test", DeliveryMedium: "EMAIL", AttributeName: "email" },
    });
    const code = await client.latestCode("verifier@vigil.test");
    const [row] = await harness.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.userSub, (await client.user("verifier")).sub));
    const lifetime = (row?.expiresAt.getTime() ?? 0) - (row?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 24 * 3_600_000)).toBeLessThan(5_000);

    const verify = (value: string) =>
      harness.cognito("VerifyUserAttribute", { AccessToken: accessToken, AttributeName: "email", Code: value });
    expect((await verify(otherCode(code))).json()).toEqual({
      __type: "CodeMismatchException",
      message: "Invalid verification code provided, please try again.",
    });
    expect((await verify(code)).json()).toEqual({});
    expect((await client.user("verifier")).emailVerified).toBe(true);
    expect((await verify(code)).json().__type).toBe("CodeMismatchException");
  });

  it("sends phone codes by SMS, and refuses when there is no phone number", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("phoner", ["reviewer"]);
    const { accessToken } = await harness.signIn("phoner", password);
    const ask = () =>
      harness.cognito("GetUserAttributeVerificationCode", { AccessToken: accessToken, AttributeName: "phone_number" });
    expect((await ask()).json().__type).toBe("InvalidParameterException");

    await client.setUser("phoner", { phoneNumber: "+15555550111", phoneNumberVerified: false });
    expect((await ask()).json()).toEqual({
      CodeDeliveryDetails: { Destination: "+*******0111", DeliveryMedium: "SMS", AttributeName: "phone_number" },
    });
    const verified = await harness.cognito("VerifyUserAttribute", {
      AccessToken: accessToken,
      AttributeName: "phone_number",
      Code: await client.latestCode("+15555550111"),
    });
    expect(verified.statusCode).toBe(200);
    expect((await client.user("phoner")).phoneNumberVerified).toBe(true);
  });

  it("says an expired code expired, and limits how many codes are sent per hour", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("expiry", ["reviewer"]);
    const { accessToken } = await harness.signIn("expiry", password);
    const ask = () =>
      harness.cognito("GetUserAttributeVerificationCode", { AccessToken: accessToken, AttributeName: "email" });
    await ask();
    const code = await client.latestCode("expiry@vigil.test");
    await harness.database.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verificationCodes.userSub, (await client.user("expiry")).sub));
    const late = await harness.cognito("VerifyUserAttribute", {
      AccessToken: accessToken,
      AttributeName: "email",
      Code: code,
    });
    expect(late.json().__type).toBe("ExpiredCodeException");
    await ask();
    await ask();
    expect((await ask()).json().__type).toBe("LimitExceededException");
  });

  it("verifies only email and phone_number", async () => {
    const password = await harness.addUser("oddattr", ["reviewer"]);
    const { accessToken } = await harness.signIn("oddattr", password);
    const response = await harness.cognito("GetUserAttributeVerificationCode", {
      AccessToken: accessToken,
      AttributeName: "name",
    });
    expect(response.json().__type).toBe("InvalidParameterException");
  });
});
