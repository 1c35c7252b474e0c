import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { invoices } from "../../db/schema.js";
import { openCentsSql } from "./invoice-status.js";

/**
 * Aging and the statement of account, as SQL aggregates over the receivables ledger (BILLING.md "Aging"): a year of
 * every client's invoices and payments is summed in the database and crosses the wire as one row per client.
 */

type Rows<T> = { rows: T[] };

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as Rows<T> | T[];
  return Array.isArray(result) ? result : result.rows;
}

/**
 * Every ledger entry that moves a client's balance, as (client, date, signed cents): invoices and supplementary
 * invoices owe (+), credit notes and payments pay (−), a payment's reversal and a refund owe again (+), a write-off
 * forgives (−). Allocations move money from the client's credit onto an invoice and change no balance.
 */
function balanceEntriesSql(): SQL {
  return sql`
    select client_id, issue_date as on_date,
      case when kind = 'credit-note' then -(round(total * 100))::bigint else (round(total * 100))::bigint end as cents
      from invoices
    union all select client_id, received_on, -amount_cents from payments
    union all select p.client_id, r.reversed_on, p.amount_cents from payment_reversals r join payments p on p.id = r.payment_id
    union all select client_id, refunded_on, amount_cents from payment_refunds
    union all select client_id, written_off_on, -amount_cents from invoice_write_offs`;
}

export type AgingRowData = {
  clientId: string;
  clientName: string;
  currentCents: number;
  days1to30Cents: number;
  days31to60Cents: number;
  days61to90Cents: number;
  over90Cents: number;
  openCents: number;
  balanceCents: number;
  oldestId: string | null;
  oldestNumber: string | null;
  oldestDueDate: string | null;
};

type RawAgingRow = Record<string, string | number | null>;

const bucketColumns = ["current", "d1", "d31", "d61", "d91", "open", "balance"] as const;

/**
 * One page of clients (by name) with their open amounts by days past due as of `asOf`, their balance and oldest
 * overdue invoice, plus the count and the totals over every client the filter matches (window sums).
 */
export async function findAgingRows(
  db: Db,
  filter: { asOf: string; clientId?: string | undefined; clientIds?: readonly string[] },
  page: { limit: number; offset: number },
): Promise<{ rows: AgingRowData[]; total: number; totals: Record<(typeof bucketColumns)[number], number> }> {
  const { asOf } = filter;
  // The client filter applies inside each aggregate too, so one client's figures never sum everyone's invoices.
  const onClients = (column: SQL) =>
    sql`${filter.clientId ? sql`and ${column} = ${filter.clientId}` : sql``} ${
      filter.clientIds
        ? sql`and ${column} in (${sql.join([sql`null`, ...filter.clientIds.map((id) => sql`${id}::uuid`)], sql`, `)})`
        : sql``
    }`;
  const raw = await rowsOf<RawAgingRow>(
    db,
    sql`
    with open_invoices as (
      select ${invoices.clientId} as client_id, ${invoices.id} as id, ${invoices.number} as number,
        ${invoices.dueDate} as due_date, ${openCentsSql(asOf)} as open_cents
      from ${invoices}
      where ${invoices.kind} <> 'credit-note' and ${invoices.issueDate} <= ${asOf} ${onClients(sql`${invoices.clientId}`)}
    ),
    per_client as (
      select client_id,
        sum(case when due_date >= ${asOf}::date then greatest(open_cents, 0) else 0 end) as current,
        sum(case when ${asOf}::date - due_date between 1 and 30 then greatest(open_cents, 0) else 0 end) as d1,
        sum(case when ${asOf}::date - due_date between 31 and 60 then greatest(open_cents, 0) else 0 end) as d31,
        sum(case when ${asOf}::date - due_date between 61 and 90 then greatest(open_cents, 0) else 0 end) as d61,
        sum(case when ${asOf}::date - due_date > 90 then greatest(open_cents, 0) else 0 end) as d91,
        sum(greatest(open_cents, 0)) as open
      from open_invoices group by client_id
    ),
    oldest as (
      select distinct on (client_id) client_id, id, number, due_date from open_invoices
      where open_cents > 0 and due_date < ${asOf}::date
      order by client_id, due_date, number
    ),
    balances as (
      select client_id, sum(cents) as balance from (${balanceEntriesSql()}) entries
      where on_date <= ${asOf}::date ${onClients(sql`client_id`)} group by client_id
    )
    select c.id as client_id, c.name as client_name,
      coalesce(p.current, 0) as current, coalesce(p.d1, 0) as d1, coalesce(p.d31, 0) as d31,
      coalesce(p.d61, 0) as d61, coalesce(p.d91, 0) as d91, coalesce(p.open, 0) as open,
      coalesce(b.balance, 0) as balance,
      o.id as oldest_id, o.number as oldest_number, o.due_date::text as oldest_due_date,
      count(*) over () as total_count,
      sum(coalesce(p.current, 0)) over () as t_current, sum(coalesce(p.d1, 0)) over () as t_d1,
      sum(coalesce(p.d31, 0)) over () as t_d31, sum(coalesce(p.d61, 0)) over () as t_d61,
      sum(coalesce(p.d91, 0)) over () as t_d91, sum(coalesce(p.open, 0)) over () as t_open,
      sum(coalesce(b.balance, 0)) over () as t_balance
    from clients c
    left join per_client p on p.client_id = c.id
    left join balances b on b.client_id = c.id
    left join oldest o on o.client_id = c.id
    where (p.client_id is not null or b.client_id is not null) ${onClients(sql`c.id`)}
    order by c.name, c.id
    limit ${page.limit} offset ${page.offset}`,
  );
  const first = raw[0];
  const totals = Object.fromEntries(
    bucketColumns.map((column) => [column, Number(first?.[`t_${column === "current" ? "current" : column}`] ?? 0)]),
  ) as Record<(typeof bucketColumns)[number], number>;
  return {
    rows: raw.map((row) => ({
      clientId: String(row.client_id),
      clientName: String(row.client_name),
      currentCents: Number(row.current),
      days1to30Cents: Number(row.d1),
      days31to60Cents: Number(row.d31),
      days61to90Cents: Number(row.d61),
      over90Cents: Number(row.d91),
      openCents: Number(row.open),
      balanceCents: Number(row.balance),
      oldestId: row.oldest_id === null ? null : String(row.oldest_id),
      oldestNumber: row.oldest_number === null ? null : String(row.oldest_number),
      oldestDueDate: row.oldest_due_date === null ? null : String(row.oldest_due_date),
    })),
    total: Number(first?.total_count ?? 0),
    totals,
  };
}

/** A client's balance as of the end of a day (the sum of its balance entries dated on or before it). */
export async function findClientBalanceCents(db: Db, clientId: string, asOf: string): Promise<number> {
  const [row] = await rowsOf<{ balance: string | number | null }>(
    db,
    sql`select coalesce(sum(cents), 0) as balance from (${balanceEntriesSql()}) entries
      where client_id = ${clientId} and on_date <= ${asOf}::date`,
  );
  return Number(row?.balance ?? 0);
}

export type AccountEntryRow = {
  onDate: string;
  kind: string;
  document: string;
  detail: string | null;
  reference: string | null;
  cents: number;
};

/**
 * A client's ledger entries dated in [from, to], in the order they happened (date, then recording time), with
 * signed cents as they move the balance (allocations: the amount applied, which moves none).
 */
export async function findAccountEntries(
  db: Db,
  clientId: string,
  from: string,
  to: string,
): Promise<AccountEntryRow[]> {
  const raw = await rowsOf<Record<string, string | number | null>>(
    db,
    sql`
    select on_date::text as on_date, kind, document, detail, reference, cents, recorded_at from (
      select i.issue_date as on_date, i.kind, i.number as document,
        coalesce(i.reason, i.month) as detail, cor.number as reference,
        case when i.kind = 'credit-note' then -(round(i.total * 100))::bigint else (round(i.total * 100))::bigint end as cents,
        i.issued_at as recorded_at, 1 as rank
        from invoices i left join invoices cor on cor.id = i.corrects_invoice_id
        where i.client_id = ${clientId}
      union all select received_on, 'payment', coalesce(reference, ''), payer, method, -amount_cents, recorded_at, 2
        from payments where client_id = ${clientId}
      union all select a.allocated_on, 'allocation', coalesce(p.reference, ''), a.reason, i.number, a.amount_cents,
          a.recorded_at, 3
        from payment_allocations a join payments p on p.id = a.payment_id join invoices i on i.id = a.invoice_id
        where a.client_id = ${clientId}
      union all select r.reversed_on, 'payment-reversal', coalesce(p.reference, ''), r.reason, p.method, p.amount_cents,
          r.recorded_at, 4
        from payment_reversals r join payments p on p.id = r.payment_id where p.client_id = ${clientId}
      union all select refunded_on, 'refund', coalesce(reference, ''), reason, method, amount_cents, recorded_at, 5
        from payment_refunds where client_id = ${clientId}
      union all select w.written_off_on, 'write-off', i.number, w.reason, null, -w.amount_cents, w.recorded_at, 6
        from invoice_write_offs w join invoices i on i.id = w.invoice_id where w.client_id = ${clientId}
    ) entries
    where on_date between ${from}::date and ${to}::date
    order by on_date, recorded_at, rank`,
  );
  return raw.map((row) => ({
    onDate: String(row.on_date),
    kind: String(row.kind),
    document: String(row.document ?? ""),
    detail: row.detail === null ? null : String(row.detail),
    reference: row.reference === null ? null : String(row.reference),
    cents: Number(row.cents),
  }));
}
