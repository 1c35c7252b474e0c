import { randomUUID } from "node:crypto";
import type { CreateSmartClient, SmartClient } from "@vigil/contract";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { fhirEndpointUrls } from "../../modules/fhir/fhir-routes.js";
import type { Caller } from "./caller-kit.js";

/**
 * The hospital's side of SMART Backend Services in tests: key pairs made by `jose`, assertions signed with them, and
 * form-encoded token requests to the real endpoint. The server's side is never shortcut.
 */

export type HospitalKey = { kid: string; alg: "RS384" | "ES384"; privateKey: CryptoKey; publicJwk: JWK };

export async function hospitalKey(alg: "RS384" | "ES384" = "RS384"): Promise<HospitalKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const kid = `kid-${randomUUID()}`;
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: "sig" } };
}

/** The private half as a JWK (with `d`): what a careless administrator might paste. */
export async function privateJwkOf(key: HospitalKey): Promise<JWK> {
  return { ...(await exportJWK(key.privateKey)), kid: key.kid, alg: key.alg };
}

export function tokenUrlOf(publicUrl: string): string {
  return fhirEndpointUrls(publicUrl).token;
}

export type AssertionOptions = {
  iss?: string;
  sub?: string;
  aud?: string;
  /** Seconds from now. */
  exp?: number;
  jti?: string;
  kid?: string;
  signWith?: HospitalKey;
};

export async function signAssertion(
  key: HospitalKey,
  clientId: string,
  audience: string,
  options: AssertionOptions = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signer = options.signWith ?? key;
  return new SignJWT({})
    .setProtectedHeader({ alg: signer.alg, kid: options.kid ?? key.kid, typ: "JWT" })
    .setIssuer(options.iss ?? clientId)
    .setSubject(options.sub ?? clientId)
    .setAudience(options.aud ?? audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.exp ?? 240))
    .setJti(options.jti ?? randomUUID())
    .sign(signer.privateKey);
}

export function requestToken(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: "POST",
    url: "/fhir/auth/token",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

export function tokenFields(assertion: string, scope: string): Record<string, string> {
  return {
    grant_type: "client_credentials",
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: assertion,
    scope,
  };
}

/** Registers a hospital system for `clientId` through the API, as an administrator does on the Interfaces tab. */
export async function registerHospitalSystem(
  admin: Caller,
  clientId: string,
  input: Partial<CreateSmartClient> & { keys?: HospitalKey[] },
): Promise<SmartClient> {
  const { keys, ...rest } = input;
  const response = await admin("POST", `/clients/${clientId}/fhir-systems`, {
    body: {
      name: "Hospital EHR",
      scopes: ["system/DiagnosticReport.rs", "system/Patient.rs"],
      jwksUrl: null,
      jwks: keys ? { keys: keys.map((key) => key.publicJwk) } : null,
      ...rest,
    },
  });
  if (response.statusCode !== 201) throw new Error(`registration failed: ${response.statusCode} ${response.body}`);
  return response.json().data;
}

/** A token for the system, through the real endpoint; throws unless one is issued. */
export async function systemToken(
  app: FastifyInstance,
  publicUrl: string,
  key: HospitalKey,
  systemClientId: string,
  scope: string,
): Promise<string> {
  const response = await requestToken(
    app,
    tokenFields(await signAssertion(key, systemClientId, tokenUrlOf(publicUrl)), scope),
  );
  if (response.statusCode !== 200) throw new Error(`token refused: ${response.body}`);
  return response.json().access_token;
}
