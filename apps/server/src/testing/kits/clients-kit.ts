import type { ClientInput, CreateProtocolRevision } from "@vigil/contract";
import { and, asc, eq, type SQL } from "drizzle-orm";
import { auditEvents } from "../../db/schema.js";
import type { TestApp } from "../test-app.js";

/** Shared by the client module's API tests: sample bodies, audit lookups (callers are in caller-kit.ts). */
export const unknownId = "00000000-0000-4000-8000-000000000000";

let codeCounter = 0;
export function sampleClient(overrides: Partial<ClientInput> = {}): ClientInput {
  codeCounter += 1;
  return {
    name: `Riverside General ${codeCounter}`,
    code: `RG-${codeCounter}`,
    timezone: "America/Chicago",
    phone: "+13125550100",
    city: "Chicago",
    region: "IL",
    country: "US",
    ...overrides,
  };
}

export function sampleProtocol(overrides: Partial<CreateProtocolRevision> = {}): CreateProtocolRevision {
  return {
    baseRevision: null,
    instructions: "Apply 10–20 electrodes; check impedances every 12 hours.",
    impedanceThresholdKohm: 7.5,
    impedanceCheckIntervalHours: 12,
    reviewTurnaroundHours: 8,
    statAcknowledgeMinutes: 60,
    criticalNotification: { notify: "Neuro ICU charge nurse", withinMinutes: 15 },
    transferForm: {
      title: "Transfer into continuous EEG monitoring",
      instructions: "Fax to the EEG lab.",
      fields: [
        { key: "patientName", label: "Patient name", type: "text", required: true },
        { key: "mrn", label: "MRN", type: "text", required: true },
      ],
    },
    changeNote: "First protocol",
    ...overrides,
  };
}

export async function auditRows(harness: TestApp, action: string, targetId?: string) {
  const conditions: SQL[] = [eq(auditEvents.action, action)];
  if (targetId) conditions.push(eq(auditEvents.targetId, targetId));
  return harness.database.db
    .select()
    .from(auditEvents)
    .where(and(...conditions))
    .orderBy(asc(auditEvents.at));
}
