import type { Client, clientInputSchema, clientListQuerySchema } from "@vigil/contract";
import type { z } from "zod";
import { type Actor, auditedWrite, changesBetween } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import { recomputeBillableFigures } from "../../db/billable-figures.js";
import type { Db } from "../../db/client.js";
import { isUniqueViolation } from "../../db/unique-violation.js";
import { AppError } from "../../errors/app-error.js";
import { assertVersion } from "../../http/versioning.js";
import {
  type ClientRow,
  type ClientValues,
  countOpenCasesByClient,
  findActiveClientIds,
  findClient,
  findClientName,
  findClientPage,
  insertClient,
  type RowLock,
  updateClientRow,
} from "./clients-repository.js";

type ClientInput = z.output<typeof clientInputSchema>;
type ClientListQuery = z.output<typeof clientListQuerySchema>;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client's display name, or undefined when the id names no client. */
export async function getClientName(db: Db, id: string): Promise<string | undefined> {
  return uuidPattern.test(id) ? findClientName(db, id) : undefined;
}

export function toClient(row: ClientRow, openCaseCount: number): Client {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    status: row.status,
    timezone: row.timezone,
    phone: row.phone,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    city: row.city,
    region: row.region,
    postalCode: row.postalCode,
    country: row.country,
    notes: row.notes,
    archivedAt: row.archivedAt?.toISOString() ?? null,
    openCaseCount,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Open cases (any stage but closed, not archived) per client id; every id asked for gets a number. */
async function countOpenCases(db: Db, clientIds: readonly string[]): Promise<Map<string, number>> {
  const counts = await countOpenCasesByClient(db, clientIds);
  return new Map(clientIds.map((id) => [id, counts.get(id) ?? 0]));
}

async function withOpenCases(db: Db, row: ClientRow): Promise<Client> {
  const counts = await countOpenCases(db, [row.id]);
  return toClient(row, counts.get(row.id) ?? 0);
}

/** The client, or 404. Other modules and the nested resources (protocol, contacts, links) start here. */
export async function requireClient(db: Db, id: string, lock?: RowLock): Promise<ClientRow> {
  const row = await findClient(db, id, lock);
  if (!row) throw new AppError("not_found", `No client with id ${id}.`);
  return row;
}

/** The client, or 404; archived clients are read-only, so a write to one is a 409. */
export async function requireWritableClient(db: Db, id: string, lock: RowLock): Promise<ClientRow> {
  const row = await requireClient(db, id, lock);
  if (row.archivedAt) {
    throw new AppError("conflict", `${row.name} is archived; restore it before changing it.`, {
      archivedAt: row.archivedAt.toISOString(),
    });
  }
  return row;
}

export async function listClients(db: Db, query: ClientListQuery) {
  const { rows, total } = await findClientPage(db, query);
  const counts = await countOpenCases(
    db,
    rows.map((row) => row.id),
  );
  return {
    items: rows.map((row) => toClient(row, counts.get(row.id) ?? 0)),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}

export function listClientIds(db: Db) {
  return findActiveClientIds(db);
}

export async function getClient(db: Db, id: string): Promise<Client> {
  return withOpenCases(db, await requireClient(db, id));
}

function toValues(input: ClientInput): ClientValues {
  return {
    name: input.name,
    code: input.code,
    status: input.status,
    timezone: input.timezone,
    phone: input.phone ?? null,
    addressLine1: input.addressLine1 ?? null,
    addressLine2: input.addressLine2 ?? null,
    city: input.city ?? null,
    region: input.region ?? null,
    postalCode: input.postalCode ?? null,
    country: input.country ?? null,
    notes: input.notes ?? null,
  };
}

const auditedFields = [
  "name",
  "code",
  "status",
  "timezone",
  "phone",
  "addressLine1",
  "addressLine2",
  "city",
  "region",
  "postalCode",
  "country",
  "notes",
] as const;

/** The unique index on lower(code) decides, so two clients created at once cannot share a code. */
async function refusingTakenCode<T>(code: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error, "clients_code_idx")) throw error;
    const issue = { path: "body.code", message: `${code} is already used by another client (archived ones included)` };
    throw new AppError("conflict", `The client code ${code} is already taken.`, { field: "code", issues: [issue] });
  }
}

export async function createClient(db: Db, input: ClientInput, actor: Actor): Promise<Client> {
  return refusingTakenCode(input.code, () =>
    db.transaction(async (tx) => {
      const row = await insertClient(tx, toValues(input));
      await recordAudit(
        tx,
        auditedWrite(actor, "client.create", { type: "client", id: row.id }, { name: row.name, code: row.code }),
      );
      return toClient(row, 0);
    }),
  );
}

export async function updateClient(
  db: Db,
  id: string,
  expectedVersions: readonly number[],
  input: ClientInput,
  actor: Actor,
): Promise<Client> {
  return refusingTakenCode(input.code, () =>
    db.transaction(async (tx) => {
      const before = await requireWritableClient(tx, id, "update");
      const counts = await countOpenCases(tx, [id]);
      const openCaseCount = counts.get(id) ?? 0;
      assertVersion(expectedVersions, before, () => toClient(before, openCaseCount));
      const values = toValues(input);
      const after = (await updateClientRow(tx, id, values)) as ClientRow;
      // The kept billable figures are days of the client's calendar: a new zone moves every one of them.
      if (after.timezone !== before.timezone) await recomputeBillableFigures(tx, id);
      await recordAudit(
        tx,
        auditedWrite(
          actor,
          "client.update",
          { type: "client", id },
          { version: after.version, changes: changesBetween(before, after, auditedFields) },
        ),
      );
      return toClient(after, openCaseCount);
    }),
  );
}

/**
 * DELETE archives: the client disappears from lists and pickers but keeps its history, cases and code.
 * Refused while any of its cases is still open (not closed), so no running case loses its client.
 */
export async function archiveClient(db: Db, id: string, actor: Actor): Promise<Client> {
  return db.transaction(async (tx) => {
    const row = await requireClient(tx, id, "update");
    if (row.archivedAt) throw new AppError("conflict", `${row.name} is already archived.`);
    const openCaseCount = (await countOpenCases(tx, [id])).get(id) ?? 0;
    if (openCaseCount > 0) {
      throw new AppError(
        "conflict",
        `${row.name} has ${openCaseCount} open ${openCaseCount === 1 ? "case" : "cases"}; close ${openCaseCount === 1 ? "it" : "them"} before archiving the client.`,
        { openCaseCount },
      );
    }
    const after = (await updateClientRow(tx, id, { archivedAt: new Date() })) as ClientRow;
    await recordAudit(
      tx,
      auditedWrite(actor, "client.archive", { type: "client", id }, { name: row.name, code: row.code }),
    );
    return toClient(after, 0);
  });
}

export async function restoreClient(db: Db, id: string, actor: Actor): Promise<Client> {
  return db.transaction(async (tx) => {
    const row = await requireClient(tx, id, "update");
    if (!row.archivedAt) throw new AppError("conflict", `${row.name} is not archived.`);
    const after = (await updateClientRow(tx, id, { archivedAt: null })) as ClientRow;
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "client.restore",
        { type: "client", id },
        { name: row.name, code: row.code, archivedAt: row.archivedAt.toISOString() },
      ),
    );
    return withOpenCases(tx, after);
  });
}
