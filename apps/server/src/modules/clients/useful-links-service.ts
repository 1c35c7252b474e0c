import type { UsefulLink, usefulLinkInputSchema } from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import { requireClient, requireWritableClient } from "./clients-service.js";
import {
  findUsefulLinkForUpdate,
  findUsefulLinksOfClient,
  insertUsefulLink,
  type UsefulLinkRow,
  type UsefulLinkValues,
  updateUsefulLinkRow,
} from "./useful-links-repository.js";

type UsefulLinkInput = z.output<typeof usefulLinkInputSchema>;

export function toUsefulLink(row: UsefulLinkRow): UsefulLink {
  return {
    _id: row.id,
    clientId: row.clientId,
    title: row.title,
    url: row.url,
    description: row.description,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toValues(input: UsefulLinkInput): UsefulLinkValues {
  return { title: input.title, url: input.url, description: input.description ?? null };
}

async function requireUsefulLink(db: Db, clientId: string, linkId: string): Promise<UsefulLinkRow> {
  const row = await findUsefulLinkForUpdate(db, clientId, linkId);
  if (!row) throw new AppError("not_found", `The client has no useful link with id ${linkId}.`);
  return row;
}

export async function listUsefulLinks(db: Db, clientId: string): Promise<UsefulLink[]> {
  await requireClient(db, clientId);
  return (await findUsefulLinksOfClient(db, clientId)).map(toUsefulLink);
}

export async function createUsefulLink(
  db: Db,
  clientId: string,
  input: UsefulLinkInput,
  actor: Actor,
): Promise<UsefulLink> {
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "share");
    const row = await insertUsefulLink(tx, { clientId, ...toValues(input) });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "link.create",
        { type: "useful-link", id: row.id },
        { clientId, title: row.title, url: row.url },
      ),
    );
    return toUsefulLink(row);
  });
}

export async function updateUsefulLink(
  db: Db,
  clientId: string,
  linkId: string,
  expectedVersions: readonly number[],
  input: UsefulLinkInput,
  actor: Actor,
): Promise<UsefulLink> {
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "share");
    const before = await requireUsefulLink(tx, clientId, linkId);
    assertVersion(expectedVersions, before, () => toUsefulLink(before));
    const after = (await updateUsefulLinkRow(tx, linkId, toValues(input))) as UsefulLinkRow;
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "link.update",
        { type: "useful-link", id: linkId },
        { clientId, version: after.version, changes: changesBetween(before, after, ["title", "url", "description"]) },
      ),
    );
    return toUsefulLink(after);
  });
}

/** Marks the link removed (kept for the audit trail). */
export async function removeUsefulLink(db: Db, clientId: string, linkId: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "share");
    const before = await requireUsefulLink(tx, clientId, linkId);
    await updateUsefulLinkRow(tx, linkId, { removedAt: new Date() });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "link.remove",
        { type: "useful-link", id: linkId },
        { clientId, title: before.title, url: before.url },
      ),
    );
  });
}
