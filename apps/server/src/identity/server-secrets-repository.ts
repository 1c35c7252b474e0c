import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { serverSecrets } from "../db/schema.js";

/**
 * The secret of this name, made (32 random bytes) by whichever instance asks first: every instance and every restart
 * then reads the same one.
 */
export async function loadServerSecret(db: Db, name: string): Promise<Buffer> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name)).limit(1);
  if (!row) throw new Error(`The server secret ${name} could not be stored.`);
  return Buffer.from(row.value, "base64url");
}

const cached = new WeakMap<Db, Map<string, Promise<Buffer>>>();

/** `loadServerSecret`, read once per database; a failed load (the database was briefly away) is not remembered. */
export function cachedServerSecret(db: Db, name: string): Promise<Buffer> {
  let secrets = cached.get(db);
  if (!secrets) {
    secrets = new Map();
    cached.set(db, secrets);
  }
  let secret = secrets.get(name);
  if (!secret) {
    secret = loadServerSecret(db, name);
    secrets.set(name, secret);
    secret.catch(() => secrets.delete(name));
  }
  return secret;
}
