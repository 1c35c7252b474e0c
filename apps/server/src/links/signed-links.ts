import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * One-time links that are never stored: `<id as 32 hex>.<expiry, epoch seconds in base 36>.<HMAC-SHA256, base64url>`
 * over the first two parts, keyed with a server secret (`server_secrets`, the same on every instance). The sender can
 * rebuild a link from the row it names, and a forged or altered link fails here, before any lookup. Whether the link
 * was already used is the caller's row to keep (the id names it); this only proves the link is ours and unaltered.
 */

export type SignedLink = { id: string; expiresAt: Date };

const idPattern = /^[0-9a-f]{32}$/;

function signatureOf(secret: Buffer, payload: string): Buffer {
  return createHmac("sha256", secret).update(payload).digest();
}

/** The token for the row `id` (a uuid) that stops working at `expiresAt` (whole seconds). */
export function signLink(secret: Buffer, link: SignedLink): string {
  const id = link.id.replaceAll("-", "").toLowerCase();
  if (!idPattern.test(id)) throw new Error("A signed link names a uuid.");
  const payload = `${id}.${Math.floor(link.expiresAt.getTime() / 1000).toString(36)}`;
  return `${payload}.${signatureOf(secret, payload).toString("base64url")}`;
}

/**
 * The link a token names, when it is ours and unaltered (whether or not it has expired: the caller says "expired"
 * only to whoever holds a genuine link); undefined otherwise. The signature is compared in constant time.
 */
export function verifyLink(secret: Buffer, token: string): SignedLink | undefined {
  const match = /^([0-9a-f]{32})\.([0-9a-z]{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, id = "", expiry = "", signature = ""] = match;
  // Compared as text, not as decoded bytes: base64url's last character carries two spare bits, and a decoder that
  // ignores them would accept four spellings of one signature.
  const expected = Buffer.from(signatureOf(secret, `${id}.${expiry}`).toString("base64url"));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
  return { id: uuid, expiresAt: new Date(Number.parseInt(expiry, 36) * 1000) };
}
