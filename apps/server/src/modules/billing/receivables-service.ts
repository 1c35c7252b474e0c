import type {
  AgingReport,
  agingQuerySchema,
  StatementOfAccount,
  StatementOfAccountEntry,
  StatementOfAccountEntryKind,
  statementOfAccountQuerySchema,
} from "@vigil/contract";
import { statementOfAccountCsvColumns } from "@vigil/contract";
import { Temporal } from "temporal-polyfill";
import type { Db } from "../../db/client.js";
import { moneyOfCents } from "./billing-money.js";
import { requireBillingClient } from "./billing-service.js";
import { todayIn } from "./invoices-service.js";
import { findAccountEntries, findAgingRows, findClientBalanceCents } from "./receivables-repository.js";

/**
 * Aging and the statement of account (BILLING.md "Aging", "Statement of account"): both read the same balance
 * entries as of a date (what the client owes = invoices − credit notes − payments + reversals + refunds −
 * write-offs), and the open amounts by the one status rule (`invoice-status.ts`).
 */

type Parsed<T extends { parse: (value: unknown) => unknown }> = ReturnType<T["parse"]>;

/** `GET /billing/receivables/aging`: open amounts per client by days past due as of a date (default: today, UTC). */
export async function getAgingReport(
  db: Db,
  query: Parsed<typeof agingQuerySchema>,
  settings: { currency: string },
  now = new Date(),
): Promise<AgingReport> {
  const asOf = query.asOf ?? todayIn("UTC", now);
  const { rows, total, totals } = await findAgingRows(
    db,
    { asOf, clientId: query.clientId },
    { limit: query.limit, offset: query.offset },
  );
  const figures = (open: number, balance: number) => ({
    open: moneyOfCents(open),
    // What the client has paid beyond its open invoices: unallocated payments and credit notes beyond an invoice.
    credit: moneyOfCents(Math.max(open - balance, 0)),
    balance: moneyOfCents(balance),
  });
  return {
    asOf,
    currency: settings.currency,
    items: rows.map((row) => ({
      client: { id: row.clientId, name: row.clientName },
      current: moneyOfCents(row.currentCents),
      days1to30: moneyOfCents(row.days1to30Cents),
      days31to60: moneyOfCents(row.days31to60Cents),
      days61to90: moneyOfCents(row.days61to90Cents),
      over90: moneyOfCents(row.over90Cents),
      ...figures(row.openCents, row.balanceCents),
      oldestOverdue:
        row.oldestId && row.oldestNumber && row.oldestDueDate
          ? {
              invoiceId: row.oldestId,
              number: row.oldestNumber,
              dueDate: row.oldestDueDate,
              daysPastDue: Temporal.PlainDate.from(row.oldestDueDate).until(asOf).days,
            }
          : null,
    })),
    total,
    limit: query.limit,
    offset: query.offset,
    totals: {
      current: moneyOfCents(totals.current),
      days1to30: moneyOfCents(totals.d1),
      days31to60: moneyOfCents(totals.d31),
      days61to90: moneyOfCents(totals.d61),
      over90: moneyOfCents(totals.d91),
      ...figures(totals.open, totals.balance),
    },
  };
}

const describeKind: Record<StatementOfAccountEntryKind, string> = {
  invoice: "Invoice",
  supplementary: "Supplementary invoice",
  "credit-note": "Credit note",
  payment: "Payment received",
  "payment-reversal": "Payment reversed",
  allocation: "Payment applied",
  refund: "Refund",
  "write-off": "Written off",
};

function descriptionOf(
  kind: StatementOfAccountEntryKind,
  detail: string | null,
  reference: string | null,
  cents: number,
) {
  switch (kind) {
    case "invoice":
      return `Invoice for ${detail ?? ""}`;
    case "supplementary":
    case "credit-note":
      return `${describeKind[kind]} for ${reference ?? ""}${detail ? `: ${detail}` : ""}`;
    case "payment":
      return `Payment received (${reference ?? ""})${detail ? ` from ${detail}` : ""}`;
    case "allocation":
      return cents < 0
        ? `Application of ${moneyOfCents(-cents)} to ${reference ?? ""} reversed${detail ? `: ${detail}` : ""}`
        : `${moneyOfCents(cents)} applied to ${reference ?? ""}`;
    default:
      return `${describeKind[kind]}${detail ? `: ${detail}` : ""}`;
  }
}

/**
 * `GET /billing/clients/{client}/statement-of-account`: the balance at the start of the period, every entry dated in
 * it (dates are the client's calendar days) with the running balance, and the balance at its end.
 */
export async function getStatementOfAccount(
  db: Db,
  clientId: string,
  query: Parsed<typeof statementOfAccountQuerySchema>,
  settings: { currency: string },
): Promise<StatementOfAccount> {
  const client = await requireBillingClient(db, clientId);
  const dayBefore = Temporal.PlainDate.from(query.from).subtract({ days: 1 }).toString();
  const [opening, rows] = await Promise.all([
    findClientBalanceCents(db, clientId, dayBefore),
    findAccountEntries(db, clientId, query.from, query.to),
  ]);
  let balance = opening;
  const entries: StatementOfAccountEntry[] = rows.map((row) => {
    const kind = row.kind as StatementOfAccountEntryKind;
    // An allocation moves money from the client's credit onto an invoice: it changes no balance.
    const moves = kind === "allocation" ? 0 : row.cents;
    balance += moves;
    return {
      date: row.onDate,
      kind,
      document: row.document,
      description: descriptionOf(kind, row.detail, row.reference, row.cents),
      debit: moneyOfCents(Math.max(moves, 0)),
      credit: moneyOfCents(Math.max(-moves, 0)),
      balance: moneyOfCents(balance),
    };
  });
  return {
    client: { id: client.id, name: client.name, timezone: client.timezone },
    from: query.from,
    to: query.to,
    currency: settings.currency,
    openingBalance: moneyOfCents(opening),
    entries,
    closingBalance: moneyOfCents(balance),
  };
}

function cell(value: string, numeric = false): string {
  let text = value;
  if (!numeric && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The statement of account as CSV: the opening balance, each entry, the closing balance (CRLF lines). */
export function statementOfAccountCsv(statement: StatementOfAccount): string {
  const lines = [
    statementOfAccountCsvColumns.join(","),
    [statement.from, "opening-balance", "", "Balance brought forward", "", "", statement.openingBalance]
      .map((value, index) => cell(value, index === 6))
      .join(","),
    ...statement.entries.map((entry) =>
      [
        cell(entry.date),
        cell(entry.kind),
        cell(entry.document),
        cell(entry.description),
        cell(entry.debit, true),
        cell(entry.credit, true),
        cell(entry.balance, true),
      ].join(","),
    ),
    [statement.to, "closing-balance", "", "Balance", "", "", statement.closingBalance]
      .map((value, index) => cell(value, index === 6))
      .join(","),
  ];
  return `${lines.join("\r\n")}\r\n`;
}
