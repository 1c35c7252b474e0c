import type { UserProfessional } from "@vigil/contract";
import {
  compact,
  type FhirIdentifier,
  type FhirReference,
  type FhirResource,
  type FhirSettings,
  hospitalSystem,
  identifierTypes,
  narrativeOf,
  usCoreProfiles,
  userSystem,
} from "./fhir-resource-common.js";

/**
 * The patient as one case knows them, and the neurologist who signs: US Core Patient and US Core Practitioner.
 * A Patient's id is its case's id — Vigil keeps patient details per case (each correction a revision), never one
 * record per person — so two cases of one person are two Patients with the same MRN identifier, which is how a
 * receiving system matches them to its own chart.
 */

export type PatientFacts = {
  caseId: string;
  clientId: string;
  clientName: string;
  mrn: string;
  /** The MRN's assigning authority: the order's when it came by interface, else the interface profile's. */
  mrnAuthority: string | null;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  sex: "female" | "male" | "other" | "unknown";
  updatedAt: string;
};

export function mrnIdentifier(settings: FhirSettings, facts: Pick<PatientFacts, "clientId" | "mrn" | "mrnAuthority">) {
  return {
    use: "usual",
    type: { coding: [{ ...identifierTypes.mrn }] },
    system: hospitalSystem(settings, facts.clientId, "mrn", facts.mrnAuthority),
    value: facts.mrn,
  } satisfies FhirIdentifier;
}

/** `Patient/<case id>`, with the MRN and the name, so a receiver can match without reading the Patient. */
export function patientReference(
  settings: FhirSettings,
  facts: Pick<PatientFacts, "caseId" | "clientId" | "mrn" | "mrnAuthority">,
  display: string,
): FhirReference {
  return { reference: `Patient/${facts.caseId}`, identifier: mrnIdentifier(settings, facts), display };
}

export function patientResource(settings: FhirSettings, facts: PatientFacts): FhirResource {
  const identifier = mrnIdentifier(settings, facts);
  return compact({
    resourceType: "Patient",
    id: facts.caseId,
    meta: { lastUpdated: facts.updatedAt, profile: [usCoreProfiles.patient] },
    text: narrativeOf(`${facts.lastName}, ${facts.firstName}`, [
      ["MRN", `${facts.mrn} (${facts.clientName})`],
      ["Date of birth", facts.dateOfBirth],
      ["Sex", facts.sex],
    ]),
    identifier: [
      {
        use: identifier.use,
        type: identifier.type,
        system: identifier.system,
        value: identifier.value,
        assigner: { display: facts.clientName },
      },
    ],
    name: [{ use: "official", family: facts.lastName, given: [facts.firstName] }],
    gender: facts.sex,
    birthDate: facts.dateOfBirth ?? undefined,
  });
}

export type PractitionerFacts = {
  sub: string | null;
  username: string;
  name: string | null;
  /** The names as parts, NPI, credentials and certifications, when the user has filled them in. */
  professional?: UserProfessional | undefined;
};

/** The US National Provider Identifier's system (US Core Practitioner's NPI slice). */
export const npiSystem = "http://hl7.org/fhir/sid/us-npi";

const prefixes = new Set(["dr", "dr.", "prof", "prof.", "mr", "mr.", "mrs", "mrs.", "ms", "ms."]);

/**
 * A user's one `name` field split as US Core asks (family 1..1): a leading title is the prefix, what follows a comma
 * the suffix ("MD"), the last remaining word the family name, the others the given names. Vigil stores no separate
 * family name, so this is a reading of the name as written, said so in docs/design/FHIR.md.
 */
export function humanNameOf(name: string) {
  const [main = "", ...after] = name.split(",");
  const words = main.trim().split(/\s+/).filter(Boolean);
  const prefix: string[] = [];
  while (words.length > 1 && prefixes.has((words[0] ?? "").toLowerCase())) prefix.push(words.shift() ?? "");
  const family = words.pop() ?? name.trim();
  const suffix = after.map((part) => part.trim()).filter(Boolean);
  return compact({
    text: name.trim(),
    family,
    given: words.length > 0 ? words : undefined,
    prefix: prefix.length > 0 ? prefix : undefined,
    suffix: suffix.length > 0 ? suffix : undefined,
  });
}

/** The NPI when the user holds one (what a receiver looks up in NPPES), else Vigil's user name. */
export function practitionerIdentifier(settings: FhirSettings, facts: PractitionerFacts): FhirIdentifier {
  const npi = facts.professional?.npi;
  return npi ? { system: npiSystem, value: npi } : { system: userSystem(settings), value: facts.username };
}

/** The name as the user gave its parts (credentials as suffixes), else the one display name read as written. */
function practitionerNameOf(facts: PractitionerFacts) {
  const display = facts.name ?? facts.username;
  const professional = facts.professional;
  if (!professional?.familyName) return humanNameOf(display);
  const suffix = (professional.credentials ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  return compact({
    use: "official",
    text: display,
    family: professional.familyName,
    given: professional.givenNames.length > 0 ? professional.givenNames : undefined,
    suffix: suffix.length > 0 ? suffix : undefined,
  });
}

export function practitionerReference(settings: FhirSettings, facts: PractitionerFacts): FhirReference {
  return compact({
    reference: facts.sub ? `Practitioner/${facts.sub}` : undefined,
    identifier: practitionerIdentifier(settings, facts),
    display: facts.name ?? facts.username,
  });
}

/**
 * The signing neurologist: the NPI (US Core's must-support slice) when the user holds one, always Vigil's user name
 * under Vigil's system (so a receiver tells apart signers without an NPI), the name in parts when given, and each
 * board certification as a qualification (text only: no code system for them is assumed).
 */
export function practitionerResource(settings: FhirSettings, facts: PractitionerFacts & { sub: string }): FhirResource {
  const name = practitionerNameOf(facts);
  const professional = facts.professional;
  const npi = professional?.npi;
  const certifications = professional?.boardCertifications ?? [];
  return compact({
    resourceType: "Practitioner",
    id: facts.sub,
    meta: { profile: [usCoreProfiles.practitioner] },
    text: narrativeOf(name.text ?? facts.username, [
      ["User", facts.username],
      ["NPI", npi ?? null],
      ["Credentials", professional?.credentials ?? null],
      ["Board certifications", certifications.length > 0 ? certifications.join("; ") : null],
    ]),
    identifier: [
      ...(npi ? [{ system: npiSystem, value: npi }] : []),
      { system: userSystem(settings), value: facts.username },
    ],
    name: [name],
    qualification:
      certifications.length > 0
        ? certifications.map((certification) => ({ code: { text: certification } }))
        : undefined,
  });
}

/**
 * The visit as a logical reference (Vigil serves no Encounter): the hospital's visit number under Vigil's per-client
 * visit system, typed VN, so the receiver resolves it in its own ADT.
 */
export function encounterReference(
  settings: FhirSettings,
  clientId: string,
  visitNumber: string | null,
): FhirReference | undefined {
  if (!visitNumber) return undefined;
  return {
    identifier: {
      type: { coding: [{ ...identifierTypes.visit }] },
      system: hospitalSystem(settings, clientId, "visit", null),
      value: visitNumber,
    },
    display: `Visit ${visitNumber}`,
  };
}
