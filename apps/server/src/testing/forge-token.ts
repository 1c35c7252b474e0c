import { generateKeyPair, importJWK, type JWK, type JWTPayload, SignJWT } from "jose";
import type { Db } from "../db/client.js";
import { signingKeys } from "../db/schema.js";

/**
 * Signs arbitrary claims with the server's real active key (read from the database) or with a stranger's key,
 * to prove the API rejects tokens that are well-signed but wrong in some other way.
 */
export async function forgeToken(
  db: Db,
  claims: JWTPayload,
  options: { foreignKey?: boolean; kid?: string } = {},
): Promise<string> {
  const [row] = await db.select().from(signingKeys).limit(1);
  if (!row) throw new Error("no signing key");
  const key = options.foreignKey
    ? (await generateKeyPair("ES256")).privateKey
    : await importJWK(row.privateJwk as JWK, "ES256");
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: options.kid ?? row.kid }).sign(key);
}

export function decodeClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString("utf8"));
}

/** An unsigned token (`alg: none`) carrying the given claims. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${encode({ alg: "none", typ: "JWT" })}.${encode(claims)}.`;
}
