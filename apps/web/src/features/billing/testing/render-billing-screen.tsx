import type {
  BillingMonthRow,
  BillingOverview,
  BillingStatement,
  ClientMonthRate,
  Invoice,
  InvoiceAllocations,
  IssuedStatement,
  StatementCase,
} from "@vigil/contract";
import type { ComponentType } from "react";
import { renderPageScreens, type ScreenOptions } from "../../../test/render-page-screens";
import { BillingClientPage } from "../components/billing-client";
import { BillingPage } from "../components/billing-landing";
import { BillingOverviewPage } from "../components/billing-overview";
import { BillingStatementPage } from "../components/billing-statement";
import { BillingInvoicesPage } from "../components/invoice-list";
import { BillingInvoicePage } from "../components/invoice-print";

const screens: Record<string, ComponentType> = {
  billing: BillingPage,
  "billing-overview": BillingOverviewPage,
  "billing-client": BillingClientPage,
  "billing-statement": BillingStatementPage,
  "billing-invoices": BillingInvoicesPage,
  "billing-invoice": BillingInvoicePage,
};

/** Renders these screens on their page-table routes (see test/render-page-screens.tsx). */
export function renderBillingScreen(path: string, { groups = ["billing"], routes = {} }: ScreenOptions = {}) {
  return renderPageScreens(path, screens, { groups, routes, username: "bailey" });
}

export const billingApi = "/api/billing/continuous-monitoring";
export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
export const otherClientId = "2a0e4c1b-6d8f-4e1a-9b2c-3d4e5f607182";

export function testOwnRate(overrides: Partial<ClientMonthRate> = {}): ClientMonthRate {
  return {
    clientId,
    month: "2026-10",
    hourlyRate: "120.00",
    version: 2,
    setAt: "2026-10-03T14:00:00.000Z",
    setBy: { sub: null, username: "bailey", name: "Bailey Biller" },
    reason: null,
    ...overrides,
  };
}

export function testRow(overrides: Partial<BillingMonthRow> = {}): BillingMonthRow {
  return {
    clientId,
    clientName: "St. Mary's Regional Medical Center",
    clientTimezone: "America/New_York",
    month: "2026-10",
    hours: "1234.50",
    caseCount: 7,
    rate: { hourlyRate: "120.00", fromMonth: "2026-10", inherited: false },
    ownRate: testOwnRate(),
    amount: "148140.00",
    rateMissing: false,
    invoiced: false,
    statementNumber: null,
    provisional: false,
    ...overrides,
  };
}

export function testOverview(
  items: BillingMonthRow[],
  overrides: Partial<BillingOverview> = {},
  paging: { total?: number; limit?: number; offset?: number } = {},
): BillingOverview {
  return {
    items,
    total: paging.total ?? items.length,
    limit: paging.limit ?? 25,
    offset: paging.offset ?? 0,
    currency: "USD",
    from: "2025-12",
    to: "2026-11",
    totals: { hours: "1300.75", amount: "148140.00", monthsWithoutRate: 1 },
    // Every client on the page, owing nothing (tests of the receivables columns name their own).
    receivables: [...new Set(items.map((item) => item.clientId))].map((id) => ({
      clientId: id,
      balance: "0.00",
      oldestOverdue: null,
    })),
    ...overrides,
  };
}

export function testStatementCase(overrides: Partial<StatementCase> = {}): StatementCase {
  return {
    caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000001",
    caseNumber: "CM-2026-000123",
    patientName: "Doe, Jane",
    stage: "closed",
    hours: "26.25",
    amount: "3150.00",
    logCount: 3,
    running: false,
    cpt: {
      recordingHours: "26.25",
      videoPercent: 100,
      lines: [
        {
          code: "95720",
          units: 1,
          component: "professional",
          description: "Long-term EEG with video, 12–26 hours, interpretation",
          basis: "26.25 h, video 100 %",
        },
        {
          code: "95700",
          units: 1,
          component: "technical",
          description: "EEG setup by a technologist",
          basis: "at least 8 channels",
        },
      ],
      warnings: [],
    },
    ...overrides,
  };
}

export function testStatement(overrides: Partial<BillingStatement> = {}): BillingStatement {
  return {
    client: { id: clientId, name: "St. Mary's Regional Medical Center", timezone: "America/New_York" },
    month: "2026-11",
    periodStart: "2026-11-01T04:00:00.000Z",
    periodEnd: "2026-12-01T05:00:00.000Z",
    currency: "USD",
    rate: { hourlyRate: "120.00", fromMonth: "2026-10", inherited: true },
    ownRate: null,
    rateMissing: false,
    invoiced: false,
    provisional: false,
    cases: [testStatementCase()],
    totals: { hours: "26.25", amount: "3150.00", caseCount: 1 },
    roundingNote:
      "Each case's amount is its hours × the rate, rounded half-up to cents; totals are sums of the rounded lines.",
    generatedAt: "2026-12-02T15:30:00.000Z",
    fingerprint: "fingerprint-of-the-live-figures",
    issued: null,
    changesSinceIssue: null,
    adjustments: [],
    issueRefusal: null,
    ...overrides,
  };
}

/** The statement `testStatement()` shows, issued as No. 4. */
export function testIssuedStatement(overrides: Partial<IssuedStatement> = {}): IssuedStatement {
  const live = testStatement();
  return {
    id: "5d4c3b2a-1111-4a2b-9c3d-000000000009",
    number: 4,
    client: live.client,
    month: live.month,
    periodStart: live.periodStart,
    periodEnd: live.periodEnd,
    currency: "USD",
    rate: { hourlyRate: "120.00", fromMonth: "2026-10", inherited: true },
    lines: live.cases.map(({ running: _running, ...line }) => ({ ...line, amount: line.amount ?? "0.00" })),
    totals: { hours: "26.25", amount: "3150.00", caseCount: 1 },
    roundingNote: live.roundingNote,
    issuedAt: "2026-12-03T14:00:00.000Z",
    issuedBy: { sub: null, username: "bailey", name: "Bailey Biller" },
    invoice: { id: "5d4c3b2a-1111-4a2b-9c3d-00000000000a", number: "INV-2026-00004" },
    ...overrides,
  };
}

/** The invoice page's payments and credits when nothing was applied yet (`testInvoice`'s 400.00 due). */
export const noAllocations: InvoiceAllocations = {
  invoiceId: "5d4c3b2a-1111-4a2b-9c3d-00000000001b",
  number: "INV-2026-00019",
  currency: "USD",
  total: "400.00",
  entries: [],
  amountDue: "400.00",
};

/** An overdue invoice with 250.00 of 400.00 open (credit-note, paid and written-off ones by overrides). */
export function testInvoice(overrides: Partial<Invoice>): Invoice {
  return {
    id: "5d4c3b2a-1111-4a2b-9c3d-00000000001b",
    kind: "invoice",
    number: "INV-2026-00019",
    client: { id: clientId, name: "St. Mary's Regional Medical Center" },
    month: "2026-08",
    issueDate: "2026-09-01",
    dueDate: "2026-10-01",
    currency: "USD",
    subtotal: "400.00",
    tax: "0.00",
    total: "400.00",
    status: "overdue",
    open: "250.00",
    corrects: null,
    statementId: "5d4c3b2a-1111-4a2b-9c3d-000000000019",
    reason: null,
    paymentTermsDays: 30,
    billTo: { name: "St. Mary's", address: [], poNumber: null },
    hourlyRate: "100.00",
    taxRatePercent: null,
    lines: [],
    pdfSha256: "ab".repeat(32),
    issuedAt: "2026-09-01T14:00:00.000Z",
    issuedBy: { sub: null, username: "bailey", name: "Bailey Biller" },
    issuer: { name: "Vigil Neurodiagnostics", details: "" },
    ...overrides,
  } as unknown as Invoice;
}
