import type { CasePriority, FhirServiceRequestInput } from "@vigil/contract";
import { FhirError } from "../../fhir/fhir-errors.js";
import type { InterfacePatient } from "../cases/interface-cases-service.js";
import { priorityOf, recognisedStudyType, studyTypeOf } from "../interfaces/order-service.js";
import { identifierTypes } from "./fhir-resource-common.js";

/**
 * Reading a hospital's `ServiceRequest` into the order the intake rules take (docs/design/FHIR.md, "Orders in"):
 * pure, so every refusal names its element. Structure was checked by the contract's schema (400); what is read
 * here is the meaning, refused as 422 `processing` naming the element.
 */

type Identifier = { system?: string | undefined; value: string; type?: { coding?: { code?: string }[] } | undefined };
type Contained = NonNullable<FhirServiceRequestInput["contained"]>[number];

export function unprocessable(expression: string, diagnostics: string): FhirError {
  return new FhirError(422, "processing", diagnostics, { expression: [expression] });
}

function singleLine(value: string, max: number): string {
  return value.replace(/\s+/g, " ").trim().slice(0, max);
}

/** The placer order number: the identifier typed PLAC (v2-0203), or the only identifier sent. */
export function placerIdentifierOf(identifiers: readonly Identifier[]): Identifier {
  const typed = identifiers.filter((identifier) =>
    identifier.type?.coding?.some((coding) => coding.code === identifierTypes.placer.code),
  );
  if (typed.length === 1) return typed[0] as Identifier;
  if (typed.length === 0 && identifiers.length === 1) return identifiers[0] as Identifier;
  throw unprocessable(
    "ServiceRequest.identifier",
    "Send the placer order number as one identifier typed PLAC (http://terminology.hl7.org/CodeSystem/v2-0203), or as the only identifier.",
  );
}

/** The element a local reference (`#id`) points to among `contained`. */
function containedOf(request: FhirServiceRequestInput, reference: string | undefined, type: string) {
  if (!reference?.startsWith("#")) return undefined;
  const found = request.contained?.find((resource) => resource.id === reference.slice(1));
  if (!found || found.resourceType !== type) {
    throw unprocessable(
      type === "Patient" ? "ServiceRequest.subject.reference" : "ServiceRequest.requester.reference",
      `${reference.slice(0, 64)} names no contained ${type}.`,
    );
  }
  return found;
}

export type OrderPatient = { mrn: string; patient: InterfacePatient | null };

/**
 * The patient: the MRN under the hospital's system (`mrnSystem`, the same rule reads answer with), from
 * `subject.identifier` or the contained Patient `subject` points at. Names come from the contained Patient; without
 * one the patient must already be known to Vigil (`patient` null: the caller looks the MRN up).
 */
export function orderPatientOf(request: FhirServiceRequestInput, mrnSystem: string): OrderPatient {
  const contained = containedOf(request, request.subject.reference, "Patient");
  const candidates: { identifier: Identifier; at: string }[] = [
    ...(request.subject.identifier
      ? [{ identifier: request.subject.identifier, at: "ServiceRequest.subject.identifier" }]
      : []),
    ...(contained?.identifier ?? []).map((identifier) => ({ identifier, at: "ServiceRequest.contained.identifier" })),
  ];
  if (candidates.length === 0) {
    throw unprocessable(
      "ServiceRequest.subject.identifier",
      `The patient's MRN is required: subject.identifier (or a contained Patient's identifier) with system ${mrnSystem}.`,
    );
  }
  const mrns = candidates.filter((candidate) => candidate.identifier.system === mrnSystem);
  if (mrns.length === 0) {
    const [first] = candidates;
    throw unprocessable(
      `${first?.at}.system`,
      `The patient's identifier system is "${(first?.identifier.system ?? "(none)").slice(0, 200)}"; this hospital's MRNs are taken under ${mrnSystem}.`,
    );
  }
  const values = new Set(mrns.map((candidate) => candidate.identifier.value.trim()));
  if (values.size > 1) {
    throw unprocessable(
      "ServiceRequest.subject.identifier",
      "The subject's identifier and the contained Patient's name different MRNs.",
    );
  }
  const mrn = [...values][0] as string;
  if (/[\r\n\t]/.test(mrn)) throw unprocessable("ServiceRequest.subject.identifier.value", "The MRN spans lines.");
  return { mrn, patient: contained ? containedPatientOf(contained, mrn) : null };
}

function containedPatientOf(patient: Contained, mrn: string): InterfacePatient {
  const name = patient.name?.[0];
  const lastName = singleLine(name?.family ?? "", 100);
  const firstName = singleLine(name?.given?.[0] ?? "", 100);
  if (!lastName || !firstName) {
    throw unprocessable(
      "ServiceRequest.contained.name",
      "The contained Patient needs a name with family and given (the case in intake shows the patient by name).",
    );
  }
  return {
    mrn,
    firstName,
    lastName,
    dateOfBirth: patient.birthDate ?? null,
    sex: patient.gender ?? "unknown",
    location: { unit: null, room: null, bed: null },
  };
}

/** The visit number: `encounter.identifier.value` (Vigil serves no Encounter, so a reference alone says nothing). */
export function visitNumberOf(request: FhirServiceRequestInput): string | null {
  if (!request.encounter) return null;
  const value = request.encounter.identifier?.value;
  if (!value) {
    throw unprocessable(
      "ServiceRequest.encounter.identifier",
      "The encounter is taken by its identifier (the hospital's visit number); a reference alone cannot be resolved here.",
    );
  }
  return singleLine(value, 100);
}

/** The ordering provider as text: `requester.display`, or the contained Practitioner's name. */
export function requesterOf(request: FhirServiceRequestInput): string | null {
  const { requester } = request;
  if (!requester) return null;
  if (requester.display?.trim()) return singleLine(requester.display, 200);
  const practitioner = containedOf(request, requester.reference, "Practitioner");
  const name = practitioner?.name?.[0];
  const text = name?.text ?? [...(name?.given ?? []), name?.family ?? ""].join(" ");
  return text.trim() ? singleLine(text, 200) : null;
}

/** The reason: the first reasonCode's text or display, else a reasonReference's display. */
export function reasonOf(request: FhirServiceRequestInput): string | null {
  const code = request.reasonCode?.[0];
  const text =
    code?.text ?? code?.coding?.find((coding) => coding.display)?.display ?? request.reasonReference?.[0]?.display;
  return text?.trim() ? text.trim().slice(0, 2000) : null;
}

/**
 * The study type by the v2 interface's rules over the code and its text (CPT 95711–95716 is video EEG, "EMU" the
 * epilepsy monitoring unit, …); no code is continuous ICU EEG, the coordinator corrects it in intake.
 */
export function studyOf(request: FhirServiceRequestInput) {
  const coding = request.code?.coding ?? [];
  const words = [request.code?.text ?? "", ...coding.map((item) => item.display ?? "")].join(" ");
  for (const item of coding) {
    const study = recognisedStudyType(item.code ?? "", words);
    if (study) return study;
  }
  return studyTypeOf("", words);
}

/** FHIR's request priority: stat and asap are STAT in Vigil (as v2's S and A); routine and urgent routine. */
export function casePriorityOf(priority: FhirServiceRequestInput["priority"]): CasePriority {
  return priorityOf(priority === "stat" ? "S" : priority === "asap" ? "A" : "R");
}
