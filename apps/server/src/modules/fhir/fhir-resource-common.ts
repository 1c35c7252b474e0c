/**
 * What every FHIR R4 resource Vigil serves shares: the identifier systems, the codes, the generated narrative. The
 * mappers (`us-core-*.ts`, `fhir-resource-order.ts`) are pure functions of facts read elsewhere, so a test checks them
 * with validators the team did not write, and the staff route and the hospital's API say exactly the same thing.
 * docs/design/FHIR.md explains each choice.
 */

/** A resource as served: loose on purpose (the validators in the tests are the authority on its shape). */
export type FhirResource = { resourceType: string; id: string; [element: string]: unknown };
export type FhirCoding = { system: string; code: string; display?: string };
export type FhirCodeableConcept = { coding?: FhirCoding[]; text?: string };
export type FhirIdentifier = { use?: string; type?: FhirCodeableConcept; system: string; value: string };
export type FhirReference = { reference?: string; identifier?: FhirIdentifier; display?: string };

/** Where Vigil's own identifier systems live: under the deployment's public URL, which a hospital already trusts. */
export type FhirSettings = {
  publicUrl: string;
  /** The monitoring company; its NPI (an organisation's), when configured, identifies it as performer and custodian. */
  company: { name: string; npi?: string | null };
};

export const usCoreProfiles = {
  patient: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient",
  practitioner: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-practitioner",
  diagnosticReportNote: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-diagnosticreport-note",
  documentReference: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-documentreference",
} as const;

/**
 * LOINC 11523-8 "EEG study" (Find, Pt, ^Patient, Doc; class NEURO): the document code of an EEG study report and the
 * order's code. Corroborated by a copy of LOINC 2.82's table, by HL7's clinical-reports attachment mapping (EEG →
 * 11523-8) and by published FHIR profiles that fix it for EEG; not read on loinc.org itself from here.
 */
export const eegStudyLoinc = { system: "http://loinc.org", code: "11523-8", display: "EEG study" } as const;

/** SNOMED CT 54550000 |Electroencephalogram (procedure)|: the order's procedure, beside the LOINC. */
export const eegProcedureSnomed = {
  system: "http://snomed.info/sct",
  code: "54550000",
  display: "Electroencephalogram",
} as const;

/**
 * HL7 v2 table 0074 (diagnostic service section) EN, Electroneuro (EEG, EMG, EP, PSG). US Core's report category
 * value set (LOINC Radiology, Cardiology, Pathology) is an extensible binding and none of the three is neurology, so
 * the base resource's own value set is used.
 */
export const neurologyCategory: FhirCodeableConcept = {
  coding: [{ system: "http://terminology.hl7.org/CodeSystem/v2-0074", code: "EN", display: "Electroneuro" }],
  text: "Neurology",
};

export const identifierTypes = {
  mrn: { system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "MR", display: "Medical record number" },
  placer: { system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "PLAC", display: "Placer Identifier" },
  filler: { system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "FILL", display: "Filler Identifier" },
  visit: { system: "http://terminology.hl7.org/CodeSystem/v2-0203", code: "VN", display: "Visit number" },
} as const;

/** An OID as HL7 v2 writes an assigning authority's universal id: digits and dots, at least two arcs. */
const oidPattern = /^[0-2](\.(0|[1-9]\d*))+$/;
const uriPattern = /^(urn:[a-z0-9][a-z0-9-]{0,31}:\S+|https?:\/\/\S+)$/i;

/** `<public URL>/fhir/sid/<path>`: an identifier system of Vigil's. */
export function vigilSystem(settings: FhirSettings, path: string): string {
  return `${settings.publicUrl}/fhir/sid/${path}`;
}

/**
 * The one rule for a hospital's identifier system: an assigning authority written as an OID is `urn:oid:<oid>`, one
 * written as a URI is itself; anything else (a namespace like "MERCY", or none) is Vigil's URL for that client's
 * namespace of that kind — a name like "MRN" is no namespace outside its hospital, and the client's id never changes.
 */
export function hospitalSystem(
  settings: FhirSettings,
  clientId: string,
  kind: "mrn" | "placer-order" | "visit",
  authority: string | null,
): string {
  const trimmed = authority?.trim() ?? "";
  if (oidPattern.test(trimmed)) return `urn:oid:${trimmed}`;
  if (uriPattern.test(trimmed)) return trimmed;
  return vigilSystem(settings, `clients/${clientId}/${kind}`);
}

/** Vigil's case numbers (the filler order number of every order) and its staff's user names. */
export function caseNumberSystem(settings: FhirSettings): string {
  return vigilSystem(settings, "case-number");
}
export function userSystem(settings: FhirSettings): string {
  return vigilSystem(settings, "users");
}

/** `urn:ietf:rfc:3986` with a `urn:uuid:` value: an identifier unique everywhere, whatever the deployment's URL. */
export function uuidIdentifier(id: string): FhirIdentifier {
  return { system: "urn:ietf:rfc:3986", value: `urn:uuid:${id}` };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/**
 * A generated narrative: a heading and label/value rows, every value escaped (a patient's name or an impression may
 * hold `<` or `&`), in the XHTML namespace FHIR requires.
 */
export function narrativeOf(heading: string, rows: readonly (readonly [string, string | null | undefined])[]) {
  const cells = rows
    .filter((row): row is readonly [string, string] => typeof row[1] === "string" && row[1].trim() !== "")
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join("");
  return {
    status: "generated",
    div: `<div xmlns="http://www.w3.org/1999/xhtml"><p><b>${escapeHtml(heading)}</b></p><table>${cells}</table></div>`,
  };
}

/** Drops the keys whose value is undefined, so a resource never carries `"encounter": undefined` into JSON. */
export function compact<T extends Record<string, unknown>>(resource: T): T {
  return Object.fromEntries(Object.entries(resource).filter(([, value]) => value !== undefined)) as T;
}
