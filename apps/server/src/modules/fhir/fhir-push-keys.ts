import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose";
import type { Db } from "../../db/client.js";
import { vigilSigningKeys } from "../../db/schema.js";

/**
 * Vigil's own signing key for the assertions it sends to hospitals' token endpoints (SMART Backend Services,
 * `private_key_jwt`). One active ES384 key for every instance, kept in the database: the first instance to need it
 * makes it, the partial unique index lets exactly one insert win, and every instance then signs with the winner. The
 * private half is read only here, to sign; it is never answered, logged or put in an error. The public halves (the
 * active key and any retired one still kept) are published at `fhirPushJwksPath`.
 */

export const fhirPushJwksPath = "/fhir/.well-known/jwks.json";
export const pushAssertionAlgorithm = "ES384";

type KeyRow = typeof vigilSigningKeys.$inferSelect;

async function findActiveKey(db: Db): Promise<KeyRow | undefined> {
  const [row] = await db.select().from(vigilSigningKeys).where(eq(vigilSigningKeys.active, true)).limit(1);
  return row;
}

async function newKeyRow(): Promise<typeof vigilSigningKeys.$inferInsert> {
  const { publicKey, privateKey } = await generateKeyPair(pushAssertionAlgorithm, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg: pushAssertionAlgorithm,
    // biome-ignore lint/plugin/leading-spread-then-keys: kid, alg and use are JWK fields too: ours win
    publicJwk: { ...publicJwk, kid, alg: pushAssertionAlgorithm, use: "sig" },
    // biome-ignore lint/plugin/leading-spread-then-keys: as above
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: pushAssertionAlgorithm },
    active: true,
  };
}

/** The active key, made by whichever instance asks first (a loser of the race reads the winner's key). */
export async function loadSigningKey(db: Db): Promise<KeyRow> {
  const existing = await findActiveKey(db);
  if (existing) return existing;
  await db
    .insert(vigilSigningKeys)
    .values(await newKeyRow())
    .onConflictDoNothing();
  const row = await findActiveKey(db);
  if (!row) throw new Error("Vigil's signing key could not be stored.");
  return row;
}

/**
 * A new active key; the old one is retired but stays published, so an assertion it signed a moment ago still
 * verifies. `npm run fhir:rotate-key -w @vigil/server` runs it (`fhir-push-rotate-command.ts`).
 */
export async function rotateSigningKey(db: Db): Promise<string> {
  const row = await newKeyRow();
  await db.transaction(async (tx) => {
    await tx
      .update(vigilSigningKeys)
      .set({ active: false, retiredAt: new Date() })
      .where(eq(vigilSigningKeys.active, true));
    await tx.insert(vigilSigningKeys).values(row);
  });
  return row.kid as string;
}

/** The JWKS a hospital registers for Vigil: public halves only, the active key first. */
export async function publishedJwks(db: Db): Promise<{ keys: JWK[] }> {
  await loadSigningKey(db);
  const rows = await db.select().from(vigilSigningKeys);
  rows.sort((a, b) => Number(b.active) - Number(a.active) || b.createdAt.getTime() - a.createdAt.getTime());
  return { keys: rows.map((row) => row.publicJwk as JWK) };
}

/** RFC 7523 client assertion for `tokenUrl`, as `clientId`: five minutes at most, a fresh `jti` each time. */
export async function signPushAssertion(db: Db, clientId: string, tokenUrl: string): Promise<string> {
  const key = await loadSigningKey(db);
  const privateKey = await importJWK(key.privateJwk as JWK, key.alg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(tokenUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + 240)
    .setJti(randomUUID())
    .sign(privateKey);
}
