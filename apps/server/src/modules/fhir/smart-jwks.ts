import { smartJwksSchema } from "@vigil/contract";
import type { JSONWebKeySet } from "jose";
import type { Db } from "../../db/client.js";
import { type SmartClientRow, storeFetchedJwks } from "./smart-client-repository.js";

/**
 * The public keys a hospital system's assertions are checked against: the pasted JWKS, or the one at its URL. A
 * fetched JWKS is kept in PostgreSQL with its time (every instance sees the same keys) and fetched again when older
 * than `jwksCacheSeconds`, or when an assertion names a key it lacks and the copy is older than a minute (the
 * hospital rotated its keys). Whatever the URL serves is held to the registration's rules: public RS384/ES384 keys.
 */

export const jwksCacheSeconds = 600;
const refetchAfterSeconds = 60;
const maxJwksBytes = 65_536;

export class JwksUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "JwksUnavailableError";
  }
}

export type JwksFetcher = (url: string) => Promise<unknown>;

/** GET the URL (5 s, 64 KiB at most, no redirects to elsewhere followed silently) and parse its JSON. */
export const fetchJwksOverHttp: JwksFetcher = async (url) => {
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.timeout(5000),
      redirect: "error",
      headers: { accept: "application/json, application/jwk-set+json" },
    });
  } catch (error) {
    throw new JwksUnavailableError(`the JWKS URL could not be reached (${(error as Error).message})`);
  }
  if (!response.ok) throw new JwksUnavailableError(`the JWKS URL answered HTTP ${response.status}`);
  const text = await response.text();
  if (text.length > maxJwksBytes) throw new JwksUnavailableError("the JWKS at the URL is over 64 KiB");
  try {
    return JSON.parse(text);
  } catch {
    throw new JwksUnavailableError("the JWKS URL did not answer JSON");
  }
};

function fresh(row: SmartClientRow, now: Date, seconds: number): boolean {
  return row.fetchedAt !== null && now.getTime() - row.fetchedAt.getTime() < seconds * 1000;
}

export async function keysOfSystem(
  db: Db,
  row: SmartClientRow,
  now: Date,
  fetcher: JwksFetcher,
  options: { missingKey?: boolean } = {},
): Promise<JSONWebKeySet> {
  if (row.jwks) return row.jwks as unknown as JSONWebKeySet;
  const url = row.jwksUrl as string;
  const cached = row.fetchedJwks as unknown as JSONWebKeySet | null;
  const maxAge = options.missingKey ? refetchAfterSeconds : jwksCacheSeconds;
  if (cached && fresh(row, now, maxAge)) return cached;
  let fetched: unknown;
  try {
    fetched = await fetcher(url);
  } catch (error) {
    // A hospital's key server down for a moment does not stop a system whose keys were fetched before.
    if (cached && !options.missingKey) return cached;
    throw error instanceof JwksUnavailableError ? error : new JwksUnavailableError("the JWKS URL could not be read");
  }
  const parsed = smartJwksSchema.safeParse(fetched);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new JwksUnavailableError(
      `the JWKS at the URL is not a set of public RS384/ES384 keys (${issue?.path.join(".") ?? ""} ${issue?.message ?? ""})`,
    );
  }
  await storeFetchedJwks(db, row.id, parsed.data as { keys: Record<string, unknown>[] }, now);
  return parsed.data as unknown as JSONWebKeySet;
}
