import { randomUUID } from "node:crypto";
import type { FhirReference, FhirResource, FhirSettings } from "./fhir-resource-common.js";
import { mrnIdentifier } from "./us-core-patient.js";
import {
  binaryResource,
  diagnosticReportResource,
  documentReferenceResource,
  type ReportCaseFacts,
  type ReportVersionFacts,
} from "./us-core-report.js";

/**
 * The `transaction` Bundle a report version is pushed as (docs/design/FHIR.md, "Push"): the same US Core mapping the
 * hospital reads from Vigil, made to stand on the receiver's side. Vigil's ids mean nothing there, so:
 * - the DiagnosticReport and DocumentReference are conditional PUTs on their identifiers (the report's
 *   `urn:uuid:<interpretation>`, the version's `urn:uuid:<version>`): the first push creates, an addendum's push
 *   updates the same DiagnosticReport (its version advances on the receiver), and a repeated push changes nothing;
 * - the patient is a conditional reference on the hospital's MRN (`Patient?identifier=<system>|<mrn>`), which the
 *   receiver resolves to its own Patient, keeping the identifier and name beside it;
 * - the PDF is a `Binary` created in the same transaction, reached through the entries' `urn:uuid:` full URLs;
 * - references to Vigil's other resources (ServiceRequest, Practitioner, an older DocumentReference) keep their
 *   identifier and name only.
 * A version that is no longer the latest (an addendum came after it) sends its DocumentReference and Binary only:
 * the DiagnosticReport already says the newer version, and an older one must not overwrite it.
 */

export type PushBundle = { bundle: FhirResource; summary: string };

const reportIdentifierSystem = "urn:ietf:rfc:3986";

function conditionalUrl(type: string, system: string, value: string): string {
  return `${type}?identifier=${encodeURIComponent(system)}|${encodeURIComponent(value)}`;
}

/** Keeps a reference's identifier and display, dropping a `Type/<id>` of Vigil's that the receiver does not have. */
function outsideReference(reference: FhirReference): FhirReference | undefined {
  const { reference: _vigilId, ...rest } = reference;
  return rest.identifier || rest.display ? rest : undefined;
}

function outsideReferences(list: unknown): FhirReference[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const kept = list.flatMap((reference: FhirReference) => outsideReference(reference) ?? []);
  return kept.length > 0 ? kept : undefined;
}

/** The resource without Vigil's id and version (the receiver assigns its own), its profiles kept. */
function forReceiver(resource: FhirResource): Record<string, unknown> {
  const { id: _id, meta, ...rest } = resource;
  const profile = (meta as { profile?: string[] } | undefined)?.profile;
  return Object.assign({}, profile ? { meta: { profile } } : {}, rest);
}

export function buildPushBundle(
  settings: FhirSettings,
  version: ReportVersionFacts,
  facts: ReportCaseFacts,
  mrn: string,
  at: Date,
): PushBundle {
  const mrnId = mrnIdentifier(settings, { mrn, ...facts });
  const subject = {
    reference: conditionalUrl("Patient", mrnId.system, mrnId.value),
    identifier: mrnId,
    display: version.inputs.patient.name,
  };
  const binaryUrl = `urn:uuid:${randomUUID()}`;
  const documentUrl = `urn:uuid:${randomUUID()}`;
  const reportUrl = `urn:uuid:${randomUUID()}`;
  const reportIdentifier = `urn:uuid:${version.interpretationId}`;
  const versionIdentifier = `urn:uuid:${version.id}`;

  // The resources are FHIR JSON as mapped, sent in their order: a field after a spread replaces the mapping's own.
  // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, the Binary's securityContext replaced
  const binary = { ...forReceiver(binaryResource(version)), securityContext: { reference: documentUrl } };
  const mapped = documentReferenceResource(settings, version, facts);
  // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, the entry's attachment replaced
  const content = (mapped.content as { attachment: Record<string, unknown> }[]).map((entry) => ({
    ...entry,
    // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, the attachment's url replaced
    attachment: { ...entry.attachment, url: binaryUrl },
  }));
  // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, fields replaced for the receiver
  const document = {
    ...forReceiver(mapped),
    subject,
    author: outsideReferences(mapped.author),
    authenticator: outsideReference(mapped.authenticator as FhirReference),
    relatesTo: version.previousVersionId
      ? [
          {
            code: "replaces",
            target: { identifier: { system: reportIdentifierSystem, value: `urn:uuid:${version.previousVersionId}` } },
          },
        ]
      : undefined,
    content,
    // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, the context's related replaced
    context: {
      ...(mapped.context as Record<string, unknown>),
      related: version.latest
        ? [{ reference: reportUrl }]
        : [{ identifier: { system: reportIdentifierSystem, value: reportIdentifier } }],
    },
  };
  const entries: Record<string, unknown>[] = [
    { fullUrl: binaryUrl, resource: binary, request: { method: "POST", url: "Binary" } },
    {
      fullUrl: documentUrl,
      resource: document,
      request: { method: "PUT", url: conditionalUrl("DocumentReference", reportIdentifierSystem, versionIdentifier) },
    },
  ];
  if (version.latest) {
    const report = diagnosticReportResource(settings, version, facts);
    // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, the form's url replaced
    const presentedForm = (report.presentedForm as Record<string, unknown>[]).map((form) => ({
      ...form,
      url: binaryUrl,
    }));
    entries.push({
      fullUrl: reportUrl,
      // biome-ignore lint/plugin/leading-spread-then-keys: FHIR JSON, fields replaced for the receiver
      resource: {
        ...forReceiver(report),
        subject,
        basedOn: undefined,
        performer: outsideReferences(report.performer),
        resultsInterpreter: outsideReferences(report.resultsInterpreter),
        presentedForm,
      },
      request: { method: "PUT", url: conditionalUrl("DiagnosticReport", reportIdentifierSystem, reportIdentifier) },
    });
  }
  const bundle = JSON.parse(
    JSON.stringify({
      resourceType: "Bundle",
      id: randomUUID(),
      type: "transaction",
      timestamp: at.toISOString(),
      entry: entries,
    }),
  ) as FhirResource;
  const summary = [
    `transaction Bundle, report ${version.interpretationId} version ${version.version}:`,
    ...entries.map((entry) => {
      const request = entry.request as { method: string; url: string };
      return request.url === "Binary"
        ? `POST Binary (application/pdf, ${version.pdf.length} bytes)`
        : `${request.method} ${request.url}`;
    }),
    `subject ${subject.reference}`,
  ].join("\r");
  return { bundle, summary };
}
