import { randomUUID } from "node:crypto";
import { isNull } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type Config, loadConfig } from "../config.js";
import type { Database } from "../db/client.js";
import { signingKeys } from "../db/schema.js";
import { openTestDatabase, testClientId } from "../testing/test-app.js";
import { TokenService, verifiedIdTokenCacheSize } from "./token-service.js";

/**
 * The verified ID tokens each instance remembers (token-service.ts): a remembered token is still refused once it
 * expires, once its key is no longer published, and a token that differs from a remembered one in any character is
 * verified afresh; the memory holds at most its bound. On PGlite and on PostgreSQL with DATABASE_URL.
 */
let database: Database;
let drop: () => Promise<void>;
let config: Config;

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  config = loadConfig({ ...process.env, LOG_LEVEL: "silent", SEED: "none", PUBLIC_URL: "http://vigil.test" });
});
afterAll(() => drop());
afterEach(() => {
  vi.useRealTimers();
});

const subject = {
  sub: randomUUID(),
  username: "cache-user",
  email: "cache-user@vigil.test",
  emailVerified: true,
  phoneNumber: null,
  phoneNumberVerified: false,
  name: "Cache User",
  groups: ["coordinator"],
};

async function idTokenFrom(tokens: TokenService): Promise<string> {
  const issued = await tokens.issue(subject, { originJti: randomUUID(), authTime: new Date() }, testClientId);
  return issued.idToken;
}

/** Only `Date` is faked: the database drivers keep their own timers. */
function setClock(epochMs: number): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(epochMs);
}

describe("the verified ID token cache", () => {
  it("answers a token it verified from memory until its exp, and refuses it from then on", async () => {
    const tokens = new TokenService(database.db, config);
    await tokens.ensureSigningKey();
    const token = await idTokenFrom(tokens);
    const first = await tokens.verifyIdToken(token);
    expect(tokens.verifiedIdTokenCount).toBe(1);
    // The very same (frozen) claims: no verification ran.
    expect(await tokens.verifyIdToken(token)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first["cognito:groups"])).toBe(true);

    const exp = first.exp as number;
    setClock(exp * 1000 - 1);
    expect(await tokens.verifyIdToken(token)).toBe(first);
    setClock(exp * 1000);
    await expect(tokens.verifyIdToken(token)).rejects.toMatchObject({
      code: "unauthorized",
      message: "The token has expired.",
    });
    expect(tokens.verifiedIdTokenCount).toBe(0);
    // Again, now through a fresh verification: the same answer.
    await expect(tokens.verifyIdToken(token)).rejects.toMatchObject({ message: "The token has expired." });
    expect(tokens.verifiedIdTokenCount).toBe(0);
  });

  it("refuses a token that shares a remembered token's header or header and claims but not the rest", async () => {
    const tokens = new TokenService(database.db, config);
    await tokens.ensureSigningKey();
    const token = await idTokenFrom(tokens);
    await tokens.verifyIdToken(token);
    const [header, payload, signature] = token.split(".") as [string, string, string];

    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const otherClaims = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString("base64url");
    // A character in the middle of the signature: every bit of it counts (the last one has spare bits).
    const middle = Math.floor(signature.length / 2);
    const otherSignature = `${signature.slice(0, middle)}${signature[middle] === "A" ? "B" : "A"}${signature.slice(middle + 1)}`;
    for (const tampered of [
      `${header}.${otherClaims}.${signature}`,
      `${header}.${payload}.${otherSignature}`,
      `${token}A`,
      token.slice(0, -1),
    ]) {
      await expect(tokens.verifyIdToken(tampered)).rejects.toMatchObject({
        code: "unauthorized",
        message: "The token is not valid.",
      });
    }
    expect(tokens.verifiedIdTokenCount).toBe(1);
    expect((await tokens.verifyIdToken(token)).sub).toBe(subject.sub);
  });

  it("refuses a remembered token once its key is no longer published, on the instance that rotated and on another", async () => {
    const rotating = new TokenService(database.db, config);
    const other = new TokenService(database.db, config);
    await rotating.ensureSigningKey();
    await other.ensureSigningKey();
    const oldToken = await idTokenFrom(rotating);
    await rotating.verifyIdToken(oldToken);
    await other.verifyIdToken(oldToken);
    expect(other.verifiedIdTokenCount).toBe(1);

    // The key is retired long enough ago that no live token can carry it: it leaves the JWKS and the keys verified
    // with. The rotating instance makes a new key and reloads at once.
    await database.db
      .update(signingKeys)
      .set({ retiredAt: new Date(Date.now() - 86_400_000) })
      .where(isNull(signingKeys.retiredAt));
    await rotating.ensureSigningKey();
    await expect(rotating.verifyIdToken(oldToken)).rejects.toMatchObject({
      code: "unauthorized",
      message: "The token is not valid.",
    });
    expect(rotating.verifiedIdTokenCount).toBe(0);

    // The other instance learns of the new key from a token signed with it (reloading at most once a second).
    const newToken = await idTokenFrom(rotating);
    setClock(Date.now() + 2000);
    expect((await other.verifyIdToken(newToken)).sub).toBe(subject.sub);
    await expect(other.verifyIdToken(oldToken)).rejects.toMatchObject({
      code: "unauthorized",
      message: "The token is not valid.",
    });
    expect(other.verifiedIdTokenCount).toBe(1);
  });

  it("never holds more than its bound, dropping the oldest first", async () => {
    expect(verifiedIdTokenCacheSize).toBe(10_000);
    const bound = 5;
    const tokens = new TokenService(database.db, config, { verifiedIdTokenCacheSize: bound });
    await tokens.ensureSigningKey();
    const issued: string[] = [];
    for (let index = 0; index < 3 * bound; index += 1) issued.push(await idTokenFrom(tokens));
    const answers = [];
    for (const token of issued) {
      answers.push(await tokens.verifyIdToken(token));
      expect(tokens.verifiedIdTokenCount).toBeLessThanOrEqual(bound);
    }
    expect(tokens.verifiedIdTokenCount).toBe(bound);
    // The newest are answered from memory, the first was forgotten and is verified again (a new claims object).
    expect(await tokens.verifyIdToken(issued.at(-1) as string)).toBe(answers.at(-1));
    const again = await tokens.verifyIdToken(issued[0] as string);
    expect(again).not.toBe(answers[0]);
    expect(again).toEqual(answers[0]);
    expect(tokens.verifiedIdTokenCount).toBe(bound);
  });

  it("does not remember tokens it refuses", async () => {
    const tokens = new TokenService(database.db, config);
    await tokens.ensureSigningKey();
    const issued = await tokens.issue(subject, { originJti: randomUUID(), authTime: new Date() }, testClientId);
    // An access token is genuine but not an ID token.
    await expect(tokens.verifyIdToken(issued.accessToken)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(tokens.verifyIdToken(issued.accessToken)).rejects.toMatchObject({ code: "unauthorized" });
    expect(tokens.verifiedIdTokenCount).toBe(0);
  });
});
