import type { InvoiceKind, InvoiceStatus } from "@vigil/contract";
import { type SQL, sql } from "drizzle-orm";

/**
 * The one definition of an invoice's status (BILLING.md "Invoice status"): derived, never stored, from the ledger
 * entries dated on or before `asOf` — credit notes correcting it, allocations (net of their reversals) and a
 * write-off. They read the table `invoices` unaliased. `invoiceStatusOf` is the rule; `invoiceStatusSql` is the same rule for SQL (filters, aging, reminders),
 * and `invoice-status.test.ts` keeps the two equal. Every screen and job reads one of these.
 */
export type InvoiceReceivableFigures = {
  kind: InvoiceKind;
  dueDate: string;
  totalCents: number;
  /** Credit notes correcting this invoice, issued on or before the date. */
  creditedCents: number;
  /** Allocations to it net of reversed ones, dated on or before the date. */
  allocatedCents: number;
  /** The write-off's amount when it was written off on or before the date; 0 otherwise. */
  writtenOffCents: number;
};

/** total − credited − allocated − written off; negative when credit notes exceed what was left (a client credit). */
export function openCentsOf(figures: InvoiceReceivableFigures): number {
  if (figures.kind === "credit-note") return 0;
  return figures.totalCents - figures.creditedCents - figures.allocatedCents - figures.writtenOffCents;
}

/**
 * Written off, else paid once nothing is open, else overdue from the day after the due date, else partly paid
 * with an allocation, else issued. A credit note is owed to the client: always `issued`.
 */
export function invoiceStatusOf(figures: InvoiceReceivableFigures, asOf: string): InvoiceStatus {
  if (figures.kind === "credit-note") return "issued";
  if (figures.writtenOffCents > 0) return "written-off";
  if (openCentsOf(figures) <= 0) return "paid";
  if (figures.dueDate < asOf) return "overdue";
  if (figures.allocatedCents > 0) return "partly-paid";
  return "issued";
}

/** Overdue as the reminders see it: past due with something open, not written off (the status `overdue`). */
export function isOverdue(figures: InvoiceReceivableFigures, asOf: string): boolean {
  return invoiceStatusOf(figures, asOf) === "overdue";
}

/**
 * The outer invoice's columns, always table-qualified: drizzle writes a lone table's column as `"id"` in a select
 * list, which inside a correlated subquery would name the subquery's own column.
 */
const outer = {
  id: sql.raw(`"invoices"."id"`),
  kind: sql.raw(`"invoices"."kind"`),
  dueDate: sql.raw(`"invoices"."due_date"`),
  total: sql.raw(`"invoices"."total"`),
};

/** Cents of a numeric(…, 2) money column (exact: the column has 2 decimals). */
export const totalCentsSql = sql<number>`(round(${outer.total} * 100))::bigint`;

/** The figures of `invoices` (the outer row) as of a date, as correlated subqueries (index reads per invoice). */
export function invoiceFiguresSql(asOf: string): {
  creditedCents: SQL<number>;
  allocatedCents: SQL<number>;
  writtenOffCents: SQL<number>;
} {
  return {
    creditedCents: sql<number>`(select coalesce(sum(round(cn.total * 100)), 0)::bigint from invoices cn
      where cn.corrects_invoice_id = ${outer.id} and cn.kind = 'credit-note' and cn.issue_date <= ${asOf})`,
    allocatedCents: sql<number>`(select coalesce(sum(pa.amount_cents), 0)::bigint from payment_allocations pa
      where pa.invoice_id = ${outer.id} and pa.allocated_on <= ${asOf})`,
    writtenOffCents: sql<number>`(select coalesce(sum(wo.amount_cents), 0)::bigint from invoice_write_offs wo
      where wo.invoice_id = ${outer.id} and wo.written_off_on <= ${asOf})`,
  };
}

/** `openCentsOf` in SQL, over `invoiceFiguresSql`. */
export function openCentsSql(asOf: string): SQL<number> {
  const f = invoiceFiguresSql(asOf);
  return sql<number>`(case when ${outer.kind} = 'credit-note' then 0::bigint
    else ${totalCentsSql} - ${f.creditedCents} - ${f.allocatedCents} - ${f.writtenOffCents} end)`;
}

/** `invoiceStatusOf` in SQL: the same order of tests. */
export function invoiceStatusSql(asOf: string): SQL<InvoiceStatus> {
  const f = invoiceFiguresSql(asOf);
  return sql<InvoiceStatus>`(case
    when ${outer.kind} = 'credit-note' then 'issued'
    when ${f.writtenOffCents} > 0 then 'written-off'
    when ${openCentsSql(asOf)} <= 0 then 'paid'
    when ${outer.dueDate} < ${asOf} then 'overdue'
    when ${f.allocatedCents} > 0 then 'partly-paid'
    else 'issued' end)`;
}
