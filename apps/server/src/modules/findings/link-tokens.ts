import type { Db } from "../../db/client.js";
import { loadServerSecret } from "../../identity/server-secrets-repository.js";
import { signLink, verifyLink } from "../../links/signed-links.js";

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

/** Links expire on a whole second, the precision the token carries: store the recipient's expiry through this. */
export function linkExpiryOf(notifiedAt: Date, hours: number): Date {
  return new Date(Math.floor((notifiedAt.getTime() + hours * 3_600_000) / 1000) * 1000);
}

/** The recipient's link: the shared signed one-time link (src/links) over the recipient row's id. */
export function signLinkToken(secret: Buffer, claims: LinkClaims): string {
  return signLink(secret, { id: claims.recipientId, expiresAt: claims.expiresAt });
}

/**
 * The claims of a token signed with `secret`, or undefined for anything else (malformed, altered, signed with another
 * key). Expiry is not judged here: an expired link is refused with its own answer, after the signature proved it ours.
 */
export function readLinkToken(secret: Buffer, token: string): LinkClaims | undefined {
  const link = verifyLink(secret, token);
  return link && { recipientId: link.id, expiresAt: link.expiresAt };
}
