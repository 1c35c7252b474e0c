import type {
  createInterfaceProfileRevisionSchema,
  InterfaceProfile,
  InterfaceProfileContent,
  InterfaceProfileRevision,
} from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { getUserByUsername } from "../../identity/user-directory.js";
import { requireClient, requireWritableClient } from "../clients/clients-service.js";
import {
  findInterfaceProfileRevisions,
  findLatestInterfaceProfileRevision,
  findLatestRevisionsForIdentity,
  type InterfaceProfileRevisionRow,
  insertInterfaceProfileRevision,
  lockInterfaceProfileAppends,
} from "./profile-repository.js";

type CreateInterfaceProfileRevision = z.output<typeof createInterfaceProfileRevisionSchema>;

const contentFields = [
  "enabled",
  "sendingApplication",
  "sendingFacility",
  "mrnAssigningAuthority",
  "visitNumberSource",
  "receivingApplication",
  "receivingFacility",
  "destination",
  "resultStyle",
  "hl7Version",
  "orderStatusUpdates",
] as const satisfies readonly (keyof InterfaceProfileContent)[];

export function toInterfaceProfileRevision(row: InterfaceProfileRevisionRow): InterfaceProfileRevision {
  return {
    id: row.id,
    clientId: row.clientId,
    revision: row.revision,
    enabled: row.enabled,
    sendingApplication: row.sendingApplication,
    sendingFacility: row.sendingFacility,
    mrnAssigningAuthority: row.mrnAssigningAuthority,
    visitNumberSource: row.visitNumberSource,
    receivingApplication: row.receivingApplication,
    receivingFacility: row.receivingFacility,
    destination: row.destination ?? null,
    resultStyle: row.resultStyle,
    hl7Version: row.hl7Version,
    orderStatusUpdates: row.orderStatusUpdates,
    changeNote: row.changeNote,
    author: { sub: row.authorSub, username: row.authorUsername, name: row.authorName },
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getInterfaceProfile(db: Db, clientId: string): Promise<InterfaceProfile> {
  await requireClient(db, clientId);
  const history = (await findInterfaceProfileRevisions(db, clientId)).map(toInterfaceProfileRevision);
  return { clientId, current: history[0] ?? null, history };
}

/** The client's interface profile in force (its latest revision), or undefined before the first. */
export async function getCurrentInterfaceProfile(
  db: Db,
  clientId: string,
): Promise<InterfaceProfileRevision | undefined> {
  const latest = await findLatestInterfaceProfileRevision(db, clientId);
  return latest ? toInterfaceProfileRevision(latest) : undefined;
}

/**
 * Which client's messages carry this sending identity (MSH-3, MSH-4, compared without case): the client and its
 * latest revision, or undefined when no client's latest revision names it. Appends keep one identity to one client;
 * should two ever claim it (rows written around this service), the answer is undefined rather than a guess.
 */
export async function findProfileForIdentity(
  db: Db,
  sendingApplication: string,
  sendingFacility: string,
): Promise<{ clientId: string; profile: InterfaceProfileRevision } | undefined> {
  const rows = await findLatestRevisionsForIdentity(db, { sendingApplication, sendingFacility });
  const [only] = rows;
  if (!only || rows.length > 1) return undefined;
  return { clientId: only.clientId, profile: toInterfaceProfileRevision(only) };
}

function staleBase(baseRevision: number | null, latest: InterfaceProfileRevisionRow | undefined): AppError {
  const current = latest ? toInterfaceProfileRevision(latest) : null;
  const currentRevision = latest?.revision ?? null;
  const message =
    currentRevision === null
      ? `The client has no interface profile yet, so the first revision must name baseRevision null (you sent ${baseRevision}).`
      : `The interface profile has changed: it is at revision ${currentRevision}, and you based your changes on ${baseRevision === null ? "no revision" : `revision ${baseRevision}`}. Reload it and apply your changes again.`;
  return new AppError("conflict", message, { current, currentRevision, baseRevision });
}

async function authorName(db: Db, username: string): Promise<string | null> {
  try {
    return (await getUserByUsername(db, username)).name;
  } catch {
    return null;
  }
}

/** Inbound messages find their client by MSH-3/MSH-4, so one identity may belong to one client only. */
async function assertIdentityFree(tx: Db, clientId: string, input: CreateInterfaceProfileRevision): Promise<void> {
  const [owner] = await findLatestRevisionsForIdentity(tx, input, clientId);
  if (!owner) return;
  const ownerName = (await requireClient(tx, owner.clientId)).name;
  throw new AppError(
    "conflict",
    `Messages from ${input.sendingApplication} at ${input.sendingFacility} (MSH-3 and MSH-4) already belong to ${ownerName}'s interface profile. Each sending identity identifies one client: ask the hospital which application and facility codes this client's messages carry.`,
    { ownerClientId: owner.clientId, ownerClientName: ownerName },
  );
}

/**
 * Appends revision N+1 when the caller based its changes on N (null for the first), exactly as the protocol's
 * revisions do: a stale base is a 409 carrying the current revision, and when two appends on one base race, the
 * advisory lock makes the second see the first (and the unique (client, revision) index would stop it anyway).
 */
export async function createInterfaceProfileRevision(
  db: Db,
  clientId: string,
  input: CreateInterfaceProfileRevision,
  actor: Actor,
): Promise<InterfaceProfileRevision> {
  // Read outside the transaction: PGlite has one connection, and the transaction holds it.
  const name = await authorName(db, actor.username);
  try {
    return await db.transaction(async (tx) => {
      await requireWritableClient(tx, clientId, "share");
      await lockInterfaceProfileAppends(tx);
      const latest = await findLatestInterfaceProfileRevision(tx, clientId);
      if (input.baseRevision !== (latest?.revision ?? null)) throw staleBase(input.baseRevision, latest);
      await assertIdentityFree(tx, clientId, input);
      const row = await insertInterfaceProfileRevision(tx, {
        clientId,
        revision: (latest?.revision ?? 0) + 1,
        enabled: input.enabled,
        sendingApplication: input.sendingApplication,
        sendingFacility: input.sendingFacility,
        mrnAssigningAuthority: input.mrnAssigningAuthority,
        visitNumberSource: input.visitNumberSource,
        receivingApplication: input.receivingApplication,
        receivingFacility: input.receivingFacility,
        destination: input.destination,
        resultStyle: input.resultStyle,
        hl7Version: input.hl7Version,
        orderStatusUpdates: input.orderStatusUpdates,
        changeNote: input.changeNote ?? null,
        authorSub: actor.sub,
        authorUsername: actor.username,
        authorName: name,
      });
      const revision = toInterfaceProfileRevision(row);
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          "interface-profile.revise",
          { type: "client", id: clientId },
          {
            revision: row.revision,
            baseRevision: input.baseRevision,
            changeNote: row.changeNote,
            // The CA certificate is long and says nothing a reader of the log needs: its presence is enough.
            changes: changesBetween(auditedContent(latest), auditedContent(row), contentFields),
          },
        ),
      );
      return revision;
    });
  } catch (error) {
    if (!isUniqueViolation(error, "interface_profile_revisions_client_revision_idx")) throw error;
    throw staleBase(input.baseRevision, await findLatestInterfaceProfileRevision(db, clientId));
  }
}

function auditedContent(row: InterfaceProfileRevisionRow | undefined): Record<string, unknown> {
  if (!row) return {};
  const content: Record<string, unknown> = Object.fromEntries(contentFields.map((field) => [field, row[field]]));
  const destination = row.destination;
  content.destination = destination
    ? { host: destination.host, port: destination.port, tls: destination.tls, ca: destination.caCertificate !== null }
    : null;
  return content;
}
