import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "../../db/client.js";
import { loadServerSecret } from "../../identity/server-secrets-repository.js";

/*
 * A critical finding's acknowledgement link (PRODUCT.md §11): `<recipient id, 32 hex>.<expiry, epoch seconds in base
 * 36>.<HMAC-SHA256 over both, base64url>`, keyed with a secret every instance shares (`server_secrets`). It is never
 * stored: the sender rebuilds it from the recipient row, and a forged or altered link fails its signature before
 * anything is looked up. Single use and the finding's state are the recipient row's business, not the token's.
 */

const secretName = "finding-links";

/** The deployment's signing key for links, made by whichever instance asks first. */
export function loadLinkSecret(db: Db): Promise<Buffer> {
  return loadServerSecret(db, secretName);
}

export type LinkClaims = { recipientId: string; expiresAt: Date };

function signatureOf(secret: Buffer, payload: string): Buffer {
  return createHmac("sha256", secret).update(payload).digest();
}

/** Links expire on a whole second, the precision the token carries: store the recipient's expiry through this. */
export function linkExpiryOf(notifiedAt: Date, hours: number): Date {
  return new Date(Math.floor((notifiedAt.getTime() + hours * 3_600_000) / 1000) * 1000);
}

export function signLinkToken(secret: Buffer, claims: LinkClaims): string {
  const id = claims.recipientId.replace(/-/g, "").toLowerCase();
  const expiry = Math.floor(claims.expiresAt.getTime() / 1000).toString(36);
  const payload = `${id}.${expiry}`;
  return `${payload}.${signatureOf(secret, payload).toString("base64url")}`;
}

/**
 * The claims of a token signed with `secret`, or undefined for anything else (malformed, altered, signed with another
 * key). Expiry is not judged here: an expired link is refused with its own answer, after the signature proved it ours.
 */
export function readLinkToken(secret: Buffer, token: string): LinkClaims | undefined {
  const match = /^([0-9a-f]{32})\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return undefined;
  const [, id = "", expiry = "", signature = ""] = match;
  // Compared as text, not as decoded bytes: base64url's last character carries two spare bits, and a decoder that
  // ignores them would accept four spellings of one signature.
  const expected = Buffer.from(signatureOf(secret, `${id}.${expiry}`).toString("base64url"));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const recipientId = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
  return { recipientId, expiresAt: new Date(Number.parseInt(expiry, 36) * 1000) };
}
