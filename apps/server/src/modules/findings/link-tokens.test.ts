import { randomBytes, randomUUID } from "node:crypto";
import { findingLinkTokenSchema } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { linkExpiryOf, readLinkToken, signLinkToken } from "./link-tokens.js";

const secret = randomBytes(32);
const recipientId = randomUUID();
const expiresAt = linkExpiryOf(new Date("2026-03-01T10:00:00.750Z"), 24);

/** The token with one character of part `index` (0: id, 1: expiry, 2: signature) changed. */
function tampered(token: string, index: number): string {
  const parts = token.split(".");
  const part = parts[index] ?? "";
  const last = part.at(-1) === "a" ? "b" : "a";
  parts[index] = `${part.slice(0, -1)}${last}`;
  return parts.join(".");
}

describe("acknowledgement link tokens", () => {
  it("give back the recipient and the expiry they were signed with, and fit the contract's token field", () => {
    const token = signLinkToken(secret, { recipientId, expiresAt });
    expect(readLinkToken(secret, token)).toEqual({ recipientId, expiresAt });
    expect(findingLinkTokenSchema.safeParse(token).success).toBe(true);
    expect(token).toMatch(/^[0-9a-f]{32}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
  });

  it("expire on a whole second, the precision the token carries", () => {
    expect(expiresAt.toISOString()).toBe("2026-03-02T10:00:00.000Z");
    expect(linkExpiryOf(new Date("2026-03-01T10:00:00Z"), 0.5).toISOString()).toBe("2026-03-01T10:30:00.000Z");
  });

  it("are refused when any part was altered: the recipient, the expiry or the signature", () => {
    const token = signLinkToken(secret, { recipientId, expiresAt });
    for (const index of [0, 1, 2])
      expect(readLinkToken(secret, tampered(token, index)), `part ${index}`).toBeUndefined();
  });

  it("are refused when they carry another recipient's id with this one's signature", () => {
    const mine = signLinkToken(secret, { recipientId, expiresAt });
    const theirs = signLinkToken(secret, { recipientId: randomUUID(), expiresAt });
    const [, expiry, signature] = mine.split(".");
    const [otherId] = theirs.split(".");
    expect(readLinkToken(secret, `${otherId}.${expiry}.${signature}`)).toBeUndefined();
  });

  it("are refused when signed with another deployment's secret, or not a token at all", () => {
    const token = signLinkToken(secret, { recipientId, expiresAt });
    expect(readLinkToken(randomBytes(32), token)).toBeUndefined();
    for (const junk of ["", "abc", `${token}.x`, token.replace(".", ""), `${token}=`]) {
      expect(readLinkToken(secret, junk), junk).toBeUndefined();
    }
  });

  it("are read even once expired: the expiry is judged by its own answer, after the signature proved the link ours", () => {
    const past = linkExpiryOf(new Date("2020-01-01T00:00:00Z"), 1);
    const token = signLinkToken(secret, { recipientId, expiresAt: past });
    expect(readLinkToken(secret, token)?.expiresAt).toEqual(past);
  });
});
