import type {
  createProtocolRevisionSchema,
  ProtocolRevision,
  protocolSchema,
  transferFormSchema,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { getUserByUsername } from "../../identity/user-directory.js";
import { recordClientProtocolChange } from "../watch/watch-service.js";
import { requireClient, requireWritableClient } from "./clients-service.js";
import { findContactsOfClient } from "./contacts-repository.js";
import type { ContactHooks } from "./contacts-service.js";
import {
  findLatestProtocolRevision,
  findProtocolRevisionById,
  findProtocolRevisions,
  insertProtocolRevision,
  type ProtocolRevisionRow,
} from "./protocol-repository.js";

type CreateProtocolRevision = z.output<typeof createProtocolRevisionSchema>;

export function toProtocolRevision(row: ProtocolRevisionRow): ProtocolRevision {
  return {
    id: row.id,
    clientId: row.clientId,
    revision: row.revision,
    instructions: row.instructions,
    // numeric(6,2) arrives as a string (exact decimal); the contract promises a number, and two decimals fit one.
    impedanceThresholdKohm: Number(row.impedanceThresholdKohm),
    impedanceCheckIntervalHours: row.impedanceCheckIntervalHours,
    reviewTurnaroundHours: row.reviewTurnaroundHours,
    statAcknowledgeMinutes: row.statAcknowledgeMinutes,
    criticalNotification: { notify: row.criticalNotify, withinMinutes: row.criticalNotifyWithinMinutes },
    reportRecipients: row.reportRecipients,
    transferForm: row.transferForm,
    changeNote: row.changeNote,
    author: { sub: row.authorSub, username: row.authorUsername, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getProtocol(db: Db, clientId: string): Promise<z.input<typeof protocolSchema>> {
  await requireClient(db, clientId);
  const history = (await findProtocolRevisions(db, clientId)).map(toProtocolRevision);
  return { clientId, current: history[0] ?? null, history };
}

/** The client's current protocol revision (what a case pins when its monitoring starts), or undefined. */
export async function getCurrentProtocolRevision(db: Db, clientId: string): Promise<ProtocolRevision | undefined> {
  const latest = await findLatestProtocolRevision(db, clientId);
  return latest ? toProtocolRevision(latest) : undefined;
}

/** One revision by id, whatever was appended since (a pinned revision never changes). */
export async function getProtocolRevisionById(db: Db, id: string): Promise<ProtocolRevision | undefined> {
  const row = await findProtocolRevisionById(db, id);
  return row ? toProtocolRevision(row) : undefined;
}

function staleBase(baseRevision: number | null, latest: ProtocolRevisionRow | undefined): AppError {
  const current = latest ? toProtocolRevision(latest) : null;
  const currentRevision = latest?.revision ?? null;
  const message =
    currentRevision === null
      ? `The client has no protocol yet, so the first revision must name baseRevision null (you sent ${baseRevision}).`
      : `The protocol has changed: it is at revision ${currentRevision}, and you based your changes on ${baseRevision === null ? "no revision" : `revision ${baseRevision}`}. Reload it and apply your changes again.`;
  return new AppError("conflict", message, { current, currentRevision, baseRevision });
}

async function authorName(db: Db, username: string): Promise<string | null> {
  try {
    return (await getUserByUsername(db, username)).name;
  } catch {
    return null;
  }
}

/** Report recipients must be the client's own live contacts: a 400 naming each one that is not. */
async function assertOwnContacts(tx: Db, clientId: string, contactIds: readonly string[]): Promise<void> {
  if (contactIds.length === 0) return;
  const own = new Set((await findContactsOfClient(tx, clientId)).map((contact) => contact.id));
  const issues = contactIds.flatMap((id, index) =>
    own.has(id)
      ? []
      : [{ path: `body.reportRecipients.contactIds.${index}`, message: "is not a contact of this client" }],
  );
  if (issues.length > 0) {
    throw new AppError(
      "bad_request",
      `Invalid request: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`,
      {
        issues,
      },
    );
  }
}

/**
 * Appends revision N+1 when the caller based its changes on N (null for the first). Nothing is overwritten:
 * a stale base is a 409, and when two appends on the same base race, the unique (client, revision) index lets
 * exactly one insert through; the other's violation becomes the same 409.
 */
export async function createProtocolRevision(
  db: Db,
  clientId: string,
  input: CreateProtocolRevision,
  actor: Actor,
  hooks: ContactHooks = {},
): Promise<ProtocolRevision> {
  // Read outside the transaction: PGlite has one connection, and the transaction holds it.
  const name = await authorName(db, actor.username);
  try {
    return await db.transaction(async (tx) => {
      // A share lock: concurrent appends do not wait for each other (the index decides), but archiving does.
      await requireWritableClient(tx, clientId, "share");
      const latest = await findLatestProtocolRevision(tx, clientId);
      if (input.baseRevision !== (latest?.revision ?? null)) throw staleBase(input.baseRevision, latest);
      await assertOwnContacts(tx, clientId, input.reportRecipients.contactIds);
      const row = await insertProtocolRevision(tx, {
        clientId,
        revision: (latest?.revision ?? 0) + 1,
        instructions: input.instructions,
        impedanceThresholdKohm: input.impedanceThresholdKohm.toFixed(2),
        impedanceCheckIntervalHours: input.impedanceCheckIntervalHours,
        reviewTurnaroundHours: input.reviewTurnaroundHours,
        statAcknowledgeMinutes: input.statAcknowledgeMinutes,
        criticalNotify: input.criticalNotification.notify,
        criticalNotifyWithinMinutes: input.criticalNotification.withinMinutes,
        transferForm: input.transferForm,
        reportRecipients: input.reportRecipients,
        changeNote: input.changeNote ?? null,
        authorSub: actor.sub,
        authorUsername: actor.username,
        authorName: name,
      });
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          "protocol.revise",
          { type: "client", id: clientId },
          {
            revision: row.revision,
            baseRevision: input.baseRevision,
            changeNote: row.changeNote,
            impedanceThresholdKohm: Number(row.impedanceThresholdKohm),
            transferFieldCount: input.transferForm.fields.length,
            reportRecipientCount: input.reportRecipients.contactIds.length,
          },
        ),
      );
      // Contacts the protocol no longer names as report recipients lose their unused links.
      const kept = new Set(input.reportRecipients.contactIds);
      const dropped = (latest?.reportRecipients.contactIds ?? []).filter((id) => !kept.has(id));
      if (dropped.length > 0) await hooks.onContactsWithdrawn?.(tx, dropped, "recipient-removed", actor);
      // Open cases without a pinned revision are held to this one from now on.
      await recordClientProtocolChange(tx, clientId);
      return toProtocolRevision(row);
    });
  } catch (error) {
    if (!isUniqueViolation(error, "protocol_revisions_client_revision_idx")) throw error;
    throw staleBase(input.baseRevision, await findLatestProtocolRevision(db, clientId));
  }
}

/** The printable transfer form of the current revision; 404 until the client has a protocol. */
export async function getTransferForm(db: Db, clientId: string): Promise<z.input<typeof transferFormSchema>> {
  const client = await requireClient(db, clientId);
  const latest = await findLatestProtocolRevision(db, clientId);
  if (!latest) {
    throw new AppError(
      "not_found",
      `${client.name} has no protocol yet, so there is no transfer form. Add the first protocol revision.`,
    );
  }
  const form = latest.transferForm;
  return {
    clientId,
    clientName: client.name,
    revision: latest.revision,
    revisedAt: latest.createdAt.toISOString(),
    title: form.title,
    instructions: form.instructions,
    fields: form.fields,
  };
}
