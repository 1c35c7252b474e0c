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
    identifier: [{ ...identifier, assigner: { display: facts.clientName } }],
    name: [{ use: "official", family: facts.lastName, given: [facts.firstName] }],
    gender: facts.sex,
    birthDate: facts.dateOfBirth ?? undefined,
  });
}

export type PractitionerFacts = { sub: string | null; username: string; name: string | null };

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

export function practitionerIdentifier(settings: FhirSettings, facts: PractitionerFacts): FhirIdentifier {
  return { system: userSystem(settings), value: facts.username };
}

export function practitionerReference(settings: FhirSettings, facts: PractitionerFacts): FhirReference {
  return compact({
    reference: facts.sub ? `Practitioner/${facts.sub}` : undefined,
    identifier: practitionerIdentifier(settings, facts),
    display: facts.name ?? facts.username,
  });
}

/**
 * The signing neurologist. Users hold no NPI yet, so the identifier is Vigil's user name under Vigil's system (US
 * Core requires an identifier, with NPI as a must-support slice): a receiver can tell two signers apart but cannot
 * look them up in NPPES.
 */
export function practitionerResource(settings: FhirSettings, facts: PractitionerFacts & { sub: string }): FhirResource {
  const name = humanNameOf(facts.name ?? facts.username);
  return {
    resourceType: "Practitioner",
    id: facts.sub,
    meta: { profile: [usCoreProfiles.practitioner] },
    text: narrativeOf(name.text, [["User", facts.username]]),
    identifier: [practitionerIdentifier(settings, facts)],
    name: [name],
  };
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
