import type { BillableHoursReport, BillableHoursRow, Client, Technologist } from "@vigil/contract";
import type { ComponentType } from "react";
import { renderPageScreens, type ScreenOptions } from "../../../test/render-page-screens";
import { BillableHoursOverviewPage } from "../components/billable-hours-overview";
import { ClientReportPage } from "../components/client-report-print";
import { ReportingHomePage } from "../components/reporting-home";
import { ServiceLevelsPage } from "../components/service-levels-page";

const screens: Record<string, ComponentType> = {
  reporting: ReportingHomePage,
  "reporting-overview": BillableHoursOverviewPage,
  "reporting-client": ClientReportPage,
  "reporting-service-levels": ServiceLevelsPage,
};

/** Renders these screens on their page-table routes (see test/render-page-screens.tsx). */
export function renderReportingScreen(path: string, { groups = ["billing"], routes = {} }: ScreenOptions = {}) {
  return renderPageScreens(path, screens, { groups, routes, username: "alice" });
}

export const reportPath = "/api/reporting/continuous-monitoring/billable-hours";
export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";

export const clientOptions = [
  { id: clientId, name: "St. Mary's Regional Medical Center", code: "SMRMC" },
  { id: "2a0e4c1b-6d8f-4e1a-9b2c-3d4e5f607182", name: "Lakeside Children's Hospital", code: "LCH" },
];

export const technologists: Technologist[] = [
  { id: "3a1b2c3d-4e5f-4a6b-8c7d-000000000011", username: "taylor", name: "Taylor Technologist" },
  { id: "3a1b2c3d-4e5f-4a6b-8c7d-000000000013", username: "nora", name: "Nora Night" },
];

export function row(key: string, label: string, hours: string, caseCount = 1, logCount = 2): BillableHoursRow {
  return { key, label, hours, caseCount, logCount };
}

export function testReport(overrides: Partial<BillableHoursReport> = {}): BillableHoursReport {
  return {
    from: "2026-11-01",
    to: "2026-11-22",
    groupBy: "day",
    clientId: null,
    technologist: null,
    rows: [],
    totals: { hours: "0.00", caseCount: 0, logCount: 0 },
    generatedAt: "2026-11-22T14:14:00.000Z",
    ...overrides,
  };
}

/** A report whose figures follow the query it answers (period, grouping and filters echoed back). */
export function reportFor(url: URL, rows: BillableHoursRow[], totals: BillableHoursReport["totals"]) {
  const query = url.searchParams;
  return testReport({
    from: query.get("from") ?? "2026-11-01",
    to: query.get("to") ?? "2026-11-22",
    groupBy: (query.get("groupBy") ?? "month") as BillableHoursReport["groupBy"],
    clientId: query.get("clientId"),
    technologist: query.get("technologist"),
    rows,
    totals,
  });
}

export function testClient(overrides: Partial<Client> = {}): Client {
  return {
    id: clientId,
    name: "St. Mary's Regional Medical Center",
    code: "SMRMC",
    status: "active",
    timezone: "America/New_York",
    phone: "+16175550100",
    addressLine1: "1 Harbor Way",
    addressLine2: null,
    city: "Boston",
    region: "MA",
    postalCode: "02110",
    country: "USA",
    notes: null,
    archivedAt: null,
    openCaseCount: 2,
    version: 3,
    createdAt: "2026-01-05T14:00:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    ...overrides,
  };
}

/** A 400 as the server words a refused query (`details.issues` with `querystring.<field>` paths). */
export function refusedQuery(path: string, message: string): Response {
  return Response.json(
    {
      enoch: "release-1",
      error: {
        status: 400,
        code: "bad_request",
        message: `Invalid request: ${path} ${message}`,
        details: { issues: [{ path, message }] },
      },
    },
    { status: 400 },
  );
}

/** jsdom's Blob has no `text()`; FileReader it has. */
export function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

/** RFC 4180 lines → cells (quoted cells, doubled quotes, commas inside quotes); `#` comment lines are skipped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.replace(/^\uFEFF/, "").split("\r\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const cells: string[] = [];
    let cell = "";
    let quoted = false;
    for (let index = 0; index < line.length; index += 1) {
      const char = line[index];
      if (quoted) {
        if (char === '"' && line[index + 1] === '"') {
          cell += '"';
          index += 1;
        } else if (char === '"') quoted = false;
        else cell += char;
      } else if (char === '"') quoted = true;
      else if (char === ",") {
        cells.push(cell);
        cell = "";
      } else cell += char;
    }
    cells.push(cell);
    rows.push(cells);
  }
  return rows;
}
