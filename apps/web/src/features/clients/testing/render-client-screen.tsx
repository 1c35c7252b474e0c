import type { CaseSummary, Client, Contact, ProtocolContent, ProtocolRevision, UsefulLink } from "@vigil/contract";
import type { ComponentType } from "react";
import { renderPageScreens, type ScreenOptions } from "../../../test/render-page-screens";
import { ClientCreatePage } from "../components/client-create";
import { ClientDetailPage } from "../components/client-detail";
import { ClientListPage } from "../components/client-list";
import { ContactCreatePage } from "../components/contact-create";
import { UsefulLinkCreatePage } from "../components/useful-link-create";

const screens: Record<string, ComponentType> = {
  clients: ClientListPage,
  "client-create": ClientCreatePage,
  "client-detail": ClientDetailPage,
  "contact-create": ContactCreatePage,
  "useful-link-create": UsefulLinkCreatePage,
};

/** Renders these screens on their page-table routes (see test/render-page-screens.tsx). */
export function renderClientScreen(path: string, { groups = ["coordinator"], routes = {} }: ScreenOptions = {}) {
  return renderPageScreens(path, screens, { groups, routes, username: "alice" });
}

export const clientId = "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10";

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

export function testProtocolContent(overrides: Partial<ProtocolContent> = {}): ProtocolContent {
  return {
    instructions: "Check electrodes every shift.",
    impedanceThresholdKohm: 10,
    impedanceCheckIntervalHours: 24,
    reviewTurnaroundHours: 24,
    statAcknowledgeMinutes: 60,
    criticalNotification: { notify: "Attending neurologist", withinMinutes: 30 },
    reportRecipients: { contactIds: [] },
    transferForm: {
      title: "Transfer into continuous EEG monitoring",
      instructions: "Fax to the monitoring unit.",
      fields: [
        { key: "patientName", label: "Patient name", type: "text", required: true },
        { key: "room", label: "Room", type: "text", required: false },
      ],
    },
    ...overrides,
  };
}

export function testRevision(revision: number, content: Partial<ProtocolContent> = {}): ProtocolRevision {
  return {
    ...testProtocolContent(content),
    id: `1d7a0c52-0000-4000-8000-00000000000${revision}`,
    clientId,
    revision,
    changeNote: `Revision ${revision}`,
    author: { sub: null, username: "casey", name: "Casey Coordinator" },
    createdAt: `2026-11-2${revision}T14:14:00.000Z`,
  };
}

export function testContact(overrides: Partial<Contact> = {}): Contact {
  return {
    _id: "5c3e8f1a-1111-4a2b-9c3d-000000000001",
    clientId,
    name: "Jordan Nurse",
    role: "Charge nurse",
    email: "jordan@example.org",
    phone: "+16175550111",
    isPrimary: true,
    notifyOnCritical: true,
    notes: null,
    version: 1,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
    ...overrides,
  };
}

export function testLink(overrides: Partial<UsefulLink> = {}): UsefulLink {
  return {
    _id: "7e2d9b4c-2222-4a2b-9c3d-000000000001",
    clientId,
    title: "Unit intranet",
    url: "https://intranet.example.org/eeg",
    description: "Bed board and unit phone list",
    version: 1,
    createdAt: "2026-11-01T10:00:00.000Z",
    updatedAt: "2026-11-01T10:00:00.000Z",
    ...overrides,
  };
}

export function testCase(overrides: Partial<CaseSummary> = {}): CaseSummary {
  return {
    id: "9f1e2d3c-3333-4a2b-9c3d-000000000001",
    caseNumber: "CM-2026-000123",
    clientId,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "stat",
    stage: "monitoring",
    createdAt: "2026-11-22T14:14:00.000Z",
    updatedAt: "2026-11-22T14:14:00.000Z",
    ...overrides,
  };
}

export function page<T>(items: T[], total = items.length, limit = 25, offset = 0) {
  return { items, total, limit, offset };
}
