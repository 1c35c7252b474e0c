import type { CriticalFinding, FindingDelivery, FindingRecipient } from "@vigil/contract";
import type { Handler } from "../../../test/fake-server";
import { renderWithRoutes } from "../../../test/render-page-screens";
import { CriticalFindingsPanel } from "../components/critical-findings-panel";
import type { FindingCase } from "../components/raise-finding-dialog";

export const caseId = "9f1e2d3c-3333-4a2b-9c3d-000000000001";
export const findingsApi = `/api/continuous-monitoring/cases/${caseId}/critical-findings`;
export const zone = "America/Los_Angeles";

export const technologist = {
  sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000011",
  username: "technologist",
  name: "Taylor Technologist",
};
export const coordinator = {
  sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000010",
  username: "coordinator",
  name: "Casey Coordinator",
};

export function testDelivery(overrides: Partial<FindingDelivery> = {}): FindingDelivery {
  return {
    id: "6d000000-0000-4000-8000-000000000001",
    purpose: "notice",
    channel: "email",
    destination: "n***@pni.example",
    status: "sent",
    attempts: 1,
    lastError: null,
    nextAttemptAt: null,
    sentAt: "2026-11-22T14:10:20.000Z",
    ...overrides,
  };
}

export function testRecipient(overrides: Partial<FindingRecipient> = {}): FindingRecipient {
  return {
    id: "7e000000-0000-4000-8000-000000000001",
    kind: "contact",
    name: "Dr. Nia Neuro",
    contactId: "8f000000-0000-4000-8000-000000000001",
    username: null,
    level: 0,
    notifiedAt: "2026-11-22T14:10:00.000Z",
    linkExpiresAt: "2026-11-23T14:10:00.000Z",
    linkUsedAt: null,
    deliveries: [testDelivery()],
    ...overrides,
  };
}

export function testFinding(overrides: Partial<CriticalFinding> = {}): CriticalFinding {
  return {
    id: "5c000000-0000-4000-8000-000000000001",
    caseId,
    caseNumber: "CM-2026-000123",
    clientId: "0b6c1f7e-8a52-4f43-9a4e-3f1d2c5b7a10",
    eventRecordId: "4b000000-0000-4000-8000-000000000001",
    kind: "electrographic-seizure",
    onsetAt: "2026-11-22T14:02:00.000Z",
    description: "Right temporal rhythmic discharges evolving over 40 s.",
    raisedAt: "2026-11-22T14:10:00.000Z",
    raisedBy: technologist,
    windowMinutes: 15,
    dueAt: "2026-11-22T14:25:00.000Z",
    status: "open",
    firstNotifiedAt: "2026-11-22T14:10:20.000Z",
    acknowledgement: null,
    cancellation: null,
    escalations: 0,
    nextEscalationAt: "2026-11-22T14:25:00.000Z",
    withinWindow: null,
    recipients: [testRecipient()],
    ...overrides,
  };
}

export const monitoringCase: FindingCase = {
  caseId,
  caseNumber: "CM-2026-000123",
  stage: "monitoring",
  timeZone: zone,
};

/** The panel on a case screen of its own, for a signed-in user in `groups`, against the fake server. */
export function renderPanel({
  groups,
  routes,
  target = monitoringCase,
}: {
  groups: string[];
  routes: Record<string, Handler>;
  target?: FindingCase;
}) {
  return renderWithRoutes("/case", [{ path: "/case", element: <CriticalFindingsPanel target={target} /> }], {
    groups,
    routes,
  });
}
