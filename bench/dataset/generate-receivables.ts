/**
 * Three years of receivables for every client (BILLING.md "Payments and receivables"), written by SQL in the
 * database after the bulk load: one issued invoice per client and month for the 36 months before the current one,
 * and for all but the last two months a payment with its allocation. Every ninth payment covers half its invoice
 * (old open amounts in every aging bucket), every thirteenth pays 50.00 more than owed (a client credit), so the
 * aging report and the statement of account read a ledger shaped like a running service's.
 *
 * Set-based (`insert … select` over `generate_series`): the same statements on PostgreSQL and PGlite, a second at
 * the full scale. Invoices carry no lines or PDF (neither read sums them); the numbers follow the invoice series
 * without gaps per year and the counters are set past them, so an invoice issued later takes the next number.
 */

export type RunSql = (text: string, params?: unknown[]) => Promise<unknown>;

export const receivablesMonths = 36;

export async function generateReceivables(run: RunSql, now: Date): Promise<void> {
  const today = now.toISOString().slice(0, 10);
  await run("drop table if exists bench_receivables");
  await run(
    `create temporary table bench_receivables as
     select gen_random_uuid() as invoice_id, gen_random_uuid() as payment_id, gen_random_uuid() as allocation_id,
       c.id as client_id, c.name as client_name, c.ordinal, m.back,
       to_char(m.month_start, 'YYYY-MM') as month,
       (m.month_start + interval '1 month')::date as issue_date,
       (200000 + (c.ordinal * 7919 + m.back * 104729) % 800000)::bigint as total_cents,
       extract(year from (m.month_start + interval '1 month'))::int as year
     from (select id, name, row_number() over (order by id) as ordinal from clients) c
     cross join (
       select gs as back, (date_trunc('month', $1::date) - make_interval(months => gs))::date as month_start
       from generate_series(1, ${receivablesMonths}) gs
     ) m`,
    [today],
  );
  await run(
    `insert into invoices (id, kind, series, year, sequence, number, client_id, month, issue_date, due_date,
       payment_terms_days, bill_to_name, bill_to_address, currency, hourly_rate, subtotal, tax_amount, total,
       shows_patient_names, pdf, pdf_sha256, issued_at, issued_by_username)
     select invoice_id, 'invoice', 'INV', year, seq, 'INV-' || year || '-' || lpad(seq::text, 5, '0'), client_id,
       month, issue_date, issue_date + 30, 30, client_name, '[]'::jsonb, 'USD', 150, total_cents / 100.0, 0,
       total_cents / 100.0, false, '\\x'::bytea, '', issue_date + interval '9 hours', 'bench-admin'
     from (select *, row_number() over (partition by year order by issue_date, client_id)::int as seq
           from bench_receivables) numbered`,
  );
  await run(
    `insert into billing_document_counters (series, year, last_number)
     select 'INV', year, count(*) from bench_receivables group by year
     on conflict (series, year) do update set last_number = billing_document_counters.last_number + excluded.last_number`,
  );
  // Paid 20–44 days after issue (never after today); the last two months are still open.
  await run(
    `create temporary table bench_payments as
     select payment_id, allocation_id, invoice_id, client_id,
       least(issue_date + 20 + ((ordinal + back) % 25)::int, $1::date) as received_on,
       case when (ordinal + back) % 9 = 0 then total_cents / 2
            when (ordinal * back) % 13 = 0 then total_cents + 5000
            else total_cents end as amount_cents,
       total_cents
     from bench_receivables where back > 2`,
    [today],
  );
  await run(
    `insert into payments (id, client_id, received_on, amount_cents, currency, method, reference, payer,
       recorded_at, recorded_by_username)
     select payment_id, client_id, received_on, amount_cents, 'USD', 'ach',
       'BENCH-' || left(payment_id::text, 8), null, received_on + interval '10 hours', 'bench-admin'
     from bench_payments`,
  );
  await run(
    `insert into payment_allocations (id, payment_id, invoice_id, client_id, amount_cents, allocated_on,
       recorded_at, recorded_by_username)
     select allocation_id, payment_id, invoice_id, client_id, least(amount_cents, total_cents), received_on,
       received_on + interval '10 hours', 'bench-admin'
     from bench_payments`,
  );
  await run("drop table bench_payments");
  await run("drop table bench_receivables");
}
