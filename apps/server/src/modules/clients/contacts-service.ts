import type { Contact, contactInputSchema } from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import { requireClient, requireWritableClient } from "./clients-service.js";
import {
  type ContactRow,
  type ContactValues,
  clearPrimaryContacts,
  findContact,
  findContactsOfClient,
  insertContact,
  updateContactRow,
} from "./contacts-repository.js";

type ContactInput = z.output<typeof contactInputSchema>;

/**
 * Told, in the write's transaction, when contacts stop being who was sent something (removed, dropped from the
 * protocol's report recipients, or given another address). The reports module voids their unused links with it;
 * `app.ts` hands it down, as clients asks no higher module (CODE_STYLE.md, layers).
 */
export type ContactsWithdrawnHook = (
  tx: Db,
  contactIds: readonly string[],
  reason: "recipient-removed" | "address-changed",
  actor: Actor,
) => Promise<unknown>;

export type ContactHooks = { onContactsWithdrawn?: ContactsWithdrawnHook | undefined };

export function toContact(row: ContactRow): Contact {
  return {
    _id: row.id,
    clientId: row.clientId,
    name: row.name,
    role: row.role,
    email: row.email,
    phone: row.phone,
    isPrimary: row.isPrimary,
    notifyOnCritical: row.notifyOnCritical,
    notes: row.notes,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toValues(input: ContactInput): ContactValues {
  return {
    name: input.name,
    role: input.role ?? null,
    email: input.email ?? null,
    phone: input.phone ?? null,
    isPrimary: input.isPrimary,
    notifyOnCritical: input.notifyOnCritical,
    notes: input.notes ?? null,
  };
}

const auditedFields = ["name", "role", "email", "phone", "isPrimary", "notifyOnCritical", "notes"] as const;

export async function listContacts(db: Db, clientId: string): Promise<Contact[]> {
  await requireClient(db, clientId);
  return (await findContactsOfClient(db, clientId)).map(toContact);
}

export async function getContact(db: Db, contactId: string): Promise<Contact> {
  const row = await findContact(db, contactId);
  if (!row) throw new AppError("not_found", `No contact with id ${contactId}.`);
  return toContact(row);
}

async function requireContact(db: Db, clientId: string, contactId: string): Promise<ContactRow> {
  const row = await findContact(db, contactId, { clientId, lock: "update" });
  if (!row) throw new AppError("not_found", `The client has no contact with id ${contactId}.`);
  return row;
}

// Contact writes lock the client row FOR UPDATE: they run one at a time per client, which is what keeps
// "at most one primary contact" true when two are made primary at once (there is no index to enforce it).

/** Adds a contact; a primary one takes over from the previous primary in the same transaction. */
export async function createContact(db: Db, clientId: string, input: ContactInput, actor: Actor): Promise<Contact> {
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "update");
    const previousPrimary = input.isPrimary ? await clearPrimaryContacts(tx, clientId) : [];
    const row = await insertContact(tx, { clientId, ...toValues(input) });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "contact.create",
        { type: "contact", id: row.id },
        { clientId, name: row.name, isPrimary: row.isPrimary, previousPrimary },
      ),
    );
    return toContact(row);
  });
}

export async function updateContact(
  db: Db,
  clientId: string,
  contactId: string,
  expectedVersions: readonly number[],
  input: ContactInput,
  actor: Actor,
  hooks: ContactHooks = {},
): Promise<Contact> {
  return db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "update");
    const before = await requireContact(tx, clientId, contactId);
    assertVersion(expectedVersions, before, () => toContact(before));
    const previousPrimary = input.isPrimary ? await clearPrimaryContacts(tx, clientId, contactId) : [];
    const after = (await updateContactRow(tx, contactId, toValues(input))) as ContactRow;
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "contact.update",
        { type: "contact", id: contactId },
        { clientId, version: after.version, changes: changesBetween(before, after, auditedFields), previousPrimary },
      ),
    );
    if (before.email && before.email.toLowerCase() !== after.email?.toLowerCase()) {
      await hooks.onContactsWithdrawn?.(tx, [contactId], "address-changed", actor);
    }
    return toContact(after);
  });
}

/** Marks the contact removed: lists skip it, the row and its audit trail stay. */
export async function removeContact(
  db: Db,
  clientId: string,
  contactId: string,
  actor: Actor,
  hooks: ContactHooks = {},
): Promise<void> {
  await db.transaction(async (tx) => {
    await requireWritableClient(tx, clientId, "update");
    const before = await requireContact(tx, clientId, contactId);
    await updateContactRow(tx, contactId, { removedAt: new Date() });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "contact.remove",
        { type: "contact", id: contactId },
        { clientId, name: before.name, wasPrimary: before.isPrimary },
      ),
    );
    await hooks.onContactsWithdrawn?.(tx, [contactId], "recipient-removed", actor);
  });
}
