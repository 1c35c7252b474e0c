import { createHash } from "node:crypto";
import type {
  BillingExport,
  BillingExportAccounts,
  BillingExportAccountsContent,
  BillingExportChanges,
  BillingExportDocument,
  BillingExportFile,
  CreateBillingExport,
  SetBillingExportAccounts,
} from "@vigil/contract";
import { auditedWrite } from "../../audit/audited-write.js";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { exportFile, exportParts } from "./billing-exports-format.js";
import {
  type ExportAccountsRow,
  type ExportRow,
  findDocumentsIssued,
  findExportAccounts,
  findLastExport,
  findPaymentsIn,
  insertExport,
  listExports,
  saveExportAccounts,
} from "./billing-exports-repository.js";
import type { BillingActor } from "./billing-service.js";

/** QuickBooks' own default names, until the company maps its chart of accounts. */
export const defaultExportAccounts: BillingExportAccountsContent = {
  serviceItem: "EEG monitoring",
  incomeAccount: "Monitoring Income",
  creditNotesAccount: "Monitoring Income",
  receivablesAccount: "Accounts Receivable",
  undepositedFundsAccount: "Undeposited Funds",
  taxAccount: "Sales Tax Payable",
  taxType: "Tax Exempt",
};

function toAccounts(row: ExportAccountsRow | undefined): BillingExportAccounts {
  if (!row) return { version: null, ...defaultExportAccounts };
  return {
    serviceItem: row.serviceItem,
    incomeAccount: row.incomeAccount,
    creditNotesAccount: row.creditNotesAccount,
    receivablesAccount: row.receivablesAccount,
    undepositedFundsAccount: row.undepositedFundsAccount,
    taxAccount: row.taxAccount,
    taxType: row.taxType,
    version: row.version,
  };
}

/** `GET /billing/export-accounts`. */
export async function getExportAccounts(db: Db): Promise<BillingExportAccounts> {
  return toAccounts(await findExportAccounts(db));
}

/** `PUT /billing/export-accounts`: replaces the mapping the user saw (409 when it changed since). */
export async function setExportAccounts(
  db: Db,
  input: SetBillingExportAccounts,
  actor: BillingActor,
): Promise<BillingExportAccounts> {
  return db.transaction(async (tx) => {
    const { baseVersion, ...content } = input;
    const saved = await saveExportAccounts(tx, { updatedByUsername: actor.username, ...content }, baseVersion);
    if (!saved) {
      throw new AppError(
        "conflict",
        "The account names were changed by someone else since you opened them. Review them and save again.",
        { current: toAccounts(await findExportAccounts(tx)) },
      );
    }
    const accounts = toAccounts(saved);
    await recordAudit(
      tx,
      auditedWrite(actor, "billing.export-accounts.set", { type: "company", id: "company" }, accounts),
    );
    return accounts;
  });
}

function toExport(row: ExportRow): BillingExport {
  return {
    id: row.id,
    from: row.periodFrom,
    to: row.periodTo,
    format: row.format,
    documents: row.documents,
    changes: row.changes,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdByUsername,
  };
}

/** `GET /billing/exports`: the newest 100. */
export async function listBillingExports(db: Db): Promise<BillingExport[]> {
  return (await listExports(db, 100)).map(toExport);
}

/** New, changed (another fingerprint) and removed documents against the previous export of the period. */
function changesSince(previous: ExportRow | undefined, documents: readonly BillingExportDocument[]) {
  if (!previous) return null;
  const before = new Map(previous.documents.map((document) => [document.id, document]));
  const now = new Set(documents.map((document) => document.id));
  const changes: BillingExportChanges = {
    previousExportId: previous.id,
    added: documents.filter((document) => !before.has(document.id)).map((document) => document.number),
    changed: documents
      .filter((document) => {
        const earlier = before.get(document.id);
        return earlier !== undefined && earlier.fingerprint !== document.fingerprint;
      })
      .map((document) => document.number),
    removed: previous.documents.filter((document) => !now.has(document.id)).map((document) => document.number),
  };
  return changes;
}

const fileKinds = {
  iif: { extension: "iif", contentType: "application/vnd.intu.qbo; charset=utf-8" },
  "quickbooks-online-csv": { extension: "csv", contentType: "text/csv; charset=utf-8" },
  "xero-csv": { extension: "csv", contentType: "text/csv; charset=utf-8" },
} as const;

/**
 * `POST /billing/exports`: the period's documents (issue dates) and payments in the format, kept in the history
 * with a fingerprint per document and what changed since the previous export of the same period and format.
 */
export async function createBillingExport(
  db: Db,
  input: CreateBillingExport,
  actor: BillingActor,
): Promise<BillingExportFile> {
  return db.transaction(async (tx) => {
    const accounts = toAccounts(await findExportAccounts(tx));
    const documents = await findDocumentsIssued(tx, input.from, input.to);
    const { received, reversed } = await findPaymentsIn(tx, input.from, input.to);
    const parts = exportParts(input.format, { documents, payments: received, reversals: reversed, accounts });
    const carried: BillingExportDocument[] = parts.map((part) => ({
      id: part.id,
      number: part.number,
      kind: part.kind,
      issueDate: part.issueDate,
      total: part.total,
      fingerprint: createHash("sha256").update(JSON.stringify(part.rows)).digest("hex"),
    }));
    const previous = await findLastExport(tx, input.from, input.to, input.format);
    const row = await insertExport(tx, {
      periodFrom: input.from,
      periodTo: input.to,
      format: input.format,
      documents: carried,
      changes: changesSince(previous, carried),
      createdByUsername: actor.username,
    });
    await recordAudit(
      tx,
      auditedWrite(
        actor,
        "billing.export.created",
        { type: "billing-export", id: row.id },
        {
          from: input.from,
          to: input.to,
          format: input.format,
          documents: carried.length,
        },
      ),
    );
    const kind = fileKinds[input.format];
    return {
      export: toExport(row),
      fileName: `vigil-${input.format}-${input.from}-to-${input.to}.${kind.extension}`,
      contentType: kind.contentType,
      content: exportFile(input.format, parts),
    };
  });
}
