import { hash as digest, randomBytes, randomUUID } from "node:crypto";
import {
  type CryptoKey,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  errors as joseErrors,
  jwtVerify,
  SignJWT,
} from "jose";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { AppError } from "../errors/app-error.js";
import {
  findActiveSigningKey,
  insertSigningKey,
  listPublishedSigningKeys,
  lockSigningKeys,
  retireSigningKeys,
  type SigningKeyRow,
} from "./signing-keys-repository.js";

const algorithm = "ES256";

export type TokenSubject = {
  sub: string;
  username: string;
  email: string;
  emailVerified: boolean;
  phoneNumber: string | null;
  phoneNumberVerified: boolean;
  name: string;
  groups: string[];
};

export type IssuedTokens = { accessToken: string; idToken: string; expiresIn: number };

export type IdTokenClaims = JWTPayload & {
  sub: string;
  "cognito:username": string;
  origin_jti: string;
  token_use: "id";
};

/** How many verified ID tokens an instance remembers (a few MB at most: a hash, the claims and a kid each). */
export const verifiedIdTokenCacheSize = 10_000;

type VerifiedIdToken = { claims: Readonly<IdTokenClaims>; kid: string; exp: number };

/**
 * Mints and verifies Cognito-shaped JWTs (AUTH.md "Tokens") with ES256 keys kept in the database, so every
 * instance on one database signs and verifies with the same keys.
 */
export class TokenService {
  private readonly verificationKeys = new Map<string, CryptoKey>();
  /**
   * ID tokens that passed `verifyIdToken`, by the SHA-256 of the token, oldest first. Checking an ES256 signature
   * was the largest fixed cost of every authenticated request, and a token that verified once keeps verifying
   * (signature, algorithm, issuer, audience, token use) until its `exp` for as long as the key that signed it is
   * still among the verification keys: the answer is a function of the token and the public keys alone. So the
   * cache needs no invalidation across instances (each instance fills its own; none holds state another could
   * change), only these rules: the expiry is checked on every call, an entry whose key id left the verification
   * keys is dropped (and the token verified afresh), and the oldest entries go past `verifiedIdTokenCacheSize`
   * (first in, first out).
   * Revocation is not the token's business: the caller checks the session on every request.
   */
  private readonly verifiedIdTokens = new Map<string, VerifiedIdToken>();
  private signing: { kid: string; key: CryptoKey; createdAt: Date } | undefined;
  private lastReload = 0;

  private readonly verifiedIdTokenLimit: number;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    options: { verifiedIdTokenCacheSize?: number } = {},
  ) {
    this.verifiedIdTokenLimit = options.verifiedIdTokenCacheSize ?? verifiedIdTokenCacheSize;
  }

  get issuer(): string {
    return this.config.publicUrl;
  }

  /**
   * Loads the active key, creating or rotating it when it is older than SIGNING_KEY_ROTATION_DAYS. Called at start.
   * Instances starting together serialise on an advisory lock and look again under it, so one rotates and the
   * others take its key instead of each retiring the other's.
   */
  async ensureSigningKey(now = new Date(), db: Db = this.db): Promise<void> {
    const maxAgeMs = this.config.tokens.keyRotationDays * 86_400_000;
    const fresh = (row: SigningKeyRow | undefined): row is SigningKeyRow =>
      row !== undefined && now.getTime() - row.createdAt.getTime() < maxAgeMs;
    const active = await findActiveSigningKey(db);
    if (fresh(active)) {
      await this.signWith(active);
    } else {
      await db.transaction(async (tx) => {
        await lockSigningKeys(tx);
        const current = await findActiveSigningKey(tx);
        if (fresh(current)) {
          await this.signWith(current);
          return;
        }
        const { privateKey, publicKey } = await generateKeyPair(algorithm, { extractable: true });
        const kid = randomUUID();
        // biome-ignore lint/plugin/leading-spread-then-keys: kid, alg and use are JWK fields too: ours win
        const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: algorithm, use: "sig" };
        // biome-ignore lint/plugin/leading-spread-then-keys: as above
        const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: algorithm };
        await retireSigningKeys(tx, now);
        await insertSigningKey(tx, { kid, publicJwk, privateJwk, createdAt: now });
        this.signing = { kid, key: privateKey, createdAt: now };
      });
    }
    await this.reloadVerificationKeys(db);
  }

  /**
   * The key to sign with: always the database's active one. Another instance may have rotated since this one
   * started (a restart or a scale-up after SIGNING_KEY_ROTATION_DAYS); signing on with the key it retired would
   * hand out tokens every instance rejects once that key is no longer published. One indexed read of a tiny table
   * per issue — sign-ins and refreshes, not every request — through `db`, the caller's transaction when it has one
   * (PGlite has a single connection: a read beside an open transaction would wait for it forever).
   */
  private async currentSigningKey(db: Db): Promise<{ kid: string; key: CryptoKey; createdAt: Date }> {
    const active = await findActiveSigningKey(db);
    if (!active) await this.ensureSigningKey(new Date(), db);
    else if (active.kid !== this.signing?.kid) await this.signWith(active);
    return this.signing as NonNullable<typeof this.signing>;
  }

  /**
   * Signs with `row` from now on, and verifies with it too: a key another instance made may be unknown here, and
   * the reload on an unknown key id runs at most once a second, so this instance's own fresh tokens could be
   * refused by itself in that second.
   */
  private async signWith(row: SigningKeyRow): Promise<void> {
    this.signing = {
      kid: row.kid,
      key: (await importJWK(row.privateJwk as JWK, algorithm)) as CryptoKey,
      createdAt: row.createdAt,
    };
    this.verificationKeys.set(row.kid, (await importJWK(row.publicJwk as JWK, algorithm)) as CryptoKey);
  }

  /** The JWKS document: every key that may have signed a token still alive. */
  async publishedKeys(): Promise<{ keys: JWK[] }> {
    const rows = await listPublishedSigningKeys(this.db, this.oldestLiveTokenTime());
    return { keys: rows.map((row) => row.publicJwk as JWK) };
  }

  async issue(
    subject: TokenSubject,
    session: { originJti: string; authTime: Date },
    clientId: string,
    /** The access token's `scope`; the hosted UI grants what was asked (openid, email…) besides the admin scope. */
    options: { scope?: string | undefined; db?: Db } = {},
  ): Promise<IssuedTokens> {
    const signing = await this.currentSigningKey(options.db ?? this.db);
    const authTime = Math.floor(session.authTime.getTime() / 1000);
    const common = {
      origin_jti: session.originJti,
      auth_time: authTime,
      "cognito:groups": subject.groups,
    };
    const accessToken = await new SignJWT({
      username: subject.username,
      client_id: clientId,
      token_use: "access",
      scope: options.scope ?? "aws.cognito.signin.user.admin",
      jti: randomUUID(),
      ...common,
    })
      .setProtectedHeader({ alg: algorithm, kid: signing.kid })
      .setSubject(subject.sub)
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime(`${this.config.tokens.accessTokenMinutes}m`)
      .sign(signing.key);
    const idToken = await new SignJWT({
      "cognito:username": subject.username,
      token_use: "id",
      email: subject.email,
      email_verified: subject.emailVerified,
      ...(subject.phoneNumber
        ? { phone_number: subject.phoneNumber, phone_number_verified: subject.phoneNumberVerified }
        : {}),
      name: subject.name,
      jti: randomUUID(),
      ...common,
    })
      .setProtectedHeader({ alg: algorithm, kid: signing.kid })
      .setSubject(subject.sub)
      .setIssuer(this.issuer)
      .setAudience(clientId)
      .setIssuedAt()
      .setExpirationTime(`${this.config.tokens.idTokenMinutes}m`)
      .sign(signing.key);
    return { accessToken, idToken, expiresIn: this.config.tokens.accessTokenMinutes * 60 };
  }

  /**
   * Verifies signature, algorithm, issuer, audience, expiry and token use. Revocation is checked by the caller.
   * A token verified before is answered from `verifiedIdTokens` (the claims are frozen: every caller shares them).
   */
  async verifyIdToken(token: string): Promise<Readonly<IdTokenClaims>> {
    // The one-shot digest: no Hash object per request.
    const hash = digest("sha256", token, "base64url");
    const cached = this.verifiedIdTokens.get(hash);
    if (cached) {
      // The same comparison as jose's (no clock tolerance): expired from the second `exp` names.
      if (cached.exp <= Math.floor(Date.now() / 1000)) {
        this.verifiedIdTokens.delete(hash);
        throw new AppError("unauthorized", "The token has expired.");
      }
      if (this.verificationKeys.has(cached.kid)) return cached.claims;
      this.verifiedIdTokens.delete(hash);
    }
    const { claims, kid } = await this.verify(token, { audience: this.config.userPoolClientId });
    if (claims.token_use !== "id") throw new AppError("unauthorized", "An ID token is required.");
    const verified = deepFreeze(claims) as Readonly<IdTokenClaims>;
    // Only tokens that expire are kept (ours always do), and only while their key is still known: a reload may have
    // run while this one was being verified.
    const keep = typeof verified.exp === "number" && kid !== undefined && this.verificationKeys.has(kid);
    if (keep && this.verifiedIdTokenLimit > 0) {
      while (this.verifiedIdTokens.size >= this.verifiedIdTokenLimit) {
        const oldest = this.verifiedIdTokens.keys().next();
        if (oldest.done) break;
        this.verifiedIdTokens.delete(oldest.value);
      }
      this.verifiedIdTokens.set(hash, { claims: verified, kid, exp: verified.exp });
    }
    return verified;
  }

  /** How many verified ID tokens are remembered (for tests). */
  get verifiedIdTokenCount(): number {
    return this.verifiedIdTokens.size;
  }

  async verifyAccessToken(token: string): Promise<JWTPayload & { sub: string; origin_jti: string; username: string }> {
    const { claims } = await this.verify(token, {});
    if (claims.token_use !== "access" || claims.client_id !== this.config.userPoolClientId) {
      throw new AppError("unauthorized", "An access token is required.");
    }
    return claims as JWTPayload & { sub: string; origin_jti: string; username: string };
  }

  private async verify(
    token: string,
    options: { audience?: string },
  ): Promise<{ claims: JWTPayload; kid: string | undefined }> {
    try {
      const { payload, protectedHeader } = await jwtVerify(token, (header) => this.keyFor(header.kid), {
        algorithms: [algorithm],
        issuer: this.issuer,
        ...(options.audience ? { audience: options.audience } : {}),
      });
      if (typeof payload.sub !== "string" || typeof payload.origin_jti !== "string") {
        throw new AppError("unauthorized", "The token is missing required claims.");
      }
      return { claims: payload, kid: protectedHeader.kid };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new AppError("unauthorized", "The token has expired.");
      if (error instanceof joseErrors.JOSEError) throw new AppError("unauthorized", "The token is not valid.");
      throw error;
    }
  }

  private async keyFor(kid: string | undefined): Promise<CryptoKey> {
    if (!kid) throw new AppError("unauthorized", "The token is not valid.");
    let key = this.verificationKeys.get(kid);
    // Another instance may have rotated: reload from the database, at most once a second.
    if (!key && Date.now() - this.lastReload > 1000) {
      await this.reloadVerificationKeys();
      key = this.verificationKeys.get(kid);
    }
    if (!key) throw new AppError("unauthorized", "The token is not valid.");
    return key;
  }

  private async reloadVerificationKeys(db: Db = this.db): Promise<void> {
    this.lastReload = Date.now();
    const rows = await listPublishedSigningKeys(db, this.oldestLiveTokenTime());
    const keys = new Map<string, CryptoKey>();
    for (const row of rows) keys.set(row.kid, (await importJWK(row.publicJwk as JWK, algorithm)) as CryptoKey);
    this.verificationKeys.clear();
    for (const [kid, key] of keys) this.verificationKeys.set(kid, key);
    // Tokens signed by a key no longer published would be refused if verified now: forget them.
    for (const [hash, entry] of this.verifiedIdTokens) {
      if (!keys.has(entry.kid)) this.verifiedIdTokens.delete(hash);
    }
  }

  private oldestLiveTokenTime(): Date {
    const longestMinutes = Math.max(this.config.tokens.idTokenMinutes, this.config.tokens.accessTokenMinutes);
    return new Date(Date.now() - longestMinutes * 60_000);
  }
}

/** Freezes the claims and the arrays and objects in them (`cognito:groups`, an `aud` list). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Opaque secrets (refresh tokens, challenge sessions): 256 random bits. */
export function createOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}
