import type { Case, Contact, ReportDelivery, ReportList, ReportVersion } from "@vigil/contract";
import type { Handler } from "../../../test/fake-server";
import { renderWithRoutes } from "../../../test/render-page-screens";
import { CaseReports } from "../components/case-reports";

export const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";
export const reportsPath = `/api/continuous-monitoring/cases/${caseId}/reports`;

export const riley = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000012", username: "reviewer", name: "Dr. Riley Reviewer" };
export const casey = {
  sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000010",
  username: "coordinator",
  name: "Casey Coordinator",
};

export const nia = "5c3e8f1a-1111-4a2b-9c3d-000000000001";
export const omar = "5c3e8f1a-1111-4a2b-9c3d-000000000002";
export const pat = "5c3e8f1a-1111-4a2b-9c3d-000000000003";

/** The case the reports section is shown on (only what it reads matters: id, stage, client, zone). */
export function reportCase(): Case {
  return {
    id: caseId,
    caseNumber: "CM-2026-000123",
    stage: "reviewed",
    clientId,
    client: { id: clientId, name: "Pacific Neurology Institute", code: "PNI", timezone: "America/Los_Angeles" },
  } as Case;
}

export function delivery(overrides: Partial<ReportDelivery> = {}): ReportDelivery {
  return {
    id: "6a1b2c3d-0000-4000-8000-000000000001",
    contactId: nia,
    recipientName: "Dr. Nia Neuro",
    destination: "n***@pni.example",
    status: "sent",
    lastError: null,
    sentAt: "2026-11-22T15:31:00.000Z",
    linkExpiresAt: "2026-11-29T15:31:00.000Z",
    openedAt: null,
    voidedAt: null,
    voidReason: null,
    sentBy: null,
    createdAt: "2026-11-22T15:30:30.000Z",
    ...overrides,
  };
}

export function version(overrides: Partial<ReportVersion> = {}): ReportVersion {
  return {
    id: "7b1b2c3d-0000-4000-8000-000000000001",
    caseId,
    interpretationId: "5d1e2f3a-0000-4000-8000-000000000402",
    version: 1,
    kind: "signed",
    reportType: "daily",
    title: "EEG report — daily, 2026-11-21 to 2026-11-22",
    periodFrom: "2026-11-21T14:00:00.000Z",
    periodTo: "2026-11-22T14:00:00.000Z",
    signedBy: riley,
    signedAt: "2026-11-22T15:30:00.000Z",
    addendum: null,
    issuedAt: "2026-11-22T15:30:00.000Z",
    fhirStatus: "final",
    pdf: { sha256: "a".repeat(64), bytes: 18_204 },
    deliveries: [delivery()],
    ehr: null,
    ...overrides,
  };
}

export function reportList(overrides: Partial<ReportList> = {}): ReportList {
  return {
    caseId,
    caseNumber: "CM-2026-000123",
    items: [version()],
    recipients: [{ contactId: nia, name: "Dr. Nia Neuro", email: "n***@pni.example" }],
    canSend: true,
    ...overrides,
  };
}

export function contact(id: string, name: string, email: string | null): Contact {
  return {
    _id: id,
    clientId,
    name,
    role: "Neurologist",
    email,
    phone: null,
    isPrimary: false,
    notifyOnCritical: false,
    notes: null,
    version: 1,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
  };
}

/** The reports section on its own route, for a signed-in user in `groups`, against the fake server. */
export function renderCaseReports(routes: Record<string, Handler>, groups: string[] = ["coordinator"]) {
  return renderWithRoutes("/reports", [{ path: "/reports", element: <CaseReports caseItem={reportCase()} /> }], {
    groups,
    routes,
  });
}
