import type { FhirPushSettings, FhirPushSettingsInput, FhirPushSettingsView } from "@vigil/contract";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { getUserByUsername } from "../../identity/user-directory.js";
import { requireClient, requireWritableClient } from "../clients/clients-service.js";
import { fhirPushJwksPath } from "./fhir-push-keys.js";
import {
  type FhirPushSettingsRow,
  findFhirPushSettings,
  insertFhirPushSettings,
  updateFhirPushSettingsRow,
} from "./fhir-push-settings-repository.js";

/**
 * A client's FHIR push settings (docs/design/FHIR.md, "Push"): one row per client, each change based on the version
 * it was made on (a stale one is a 409), audited with what changed.
 */

export function toFhirPushSettings(row: FhirPushSettingsRow): FhirPushSettings {
  return {
    clientId: row.clientId,
    enabled: row.enabled,
    baseUrl: row.baseUrl,
    tokenUrl: row.tokenUrl,
    systemClientId: row.systemClientId,
    scopes: row.scopes.split(" ").filter((scope) => scope !== ""),
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: { sub: row.updatedBySub, username: row.updatedByUsername, name: row.updatedByName },
  };
}

function viewOf(publicUrl: string, row: FhirPushSettingsRow | undefined): FhirPushSettingsView {
  return { settings: row ? toFhirPushSettings(row) : null, jwksUrl: `${publicUrl}${fhirPushJwksPath}` };
}

export async function getFhirPushSettings(db: Db, publicUrl: string, clientId: string): Promise<FhirPushSettingsView> {
  await requireClient(db, clientId);
  return viewOf(publicUrl, await findFhirPushSettings(db, clientId));
}

/** The client's settings when push is on: what the signing transaction and the push job read. */
export async function findEnabledPushSettings(db: Db, clientId: string): Promise<FhirPushSettingsRow | undefined> {
  const row = await findFhirPushSettings(db, clientId);
  return row?.enabled ? row : undefined;
}

async function authorName(db: Db, username: string): Promise<string | null> {
  try {
    return (await getUserByUsername(db, username)).name;
  } catch {
    return null;
  }
}

const auditedFields = ["enabled", "baseUrl", "tokenUrl", "systemClientId", "scopes"] as const;
function audited(row: FhirPushSettingsRow | undefined): Record<(typeof auditedFields)[number], unknown> {
  return {
    enabled: row?.enabled ?? null,
    baseUrl: row?.baseUrl ?? null,
    tokenUrl: row?.tokenUrl ?? null,
    systemClientId: row?.systemClientId ?? null,
    scopes: row?.scopes ?? null,
  };
}

function staleBase(current: FhirPushSettingsRow | undefined, baseVersion: number | null): AppError {
  const at = current ? `version ${current.version}` : "not saved yet";
  const based = baseVersion === null ? "no saved settings" : `version ${baseVersion}`;
  return new AppError(
    "conflict",
    `The FHIR push settings have changed: they are at ${at}, and you based your changes on ${based}. Reload them and apply your changes again.`,
    { current: current ? toFhirPushSettings(current) : null, currentVersion: current?.version ?? null, baseVersion },
  );
}

export async function updateFhirPushSettings(
  db: Db,
  publicUrl: string,
  clientId: string,
  input: FhirPushSettingsInput,
  actor: Actor,
): Promise<FhirPushSettingsView> {
  const name = await authorName(db, actor.username);
  const values = {
    enabled: input.enabled,
    baseUrl: input.baseUrl.replace(/\/+$/, ""),
    tokenUrl: input.tokenUrl,
    systemClientId: input.systemClientId,
    scopes: input.scopes.join(" "),
    updatedBySub: actor.sub,
    updatedByUsername: actor.username,
    updatedByName: name,
  };
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "share");
    const current = await findFhirPushSettings(tx, clientId, { forUpdate: true });
    if ((current?.version ?? null) !== input.baseVersion) throw staleBase(current, input.baseVersion);
    const row = current
      ? await updateFhirPushSettingsRow(tx, clientId, { version: current.version + 1, ...values })
      : await insertFhirPushSettings(tx, { clientId, ...values });
    if (!row) throw staleBase(await findFhirPushSettings(tx, clientId), input.baseVersion);
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        current ? "fhir-push.revise" : "fhir-push.configure",
        { type: "client", id: clientId },
        { version: row.version, changes: changesBetween(audited(current), audited(row), auditedFields) },
      ),
    );
    return viewOf(publicUrl, row);
  });
}
