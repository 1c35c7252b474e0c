import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signLink, verifyLink } from "./signed-links.js";

const secret = randomBytes(32);

describe("signed one-time links", () => {
  it("gives back the row and expiry a genuine token names", () => {
    const id = randomUUID();
    const expiresAt = new Date("2026-11-26T10:00:00Z");
    const token = signLink(secret, { id, expiresAt });
    expect(token).toMatch(/^[0-9a-f]{32}\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyLink(secret, token)).toEqual({ id, expiresAt });
  });

  it("refuses a token whose id, expiry or signature was altered, or that another secret signed", () => {
    const token = signLink(secret, { id: randomUUID(), expiresAt: new Date("2026-11-26T10:00:00Z") });
    const [id = "", expiry = "", signature = ""] = token.split(".");
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith("0") ? "1" : "0"}`;
    expect(verifyLink(secret, `${flip(id)}.${expiry}.${signature}`)).toBeUndefined();
    expect(
      verifyLink(secret, `${id}.${(Number.parseInt(expiry, 36) + 3600).toString(36)}.${signature}`),
    ).toBeUndefined();
    expect(verifyLink(secret, `${id}.${expiry}.${flip(signature)}`)).toBeUndefined();
    expect(verifyLink(randomBytes(32), token)).toBeUndefined();
  });

  it("refuses what is not a token at all without throwing", () => {
    for (const junk of ["", "a.b.c", "x".repeat(200), `${"a".repeat(32)}.zz.`, `${"a".repeat(32)}.1.AAAA.extra`]) {
      expect(verifyLink(secret, junk)).toBeUndefined();
    }
  });
});
