import { createHash, randomBytes } from "node:crypto";
import { smartSigningAlgorithms } from "@vigil/contract";
import { createLocalJWKSet, decodeJwt, type JWTPayload, errors as joseErrors, jwtVerify } from "jose";
import { recordAudit, recordRepeatedAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { InvalidScopeError, intersectScopes } from "../../fhir/smart-scopes.js";
import {
  claimAssertionJti,
  findLiveAccessToken,
  findSmartClientBySystemId,
  insertAccessToken,
  type SmartClientRow,
} from "./smart-client-repository.js";
import { type JwksFetcher, JwksUnavailableError, keysOfSystem } from "./smart-jwks.js";

/**
 * The token endpoint of SMART Backend Services (docs/design/FHIR.md, "Token endpoint"): `client_credentials` with a
 * `private_key_jwt` assertion (RFC 7523) signed by a registered hospital system. Issues a 5-minute opaque access
 * token whose SHA-256 is kept in PostgreSQL, so every instance accepts it and a change to the registration ends it.
 */

export const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
export const accessTokenSeconds = 300;
/** SMART: `exp` no more than five minutes ahead; a little more is allowed for clocks that differ. */
const maxAssertionSeconds = 300;
const clockToleranceSeconds = 30;

/** An OAuth error of the token endpoint (RFC 6749 §5.2): `{ error, error_description }` with this status. */
export class SmartTokenError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: "invalid_request" | "invalid_client" | "invalid_grant" | "invalid_scope" | "unsupported_grant_type",
    description: string,
  ) {
    super(description);
    this.name = "SmartTokenError";
  }
}

export type SmartTokenSettings = {
  /** The token endpoint's public URL: an assertion's `aud` must be exactly this. */
  tokenUrl: string;
  fetchJwks: JwksFetcher;
};

export type TokenCallContext = { ip?: string | undefined; userAgent?: string | undefined; now?: Date };

export type SmartTokenResponse = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  scope: string;
};

function invalidClient(description: string): SmartTokenError {
  return new SmartTokenError(401, "invalid_client", description);
}

/** The text of what `jose` refused, in words a hospital's integration team can act on. */
function describeVerificationFailure(error: unknown, settings: SmartTokenSettings): string {
  if (error instanceof joseErrors.JWTExpired) return "The client assertion has expired (exp is in the past).";
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return "The client assertion's signature does not verify with the registered keys.";
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return "No registered key matches the assertion's kid and alg.";
  }
  if (error instanceof joseErrors.JWKSMultipleMatchingKeys) {
    return "Several registered keys match the assertion; name one with kid.";
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return "The assertion must be signed with RS384 or ES384.";
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return `The assertion's aud must be the token endpoint, ${settings.tokenUrl}.`;
    if (error.claim === "iss" || error.claim === "sub")
      return "The assertion's iss and sub must both be the client id.";
    if (error.claim === "nbf") return "The assertion is not valid yet (nbf is in the future).";
    return `The assertion's ${error.claim} claim is missing or invalid.`;
  }
  return "The client assertion is not a valid signed JWT.";
}

async function verifyAssertion(
  db: Db,
  assertion: string,
  row: SmartClientRow,
  settings: SmartTokenSettings,
  now: Date,
): Promise<JWTPayload> {
  const options = {
    algorithms: [...smartSigningAlgorithms],
    issuer: row.systemClientId,
    subject: row.systemClientId,
    audience: settings.tokenUrl,
    requiredClaims: ["exp", "jti"],
    clockTolerance: clockToleranceSeconds,
    currentDate: now,
  };
  const attempt = async (missingKey: boolean) => {
    const keys = await keysOfSystem(db, row, now, settings.fetchJwks, { missingKey });
    return (await jwtVerify(assertion, createLocalJWKSet(keys), options)).payload;
  };
  try {
    try {
      return await attempt(false);
    } catch (error) {
      // A key the cached set lacks may be a rotation the hospital just published: look once more.
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || !row.jwksUrl) throw error;
      return await attempt(true);
    }
  } catch (error) {
    if (error instanceof JwksUnavailableError) {
      throw invalidClient(`The system's public keys could not be read: ${error.message}.`);
    }
    throw invalidClient(describeVerificationFailure(error, settings));
  }
}

function requestedScopes(body: Record<string, string | undefined>): string[] {
  const scope = body.scope?.trim();
  if (!scope) throw new SmartTokenError(400, "invalid_scope", "scope is required (e.g. system/DiagnosticReport.rs).");
  return scope.split(/\s+/);
}

/** Checks the request and the assertion; on success, the system and what it is granted. */
async function authorize(
  db: Db,
  settings: SmartTokenSettings,
  body: Record<string, string | undefined>,
  now: Date,
): Promise<{ row: SmartClientRow; payload: JWTPayload; scopes: string[] }> {
  if (body.grant_type !== "client_credentials") {
    throw new SmartTokenError(400, "unsupported_grant_type", "Only grant_type=client_credentials is supported.");
  }
  if (body.client_assertion_type !== clientAssertionType) {
    throw new SmartTokenError(400, "invalid_request", `client_assertion_type must be ${clientAssertionType}.`);
  }
  const assertion = body.client_assertion;
  if (!assertion) throw new SmartTokenError(400, "invalid_request", "client_assertion is required.");
  let claimed: JWTPayload;
  try {
    claimed = decodeJwt(assertion);
  } catch {
    throw invalidClient("The client assertion is not a JWT.");
  }
  if (typeof claimed.iss !== "string" || claimed.iss.length > 128) {
    throw invalidClient("The assertion's iss must be the client id.");
  }
  if (body.client_id !== undefined && body.client_id !== claimed.iss) {
    throw invalidClient("client_id, when sent, must be the assertion's iss.");
  }
  const row = await findSmartClientBySystemId(db, claimed.iss);
  if (!row) throw invalidClient("The client id is not registered with this server.");
  if (!row.enabled) throw invalidClient("The client's registration is disabled.");
  const payload = await verifyAssertion(db, assertion, row, settings, now);
  const exp = payload.exp as number;
  if (exp - now.getTime() / 1000 > maxAssertionSeconds + clockToleranceSeconds) {
    throw invalidClient("The assertion's exp must be no more than five minutes ahead.");
  }
  if (typeof payload.jti !== "string" || payload.jti.length === 0 || payload.jti.length > 256) {
    throw invalidClient("The assertion's jti must be a string of 1 to 256 characters.");
  }
  let scopes: string[];
  try {
    scopes = intersectScopes(requestedScopes(body), row.scopes);
  } catch (error) {
    if (error instanceof InvalidScopeError) throw new SmartTokenError(400, "invalid_scope", error.message);
    throw error;
  }
  if (scopes.length === 0) {
    throw new SmartTokenError(400, "invalid_scope", "None of the requested scopes is granted to this client.");
  }
  return { row, payload, scopes };
}

export function hashAccessToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * `POST /fhir/auth/token`. Every issue and every refusal is audited (no patient data is involved): refusals by
 * address, claimed client and error, counted on one row per minute so a caller cannot flood the log.
 */
export async function issueSmartAccessToken(
  db: Db,
  settings: SmartTokenSettings,
  body: Record<string, string | undefined>,
  context: TokenCallContext = {},
): Promise<SmartTokenResponse> {
  const now = context.now ?? new Date();
  let claimedIssuer: string | null = null;
  try {
    claimedIssuer = body.client_assertion ? String(decodeJwt(body.client_assertion).iss ?? "").slice(0, 128) : null;
  } catch {
    claimedIssuer = null;
  }
  try {
    const { row, payload, scopes } = await authorize(db, settings, body, now);
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now.getTime() + accessTokenSeconds * 1000);
    await db.transaction(async (tx) => {
      const first = await claimAssertionJti(
        tx,
        row.systemClientId,
        payload.jti as string,
        new Date((payload.exp as number) * 1000),
        now,
      );
      if (!first) throw invalidClient("The assertion's jti has been used before; sign a new assertion.");
      await insertAccessToken(tx, { tokenHash: hashAccessToken(token), smartClientId: row.id, scopes, expiresAt });
      await recordAudit(tx, {
        action: "smart-token.issue",
        outcome: "success",
        actor: { sub: null, username: `system:${row.systemClientId}` },
        target: { type: "client", id: row.clientId },
        ip: context.ip,
        userAgent: context.userAgent,
        details: {
          smartClientId: row.id,
          systemClientId: row.systemClientId,
          scopes,
          expiresAt: expiresAt.toISOString(),
        },
      });
    });
    return { access_token: token, token_type: "bearer", expires_in: accessTokenSeconds, scope: scopes.join(" ") };
  } catch (error) {
    if (!(error instanceof SmartTokenError)) throw error;
    const minute = Math.floor(now.getTime() / 60_000);
    await recordRepeatedAudit(
      db,
      {
        action: "smart-token.refuse",
        outcome: "denied",
        actor: { sub: null, username: claimedIssuer ? `system:${claimedIssuer}` : null },
        ip: context.ip,
        userAgent: context.userAgent,
        details: { error: error.error, reason: error.message, systemClientId: claimedIssuer },
      },
      `smart-token.refuse:${context.ip ?? ""}:${claimedIssuer ?? ""}:${error.error}:${error.message}:${minute}`,
      now,
    );
    throw error;
  }
}

/** The caller of a FHIR request's bearer token, or undefined when it is unknown, expired, revoked or disabled. */
export async function authenticateSmartToken(db: Db, token: string, now = new Date()) {
  if (token.length > 512) return undefined;
  const row = await findLiveAccessToken(db, hashAccessToken(token), now);
  if (!row) return undefined;
  return {
    clientId: row.clientId,
    systemClientId: row.systemClientId,
    smartClientId: row.smartClientId,
    scopes: row.scopes,
  };
}
