import { randomUUID } from "node:crypto";
import type { CreateSmartClient, SmartClient, SmartClientList, UpdateSmartClient } from "@vigil/contract";
import { importJWK } from "jose";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { getUserByUsername } from "../../identity/user-directory.js";
import { getClientName, requireClient, requireWritableClient } from "../clients/clients-service.js";
import {
  findSmartClient,
  findSmartClientBySystemId,
  findSmartClientsOfClient,
  insertSmartClient,
  revokeAccessTokens,
  type SmartClientRow,
  updateSmartClientRow,
} from "./smart-client-repository.js";

/**
 * Hospital systems registered for SMART Backend Services (docs/design/FHIR.md, "Registration"): one system client id
 * belongs to one Vigil client; each change is audited with what changed, and ends the system's live tokens, so a
 * removed scope or key stops working at once rather than when the last token expires.
 */

type Jwks = { keys: Record<string, unknown>[] };

export function toSmartClient(row: SmartClientRow): SmartClient {
  return {
    id: row.id,
    clientId: row.clientId,
    systemClientId: row.systemClientId,
    name: row.name,
    jwksUrl: row.jwksUrl,
    jwks: row.jwks ?? null,
    scopes: row.scopes,
    enabled: row.enabled,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: { sub: row.updatedBySub, username: row.updatedByUsername, name: row.updatedByName },
  };
}

export async function listSmartClients(db: Db, clientId: string): Promise<SmartClientList> {
  await requireClient(db, clientId);
  return { items: (await findSmartClientsOfClient(db, clientId)).map(toSmartClient) };
}

/** RSA moduli under 2048 bits are refused (NIST SP 800-131A); the key must also be one jose can use. */
async function assertUsableKeys(jwks: Jwks | null): Promise<void> {
  if (!jwks) return;
  for (const [index, key] of jwks.keys.entries()) {
    const path = `body.jwks.keys.${index}`;
    const algorithm = key.kty === "RSA" ? "RS384" : "ES384";
    try {
      // biome-ignore lint/plugin/leading-spread-then-keys: alg is a JWK field too: the one checked for wins
      await importJWK({ ...key, alg: algorithm } as Parameters<typeof importJWK>[0], algorithm);
    } catch {
      throw invalidKey(path, `is not a usable ${algorithm} public key`);
    }
    if (key.kty === "RSA" && Buffer.from(String(key.n), "base64url").length < 256) {
      throw invalidKey(`${path}.n`, "is shorter than 2048 bits");
    }
  }
}

function invalidKey(path: string, message: string): AppError {
  return new AppError("bad_request", `Invalid request: ${path} ${message}`, { issues: [{ path, message }] });
}

async function authorName(db: Db, username: string): Promise<string | null> {
  try {
    return (await getUserByUsername(db, username)).name;
  } catch {
    return null;
  }
}

async function idTaken(db: Db, systemClientId: string): Promise<AppError> {
  const owner = await findSmartClientBySystemId(db, systemClientId);
  const ownerName = owner ? await getClientName(db, owner.clientId) : undefined;
  return new AppError(
    "conflict",
    `The client id ${systemClientId} is already registered${ownerName ? ` for ${ownerName}` : ""}. A client id identifies one hospital system of one client: choose another, or let Vigil make one.`,
    { ownerClientId: owner?.clientId ?? null },
  );
}

/** What an audit row says of a registration: key sources by kind and key id, never a key's material. */
function audited(row: SmartClientRow | undefined): Record<string, unknown> {
  if (!row) return {};
  return {
    name: row.name,
    jwksUrl: row.jwksUrl,
    jwksKeyIds: row.jwks ? row.jwks.keys.map((key) => key.kid ?? null) : null,
    scopes: row.scopes,
    enabled: row.enabled,
  };
}
const auditedFields = ["name", "jwksUrl", "jwksKeyIds", "scopes", "enabled"] as const;

export async function registerSmartClient(
  db: Db,
  clientId: string,
  input: CreateSmartClient & { jwksUrl: string | null; jwks: Jwks | null; enabled: boolean },
  actor: Actor,
): Promise<SmartClient> {
  await assertUsableKeys(input.jwks);
  const name = await authorName(db, actor.username);
  const systemClientId = input.systemClientId ?? `vigil-${randomUUID()}`;
  try {
    return await db.transaction(async (tx) => {
      await requireWritableClient(tx, clientId, "share");
      const row = await insertSmartClient(tx, {
        clientId,
        systemClientId,
        name: input.name,
        jwksUrl: input.jwksUrl,
        jwks: input.jwks,
        scopes: input.scopes,
        enabled: input.enabled,
        updatedBySub: actor.sub,
        updatedByUsername: actor.username,
        updatedByName: name,
      });
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          "smart-client.register",
          { type: "client", id: clientId },
          {
            smartClientId: row.id,
            systemClientId,
            ...audited(row),
          },
        ),
      );
      return toSmartClient(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, "smart_clients_system_client_id_key")) throw await idTaken(db, systemClientId);
    throw error;
  }
}

export async function updateSmartClient(
  db: Db,
  clientId: string,
  id: string,
  input: UpdateSmartClient & { jwksUrl: string | null; jwks: Jwks | null; enabled: boolean },
  actor: Actor,
): Promise<SmartClient> {
  await assertUsableKeys(input.jwks);
  const name = await authorName(db, actor.username);
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "share");
    const current = await findSmartClient(tx, id, { forUpdate: true });
    if (!current || current.clientId !== clientId) {
      throw new AppError("not_found", "This client has no such registered hospital system.");
    }
    if (current.version !== input.baseVersion) {
      throw new AppError(
        "conflict",
        `The hospital system's registration has changed: it is at version ${current.version}, and you based your changes on version ${input.baseVersion}. Reload it and apply your changes again.`,
        { current: toSmartClient(current), currentVersion: current.version, baseVersion: input.baseVersion },
      );
    }
    const now = new Date();
    const row = await updateSmartClientRow(tx, id, {
      name: input.name,
      jwksUrl: input.jwksUrl,
      jwks: input.jwks,
      scopes: input.scopes,
      enabled: input.enabled,
      version: current.version + 1,
      // A new URL's keys are fetched anew; the same URL keeps its cache (the hospital rotates keys behind it).
      ...(input.jwksUrl !== current.jwksUrl ? { fetchedJwks: null, fetchedAt: null } : {}),
      updatedBySub: actor.sub,
      updatedByUsername: actor.username,
      updatedByName: name,
    });
    const revokedTokens = await revokeAccessTokens(tx, id, now);
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "smart-client.revise",
        { type: "client", id: clientId },
        {
          smartClientId: id,
          systemClientId: row.systemClientId,
          version: row.version,
          changes: changesBetween(audited(current), audited(row), auditedFields),
          keysChanged: JSON.stringify(current.jwks) !== JSON.stringify(row.jwks),
          revokedTokens,
        },
      ),
    );
    return toSmartClient(row);
  });
}
