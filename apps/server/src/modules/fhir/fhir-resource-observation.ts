import { type AcnsFinding, acnsLabels } from "@vigil/contract";
import {
  compact,
  type FhirCodeableConcept,
  type FhirReference,
  type FhirResource,
  type FhirSettings,
  narrativeOf,
} from "./fhir-resource-common.js";
import { patientReference, practitionerReference } from "./us-core-patient.js";
import {
  effectivePeriodOf,
  type ReportCaseFacts,
  type ReportVersionFacts,
  seizureConclusions,
} from "./us-core-report.js";

/**
 * The ACNS 2021 structured findings of a signed report as `Observation`s, one per finding, each referenced from the
 * report's `DiagnosticReport.result`: the seizure classification (when not "none") and each rhythmic or periodic
 * pattern. An Observation's id is its report's id and the finding's place (`<report id>-seizures`,
 * `<report id>-pattern-<n>`), so an addendum (which keeps the signed findings) keeps every id, and a read by id finds
 * its report without a table of its own. Codes: only the seizure concepts the DiagnosticReport's `conclusionCode`
 * already uses are coded; every ACNS term is `text` (docs/design/FHIR.md, "Codes, and why").
 */

type ObservationVersion = Pick<
  ReportVersionFacts,
  "id" | "interpretationId" | "version" | "kind" | "issuedAt" | "inputs"
>;

const observationIdPattern =
  /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(seizures|pattern-[1-9]\d?)$/i;

/** The report an Observation id belongs to, or undefined when the id is none of Vigil's Observations. */
export function reportIdOfObservation(id: string): string | undefined {
  return observationIdPattern.exec(id)?.[1];
}

const observationCategory: FhirCodeableConcept = {
  coding: [
    {
      system: "http://terminology.hl7.org/CodeSystem/observation-category",
      code: "procedure",
      display: "Procedure",
    },
  ],
};

function label(value: string | null): string | undefined {
  return value === null ? undefined : (acnsLabels[value] ?? value);
}

/** ACNS's own abbreviation: LPDs, GRDA, BIPDs+F, GSW … (main term 1, main term 2, plus modifier). */
export function acnsTermOf(finding: Pick<AcnsFinding, "location" | "pattern" | "plusModifier">): string {
  const main = `${finding.location}${finding.pattern === "PD" ? "PDs" : finding.pattern}`;
  if (finding.plusModifier === "none") return main;
  return finding.plusModifier === "EDB" ? `${main} with extreme delta brush` : `${main}${finding.plusModifier}`;
}

function textComponent(name: string, value: string | undefined) {
  return value === undefined ? undefined : { code: { text: name }, valueString: value };
}

function patternObservation(finding: AcnsFinding, index: number) {
  const term = acnsTermOf(finding);
  const components = [
    textComponent("Localization (ACNS main term 1)", label(finding.location)),
    textComponent("Pattern (ACNS main term 2)", label(finding.pattern)),
    textComponent("Plus modifier", finding.plusModifier === "none" ? undefined : label(finding.plusModifier)),
    textComponent("Prevalence", label(finding.prevalence)),
    textComponent("Duration", label(finding.duration)),
    finding.frequencyHz === null
      ? undefined
      : {
          code: { text: "Frequency" },
          valueQuantity: { value: finding.frequencyHz, unit: "Hz", system: "http://unitsofmeasure.org", code: "Hz" },
        },
    textComponent("Evolution", label(finding.evolution)),
    { code: { text: "Stimulus-induced" }, valueBoolean: finding.stimulusInduced },
  ].filter((component) => component !== undefined);
  return {
    key: `pattern-${index + 1}`,
    heading: `Rhythmic or periodic pattern: ${term}`,
    code: { text: "Rhythmic or periodic pattern (ACNS 2021)" },
    value: { text: term },
    rows: [
      ["Pattern", term],
      ["Prevalence", label(finding.prevalence)],
      ["Frequency", finding.frequencyHz === null ? undefined : `${finding.frequencyHz} Hz`],
      ["Notes", finding.notes],
    ] as [string, string | undefined][],
    components,
    note: finding.notes,
  };
}

function seizureObservation(seizures: ObservationVersion["inputs"]["interpretation"]["seizures"]) {
  const value: FhirCodeableConcept = seizureConclusions[seizures.classification] ?? {
    text: label(seizures.classification) ?? seizures.classification,
  };
  return {
    key: "seizures",
    heading: `Seizures: ${value.text}`,
    code: { text: "Seizure classification (ACNS 2021)" },
    value,
    rows: [
      ["Classification", label(seizures.classification)],
      ["Count", seizures.count === null ? undefined : String(seizures.count)],
      ["Description", seizures.description],
    ] as [string, string | undefined][],
    components: seizures.count === null ? [] : [{ code: { text: "Number of seizures" }, valueInteger: seizures.count }],
    note: seizures.description,
  };
}

/** The findings a version's interpretation holds, in id order of their place: patterns first, then seizures. */
function findingsOf(version: ObservationVersion) {
  const { interpretation } = version.inputs;
  const patterns = (interpretation.findings ?? []).map(patternObservation);
  const classification = interpretation.seizures?.classification ?? "none";
  return classification === "none" ? patterns : [...patterns, seizureObservation(interpretation.seizures)];
}

/** `DiagnosticReport.result`: a reference to each of the report's Observations. */
export function observationReferencesOf(version: ObservationVersion): FhirReference[] {
  return findingsOf(version).map((finding) => ({
    reference: `Observation/${version.interpretationId}-${finding.key}`,
    display: finding.heading,
  }));
}

/** Every Observation of a report's version (its latest, as served), with the report's status, period and signer. */
export function observationResources(
  settings: FhirSettings,
  version: ObservationVersion,
  facts: ReportCaseFacts,
): FhirResource[] {
  const { inputs } = version;
  const performer = practitionerReference(settings, { professional: inputs.signerProfessional, ...inputs.signedBy });
  const subject = patientReference(settings, { mrn: inputs.patient.mrn, ...facts }, inputs.patient.name);
  const period = effectivePeriodOf(inputs);
  const status = version.kind === "addendum" ? "amended" : "final";
  return findingsOf(version).map((finding) =>
    compact({
      resourceType: "Observation",
      id: `${version.interpretationId}-${finding.key}`,
      meta: { versionId: String(version.version), lastUpdated: version.issuedAt },
      text: narrativeOf(finding.heading, [
        ["Status", status],
        ["Patient", `${inputs.patient.name} (MRN ${inputs.patient.mrn})`],
        ["Report", inputs.report.title],
        ...finding.rows,
        ["Interpreted by", performer.display],
      ]),
      basedOn: [{ reference: `ServiceRequest/${facts.caseId}` }],
      status,
      category: [observationCategory],
      code: finding.code,
      subject,
      encounter: facts.encounter,
      effectivePeriod: period,
      issued: version.issuedAt,
      performer: [performer],
      valueCodeableConcept: finding.value,
      note: finding.note.trim() ? [{ text: finding.note.trim() }] : undefined,
      derivedFrom: [{ reference: `DocumentReference/${version.id}` }],
      component: finding.components.length > 0 ? finding.components : undefined,
    }),
  );
}
