import type { Hl7Direction } from "./schemas/interfaces.js";

/**
 * What Vigil's hospital interfaces conform to, as data: the conformance page (`/interfaces/conformance`) renders
 * it, the server's inbound interface reads its accepted versions from it, and docs/design/HL7.md and FHIR.md point
 * here instead of keeping a second copy. The FHIR resources, interactions and search parameters are not here: they
 * are the `fhirRoutes` rows, which the CapabilityStatement is built from too.
 */

export type Hl7SupportedMessage = {
  direction: Hl7Direction;
  /** MSH-9 as it is sent: `ORM^O01`. */
  type: string;
  /** ORC-1 order control codes taken or sent, where the message carries one. */
  orderControl?: readonly string[];
  meaning: string;
};

export type Hl7AckCode = { code: string; enhanced: string; meaning: string };
export type Hl7ErrorCode = { code: string; meaning: string };
export type Hl7RequiredField = { field: string; meaning: string; when: string };

export type UsCoreRequirement = { resource: string; requirement: string; met: boolean; why: string };

/** HL7 v2 over MLLP (docs/design/HL7.md). */
export const hl7Conformance = {
  /** MSH-12.1 values read: the segments and fields taken mean the same in each; another is refused (AR 203). */
  versionsAccepted: ["2.3", "2.3.1", "2.4", "2.5", "2.5.1", "2.6"],
  /** The version written unless the client's interface profile names another. */
  defaultOutboundVersion: "2.5.1",
  framing: [
    "MLLP: each message framed by VT (0x0B) before and FS CR (0x1C 0x0D) after; one message per frame, answered in order.",
    "Vigil listens on the port set by HL7_MLLP_PORT (off unless set), plain TCP or TLS (HL7_MLLP_TLS_*), on every instance.",
    "Character sets (MSH-18): UTF-8 when empty, ASCII, 8859/1; bytes invalid in the declared set are refused (AR 102).",
    "A frame may hold up to 16 MiB (HL7_MLLP_MAX_BYTES); a 10 MB result passes.",
    "Vigil sends one message per connection to the profile's host and port, TLS optional, and waits 30 s for the ACK.",
  ],
  messages: [
    {
      direction: "inbound",
      type: "ORM^O01",
      orderControl: ["NW"],
      meaning: "New order: a case in intake for the client",
    },
    { direction: "inbound", type: "ORM^O01", orderControl: ["CA", "DC"], meaning: "Cancel an order still in intake" },
    {
      direction: "inbound",
      type: "ORM^O01",
      orderControl: ["XO"],
      meaning: "Change an order's visit, provider, reason, study type",
    },
    { direction: "inbound", type: "OML^O21", orderControl: ["NW", "CA", "DC", "XO"], meaning: "As ORM^O01" },
    { direction: "inbound", type: "ADT^A01", meaning: "Admit: demographics reach the patient's open cases" },
    { direction: "inbound", type: "ADT^A04", meaning: "Register: demographics reach the patient's open cases" },
    { direction: "inbound", type: "ADT^A08", meaning: "Update: demographics reach the patient's open cases" },
    {
      direction: "inbound",
      type: "ADT^A03",
      meaning: "Discharge: the open cases show “patient discharged — end monitoring?”",
    },
    {
      direction: "outbound",
      type: "ORU^R01",
      orderControl: ["RE"],
      meaning: "The signed report: impression as FT, the PDF as ED; OBR-25 F, or C for an addendum",
    },
    {
      direction: "outbound",
      type: "MDM^T02",
      meaning: "The signed report as a document (TXA + OBX ED), when the profile asks",
    },
    { direction: "outbound", type: "MDM^T08", meaning: "An addendum replacing the document sent before" },
    {
      direction: "outbound",
      type: "ORM^O01",
      orderControl: ["SC"],
      meaning: "Order status, when the profile asks: ORC-5 IP (monitoring), CM (signed), CA (cancelled)",
    },
  ] satisfies readonly Hl7SupportedMessage[],
  ackCodes: [
    { code: "AA", enhanced: "CA", meaning: "Applied: the message and its effect are stored" },
    { code: "AE", enhanced: "CE", meaning: "Not applied: correct it and send it again (ERR says why)" },
    { code: "AR", enhanced: "CR", meaning: "Refused: not taken here (unknown sender, type, event or version)" },
  ] satisfies readonly Hl7AckCode[],
  ackModes: [
    "Original mode when MSH-15 and MSH-16 are empty: AA, AE or AR.",
    "Enhanced mode when either is valued: the commit ACK CA, CE or CR as MSH-15 asks, sent after the message and its effect are stored, carrying the outcome.",
    "A repeated MSH-10 from the same MSH-3/MSH-4 gets the stored ACK again and changes nothing.",
    "Every AE/AR carries one ERR: ERR-2 the location, ERR-3 the table 0357 code, ERR-4 E, ERR-8 in words.",
  ],
  errorCodes: [
    { code: "100", meaning: "No readable MSH, or a second MSH in the frame" },
    { code: "101", meaning: "A required field is missing (ERR-2 names it)" },
    { code: "102", meaning: "A date that is no date, an over-long identifier, broken bytes" },
    { code: "103", meaning: "ORC-1 other than NW, CA, DC, XO; a character set not read" },
    { code: "200", meaning: "A message type other than ORM, OML, ADT (AR)" },
    { code: "201", meaning: "An event other than those listed (AR)" },
    { code: "203", meaning: "An MSH-12 version not read here (AR)" },
    { code: "204", meaning: "No profile owns MSH-3/MSH-4 (AR); another assigning authority, an unknown order (AE)" },
    { code: "205", meaning: "The placer order number is another patient's order" },
    {
      code: "207",
      meaning: "The profile is switched off (AR); the case is past intake or closed, or an internal failure (AE)",
    },
  ] satisfies readonly Hl7ErrorCode[],
  requiredFields: [
    { field: "MSH-3, MSH-4", meaning: "Sending application, facility", when: "every message" },
    { field: "MSH-9", meaning: "Message type ^ event", when: "every message" },
    { field: "MSH-10", meaning: "Message control id", when: "every message" },
    { field: "MSH-12", meaning: "Version id", when: "every message" },
    { field: "PID-3.1, PID-3.4", meaning: "MRN and its assigning authority (the profile's)", when: "every message" },
    { field: "PID-5.1, PID-5.2", meaning: "Family and given name", when: "every message" },
    { field: "ORC-1", meaning: "Order control", when: "orders" },
    { field: "ORC-2 (else OBR-2)", meaning: "Placer order number", when: "orders" },
  ] satisfies readonly Hl7RequiredField[],
} as const;

/** FHIR R4 beside the v2 interface (docs/design/FHIR.md): what the routes table cannot say. */
export const fhirConformance = {
  fhirVersion: "4.0.1",
  /** Under the server's public URL. */
  tokenPath: "/fhir/auth/token",
  smartConfigurationPath: "/.well-known/smart-configuration",
  tokenRequest: [
    "grant_type=client_credentials",
    "client_assertion_type=urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    "client_assertion=<JWT signed RS384 or ES384 by the system's private key; iss = sub = client id, aud = the token URL, exp at most 5 minutes ahead, jti never reused>",
    "scope=<SMART v2 system scopes, e.g. system/DiagnosticReport.rs>",
  ],
  tokenLifetimeSeconds: 300,
  usCore: [
    {
      resource: "Patient",
      requirement: "identifier with system, name with family, gender",
      met: true,
      why: "Checked by Medplum's validator against US Core 5.0.1 Patient",
    },
    {
      resource: "Patient",
      requirement: "race, ethnicity, birth sex, address, telecom",
      met: false,
      why: "Vigil does not collect them",
    },
    {
      resource: "Practitioner",
      requirement: "identifier (NPI slice) and family name",
      met: true,
      why: "When the signer's user holds an NPI",
    },
    {
      resource: "Practitioner",
      requirement: "NPI for every signer",
      met: false,
      why: "Vigil does not look NPIs up; the administrator or the user enters it",
    },
    {
      resource: "DiagnosticReport (Note)",
      requirement: "status, category, code, subject, effective, issued, performer, presentedForm",
      met: true,
      why: "Every signed report; encounter when known, conclusionCode when coded",
    },
    {
      resource: "Observation",
      requirement: "the ACNS findings under result as US Core-profiled Observations",
      met: false,
      why: "They are R4 Observations under result without a US Core profile (5.0.1 has none for a procedure's findings); codes are text where none could be verified; the background is not sent",
    },
    {
      resource: "DocumentReference",
      requirement: "status, type, category clinical-note, subject, date, author, content, format, context",
      met: true,
      why: "One per report version",
    },
    {
      resource: "Encounter",
      requirement: "a served US Core Encounter",
      met: false,
      why: "The encounter is a logical reference by the hospital's visit number",
    },
    {
      resource: "ServiceRequest",
      requirement: "requester as a Practitioner reference",
      met: false,
      why: "The ordering provider arrives as a name only",
    },
    {
      resource: "Organization",
      requirement: "a served US Core Organization",
      met: false,
      why: "The company and the hospital appear as display names (the company with its NPI as identifier when one is configured)",
    },
  ] satisfies readonly UsCoreRequirement[],
} as const;
