import {
  caseNumberSystem,
  compact,
  eegProcedureSnomed,
  eegStudyLoinc,
  type FhirReference,
  type FhirResource,
  type FhirSettings,
  hospitalSystem,
  identifierTypes,
  narrativeOf,
} from "./fhir-resource-common.js";
import { type PatientFacts, patientReference } from "./us-core-patient.js";

/**
 * A case as the order a hospital placed (HL7 Clinical Order Workflows): a `ServiceRequest` for long-term EEG
 * monitoring and the `Task` that tells where Vigil, the fulfiller, stands with it. Both have the case's id. A case
 * opened by staff rather than by an interface is served the same way, without a placer identifier.
 */

export type OrderFacts = {
  placerOrderNumber: string;
  visitNumber: string | null;
  orderingProvider: string | null;
  reason: string | null;
  receivedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
};

export type CaseFacts = PatientFacts & {
  caseNumber: string;
  stage: "intake" | "monitoring" | "preview" | "reviewed" | "closed";
  priority: "routine" | "stat";
  studyTypeLabel: string;
  hasVideo: boolean;
  /** The monitoring company took the order: a technologist assigned, or a STAT case acknowledged by a reviewer. */
  taken: boolean;
  archivedAt: string | null;
  recordingStartedAt: string | null;
  recordingEndedAt: string | null;
  createdAt: string;
  referringPhysician: string | null;
  indication: string | null;
  order: OrderFacts | null;
  /** The case's signed reports (`DiagnosticReport` ids), oldest first, and whether the study summary is among them. */
  reports: { id: string; reportType: "daily" | "summary" }[];
};

export type TaskStatus = "requested" | "accepted" | "in-progress" | "completed" | "rejected" | "cancelled";

/**
 * The Task's status from the case: the order cancelled by the hospital, or the case archived after intake, is
 * `cancelled`; archived while still in intake (never taken) `rejected`; in intake `requested` until taken (a technologist assigned), then
 * `accepted`; being monitored or read `in-progress`; `completed` once the study summary is signed or the case closed.
 */
export function taskStatusOf(facts: CaseFacts): TaskStatus {
  if (facts.order?.cancelledAt) return "cancelled";
  if (facts.archivedAt) return facts.stage === "intake" ? "rejected" : "cancelled";
  if (facts.stage === "closed" || facts.reports.some((report) => report.reportType === "summary")) return "completed";
  if (facts.stage === "intake") return facts.taken ? "accepted" : "requested";
  return "in-progress";
}

function serviceRequestStatusOf(task: TaskStatus): "active" | "completed" | "revoked" {
  if (task === "completed") return "completed";
  if (task === "cancelled" || task === "rejected") return "revoked";
  return "active";
}

function subjectOf(settings: FhirSettings, facts: CaseFacts): FhirReference {
  return patientReference(settings, facts, `${facts.lastName}, ${facts.firstName}`);
}

function requesterOf(facts: CaseFacts): FhirReference | undefined {
  const name = facts.order?.orderingProvider ?? facts.referringPhysician;
  return name ? { display: name } : undefined;
}

export function serviceRequestResource(
  settings: FhirSettings,
  facts: CaseFacts,
  encounter: FhirReference | undefined,
): FhirResource {
  const task = taskStatusOf(facts);
  const reason = facts.order?.reason ?? facts.indication;
  const study = `Long-term EEG monitoring: ${facts.studyTypeLabel}${facts.hasVideo ? ", with video" : ""}`;
  return compact({
    resourceType: "ServiceRequest",
    id: facts.caseId,
    meta: { lastUpdated: facts.updatedAt },
    text: narrativeOf(study, [
      ["Patient", `${facts.lastName}, ${facts.firstName} (MRN ${facts.mrn})`],
      ["Placer order", facts.order?.placerOrderNumber],
      ["Case", facts.caseNumber],
      ["Priority", facts.priority],
      ["Reason", reason],
    ]),
    identifier: [
      ...(facts.order
        ? [
            {
              type: { coding: [{ ...identifierTypes.placer }] },
              system: hospitalSystem(settings, facts.clientId, "placer-order", null),
              value: facts.order.placerOrderNumber,
            },
          ]
        : []),
      {
        type: { coding: [{ ...identifierTypes.filler }] },
        system: caseNumberSystem(settings),
        value: facts.caseNumber,
      },
    ],
    status: serviceRequestStatusOf(task),
    intent: "order",
    category: [{ coding: [{ system: "http://snomed.info/sct", code: "103693007", display: "Diagnostic procedure" }] }],
    priority: facts.priority === "stat" ? "stat" : "routine",
    code: { coding: [{ ...eegStudyLoinc }, { ...eegProcedureSnomed }], text: study },
    subject: subjectOf(settings, facts),
    encounter,
    occurrencePeriod: facts.recordingStartedAt
      ? compact({ start: facts.recordingStartedAt, end: facts.recordingEndedAt ?? undefined })
      : undefined,
    authoredOn: facts.order?.receivedAt ?? facts.createdAt,
    requester: requesterOf(facts),
    performer: [{ display: settings.company.name }],
    reasonCode: reason ? [{ text: reason }] : undefined,
  });
}

const taskStatusReasons: Partial<Record<TaskStatus, string>> = {
  rejected: "Not taken by the monitoring company",
  cancelled: "Cancelled",
};

export function taskResource(settings: FhirSettings, facts: CaseFacts, encounter: FhirReference | undefined) {
  const status = taskStatusOf(facts);
  const reason =
    status === "cancelled" || status === "rejected" ? (facts.order?.cancelReason ?? taskStatusReasons[status]) : null;
  return compact({
    resourceType: "Task",
    id: facts.caseId,
    meta: { lastUpdated: facts.updatedAt },
    text: narrativeOf(`Fulfilment of ${facts.caseNumber}`, [
      ["Status", status],
      ["Stage", facts.stage],
      ["Reason", reason],
    ]),
    identifier: [{ system: caseNumberSystem(settings), value: facts.caseNumber }],
    basedOn: [{ reference: `ServiceRequest/${facts.caseId}` }],
    status,
    statusReason: reason ? { text: reason } : undefined,
    businessStatus: { text: facts.stage },
    intent: "order",
    priority: facts.priority === "stat" ? "stat" : "routine",
    code: {
      coding: [
        { system: "http://hl7.org/fhir/CodeSystem/task-code", code: "fulfill", display: "Fulfill the focal request" },
      ],
    },
    focus: { reference: `ServiceRequest/${facts.caseId}` },
    for: subjectOf(settings, facts),
    encounter,
    authoredOn: facts.order?.receivedAt ?? facts.createdAt,
    lastModified: facts.updatedAt,
    requester: requesterOf(facts),
    owner: { display: settings.company.name },
    output:
      facts.reports.length > 0
        ? facts.reports.map((report) => ({
            type: { text: report.reportType === "summary" ? "EEG study summary" : "EEG report (24-hour)" },
            valueReference: { reference: `DiagnosticReport/${report.id}` },
          }))
        : undefined,
  }) satisfies FhirResource;
}
