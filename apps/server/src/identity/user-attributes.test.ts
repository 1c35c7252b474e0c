import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, verificationCodes } from "../db/schema.js";
import { identityClient } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";

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

  it("refuses malformed addresses, unknown or fixed attributes, and an email another user has", async () => {
    const password = await harness.addUser("fixed", ["reviewer"]);
    await harness.addUser("taken", ["reviewer"]);
    const { accessToken } = await harness.signIn("fixed", password);
    const update = (Name: string, Value: string) =>
      harness.cognito("UpdateUserAttributes", { AccessToken: accessToken, UserAttributes: [{ Name, Value }] });
    expect((await update("email", "not an address")).json()).toEqual({
      __type: "InvalidParameterException",
      message: "Invalid email address format: email must be an address such as name@example.org.",
    });
    expect((await update("phone_number", "555-0100")).json()).toEqual({
      __type: "InvalidParameterException",
      message:
        "Invalid phone number format: phone_number must be in E.164 form, a + and up to 15 digits, e.g. +15555550100.",
    });
    expect((await update("email", "Taken@vigil.test")).json()).toEqual({
      __type: "AliasExistsException",
      message: "An account with the given email already exists.",
    });
    expect((await update("email_verified", "true")).json().message).toBe(
      "Cannot modify the non-mutable attribute email_verified",
    );
    expect((await update("custom:shoe", "42")).json().message).toBe(
      "user.custom:shoe: Attribute does not exist in the schema.",
    );
    expect((await update("name", "")).json().__type).toBe("InvalidParameterException");
    expect((await update("name", "Fixed\r\nBcc: x@example.org")).json()).toEqual({
      __type: "InvalidParameterException",
      message: "name must be a single line, without line breaks, tabs or other control characters.",
    });
    const client = identityClient(harness);
    expect(await client.user("fixed")).toMatchObject({ email: "fixed@vigil.test", emailVerified: true });
    // Sending the current email unchanged (as a profile form does) is no change: still verified, no code sent.
    const unchanged = await update("email", "fixed@vigil.test");
    expect(unchanged.json()).toEqual({});
    expect(await client.outboxCount("fixed@vigil.test")).toBe(0);
    expect((await client.user("fixed")).emailVerified).toBe(true);
  });

  it("stores a new email unverified, sends the code to it, tells the old address, and verifies with the code", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("mover", ["reviewer"]);
    const { accessToken } = await harness.signIn("mover", password);
    const response = await harness.cognito("UpdateUserAttributes", {
      AccessToken: accessToken,
      UserAttributes: [{ Name: "email", Value: "mover@new-clinic.example" }],
    });
    expect(response.json()).toEqual({
      CodeDeliveryDetailsList: [
        { Destination: "m***r@new-clinic.example", DeliveryMedium: "EMAIL", AttributeName: "email" },
      ],
    });
    expect(await client.user("mover")).toMatchObject({ email: "mover@new-clinic.example", emailVerified: false });
    const me = (await harness.cognito("GetUser", { AccessToken: accessToken })).json();
    expect(me.UserAttributes).toContainEqual({ Name: "email_verified", Value: "false" });
    const [notice] = await harness.app.messages.listOutbox({ recipient: "mover@vigil.test", limit: 1 });
    expect(notice?.subject).toBe("Your Vigil contact details were changed");
    expect(notice?.body).toContain("email address: now m***r@new-clinic.example");

    const code = await client.latestCode("mover@new-clinic.example");
    const verify = (value: string) =>
      harness.cognito("VerifyUserAttribute", { AccessToken: accessToken, AttributeName: "email", Code: value });
    expect((await verify(otherCode(code))).json().__type).toBe("CodeMismatchException");
    expect((await verify(code)).json()).toEqual({});
    expect((await client.user("mover")).emailVerified).toBe(true);
    const events = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorUsername, "mover"), eq(auditEvents.outcome, "success")));
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining(["auth.update-attributes", "auth.verify-attribute"]),
    );
    expect(events.find((event) => event.action === "auth.update-attributes")?.details).toEqual({
      attributes: ["email"],
      codesSentTo: ["m***r@new-clinic.example"],
    });
  });

  it("sends no password-reset code to an email that is not verified yet", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("unproven", ["reviewer"]);
    const { accessToken } = await harness.signIn("unproven", password);
    await harness.cognito("UpdateUserAttributes", {
      AccessToken: accessToken,
      UserAttributes: [{ Name: "email", Value: "unproven@elsewhere.example" }],
    });
    const before = await client.outboxCount("unproven@elsewhere.example");
    const forgot = await harness.cognito("ForgotPassword", { ClientId: testClientId, Username: "unproven" });
    expect(forgot.json()).toEqual({
      CodeDeliveryDetails: { Destination: "u***n@elsewhere.example", DeliveryMedium: "EMAIL", AttributeName: "email" },
    });
    expect(await client.outboxCount("unproven@elsewhere.example")).toBe(before);
    const [event] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.forgot-password"), eq(auditEvents.actorUsername, "unproven")));
    expect(event?.details).toMatchObject({ reason: "email not verified" });
  });

  it("stores a new phone number unverified: no SMS sign-in codes go there until it is verified", async () => {
    const client = identityClient(harness);
    const password = await harness.addUser("texter", ["reviewer"]);
    await client.setUser("texter", { phoneNumber: "+15555550170", phoneNumberVerified: true, smsMfaEnabled: true });
    const signIn = () => client.passwordAuth("texter", password);
    const first = (await signIn()).json();
    expect(first.ChallengeName).toBe("SMS_MFA");
    const { AuthenticationResult } = (
      await client.respond("SMS_MFA", first.Session, {
        USERNAME: "texter",
        SMS_MFA_CODE: await client.latestCode("+15555550170"),
      })
    ).json();
    const accessToken = AuthenticationResult.AccessToken as string;

    const response = await harness.cognito("UpdateUserAttributes", {
      AccessToken: accessToken,
      UserAttributes: [
        { Name: "phone_number", Value: "+15555550171" },
        { Name: "name", Value: "Tex Ter" },
      ],
    });
    expect(response.json()).toEqual({
      CodeDeliveryDetailsList: [{ Destination: "+*******0171", DeliveryMedium: "SMS", AttributeName: "phone_number" }],
    });
    expect(await client.user("texter")).toMatchObject({ phoneNumberVerified: false, smsMfaEnabled: true });
    // Suspended, not off: with MFA optional (the test default) the sign-in needs no SMS code meanwhile.
    const meanwhile = (await signIn()).json();
    expect(meanwhile.AuthenticationResult).toBeDefined();
    const settings = (await harness.cognito("GetUser", { AccessToken: accessToken })).json();
    expect(settings.UserMFASettingList).toBeUndefined();
    const turnOn = await harness.cognito("SetUserMFAPreference", {
      AccessToken: accessToken,
      SMSMfaSettings: { Enabled: true, PreferredMfa: true },
    });
    expect(turnOn.json().__type).toBe("InvalidParameterException");
    const [refusal] = await harness.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, "auth.mfa-preference"), eq(auditEvents.actorUsername, "texter")));
    expect(refusal).toMatchObject({ outcome: "failure", details: { reason: turnOn.json().message } });

    const verified = await harness.cognito("VerifyUserAttribute", {
      AccessToken: accessToken,
      AttributeName: "phone_number",
      Code: await client.latestCode("+15555550171"),
    });
    expect(verified.statusCode).toBe(200);
    const after = (await signIn()).json();
    expect(after.ChallengeName).toBe("SMS_MFA");
    expect(after.ChallengeParameters.CODE_DELIVERY_DESTINATION).toBe("+*******0171");
  });

  it("counts the codes it sends towards the hourly limit", async () => {
    const password = await harness.addUser("spammer", ["reviewer"]);
    const { accessToken } = await harness.signIn("spammer", password);
    const change = (n: number) =>
      harness.cognito("UpdateUserAttributes", {
        AccessToken: accessToken,
        UserAttributes: [{ Name: "email", Value: `victim${n}@elsewhere.example` }],
      });
    for (const n of [1, 2, 3]) expect((await change(n)).statusCode).toBe(200);
    expect((await change(4)).json().__type).toBe("LimitExceededException");
    expect((await identityClient(harness).user("spammer")).email).toBe("victim3@elsewhere.example");
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
