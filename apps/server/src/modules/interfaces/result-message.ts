import type { Hl7ResultStyle, InterfaceProfileContent } from "@vigil/contract";
import { formatHl7Timestamp } from "../../hl7/hl7-ack.js";
import { escapeHl7 } from "../../hl7/hl7-text.js";
import type { ReportInputs } from "../reports/reports-service.js";

/**
 * The result messages Vigil sends into the hospital's chart (docs/design/HL7.md, "Outbound"): pure functions from a
 * stored report version (its inputs and PDF, never re-read from the live case) and the case's order to the message
 * text, segments separated by `\r`. Golden files of what they write sit beside the tests.
 */

/** MSH-3 of every message Vigil sends. */
export const vigilSendingApplication = "VIGIL";

/** OBX-3 and OBR-4: LOINC 11523-8 "EEG study", the code the FHIR DiagnosticReport carries too. */
export const eegStudyCode = "11523-8^EEG study^LN";

/** The message types a version goes as: an addendum is a corrected result, or an edited document (T08). */
export type ResultMessageType = "ORU^R01" | "MDM^T02" | "MDM^T08";

export function resultMessageTypeOf(style: Hl7ResultStyle, version: number): ResultMessageType {
  if (style === "ORU^R01") return "ORU^R01";
  return version > 1 ? "MDM^T08" : "MDM^T02";
}

/** The hospital's order the case came from (case_orders), when it came by interface. */
export type ResultOrder = {
  placerOrderNumber: string;
  visitNumber: string | null;
  mrnAssigningAuthority: string | null;
};

export type ResultMessageInput = {
  style: Hl7ResultStyle;
  controlId: string;
  /** MSH-7. */
  at: Date;
  /** MSH-4 (HL7_SENDING_FACILITY). */
  sendingFacility: string;
  profile: Pick<
    InterfaceProfileContent,
    "receivingApplication" | "receivingFacility" | "hl7Version" | "mrnAssigningAuthority" | "sendingApplication"
  >;
  order: ResultOrder | null;
  /** The version's stored inputs: the report as signed (and its addenda up to this version). */
  inputs: ReportInputs;
  /** The stored PDF, whose bytes OBX-5 carries. */
  pdf: Buffer;
};

const sexCodes: Record<ReportInputs["patient"]["sex"], string> = { female: "F", male: "M", other: "O", unknown: "U" };

/**
 * Free text for an FT field: each line escaped (HL7 v2.5.1 §2.7.4: \F\ \S\ \T\ \R\ \E\), lines joined by `\.br\`.
 * FT rather than TX because `\.br\` is FT's own line break (§2.7.6) that every engine renders; TX has no line break
 * inside one value (a multi-line TX is repetitions, which many receivers concatenate or drop).
 */
export function formattedText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => escapeHl7(line))
    .join("\\.br\\");
}

function date(value: string | null | undefined): string {
  return value ? value.slice(0, 10).replaceAll("-", "") : "";
}

function instant(value: string | null | undefined): string {
  return value ? formatHl7Timestamp(new Date(value)) : "";
}

/** A segment from its fields (field 1 first); trailing empty fields dropped. */
export function segment(name: string, fields: readonly string[]): string {
  const kept = [...fields];
  while (kept.length > 0 && kept[kept.length - 1] === "") kept.pop();
  return [name, ...kept].join("|");
}

/** Fields 1..n from a sparse map of field number → value. */
export function fieldsOf(values: Record<number, string>): string[] {
  const last = Math.max(0, ...Object.keys(values).map(Number));
  return Array.from({ length: last }, (_, index) => values[index + 1] ?? "");
}

/** MSH-9: v2.3.1 has no message structure component. */
function messageTypeField(type: ResultMessageType, version: string): string {
  if (version === "2.3.1") return type;
  const structure = type === "ORU^R01" ? "ORU_R01" : "MDM_T02";
  return `${type}^${structure}`;
}

function mshOf(input: ResultMessageInput, type: ResultMessageType): string {
  return mshSegment(input, messageTypeField(type, input.profile.hl7Version));
}

/** The MSH of every message Vigil sends; `messageType` is MSH-9 as written. */
export function mshSegment(
  input: Pick<ResultMessageInput, "controlId" | "at" | "sendingFacility"> & {
    profile: Pick<InterfaceProfileContent, "receivingApplication" | "receivingFacility" | "hl7Version">;
  },
  messageType: string,
): string {
  const { profile } = input;
  // MSH-15/16 left empty: original acknowledgement mode, one AA/AE/AR per message. MSH-18 says UTF-8, the only
  // way a name like 王小明 reaches the chart as written.
  return [
    "MSH",
    "^~\\&",
    vigilSendingApplication,
    escapeHl7(input.sendingFacility),
    escapeHl7(profile.receivingApplication),
    escapeHl7(profile.receivingFacility),
    formatHl7Timestamp(input.at),
    "",
    messageType,
    input.controlId,
    "P",
    profile.hl7Version,
    "",
    "",
    "",
    "",
    "",
    "UNICODE UTF-8",
  ].join("|");
}

function pidOf(input: ResultMessageInput): string {
  return pidSegment(input.inputs.patient, input.order?.mrnAssigningAuthority ?? input.profile.mrnAssigningAuthority);
}

/** PID: the MRN with its assigning authority, the name, date of birth and sex. */
export function pidSegment(
  patient: Pick<ReportInputs["patient"], "mrn" | "firstName" | "lastName" | "dateOfBirth" | "sex">,
  authority: string,
): string {
  return segment(
    "PID",
    fieldsOf({
      1: "1",
      3: `${escapeHl7(patient.mrn)}^^^${escapeHl7(authority)}^MR`,
      5: `${escapeHl7(patient.lastName)}^${escapeHl7(patient.firstName)}`,
      7: date(patient.dateOfBirth),
      8: sexCodes[patient.sex],
    }),
  );
}

function pv1Of(input: ResultMessageInput): string {
  // Table 0004: an ambulatory study is an outpatient's; ICU and EMU monitoring are inpatients'.
  const patientClass = input.inputs.case.studyType === "ambulatory" ? "O" : "I";
  return segment("PV1", fieldsOf({ 1: "1", 2: patientClass, 19: escapeHl7(input.order?.visitNumber ?? "") }));
}

/** ORC-2/OBR-2: the hospital's order number, in its own namespace (MSH-3 of its messages). */
function placerOf(input: ResultMessageInput): string {
  return input.order
    ? `${escapeHl7(input.order.placerOrderNumber)}^${escapeHl7(input.profile.sendingApplication)}`
    : "";
}

/** ORC-3/OBR-3: Vigil's case number, the same for every version, so a corrected result replaces its original. */
function fillerOf(input: ResultMessageInput): string {
  return `${escapeHl7(input.inputs.case.number)}^${vigilSendingApplication}`;
}

/** The signer as an XCN/NDL-style id and name: username, then the name as one family-name component. */
function signer(input: ResultMessageInput, separator: string): string {
  const { signedBy } = input.inputs;
  return `${escapeHl7(signedBy.username)}${separator}${escapeHl7(signedBy.name ?? signedBy.username)}`;
}

/** The text the chart shows beside the PDF: the impression, the correlation, and every addendum so far. */
export function resultText(inputs: ReportInputs): string {
  const lines = [`Impression: ${inputs.interpretation.impression}`];
  if (inputs.interpretation.clinicalCorrelation) {
    lines.push(`Clinical correlation: ${inputs.interpretation.clinicalCorrelation}`);
  }
  for (const addendum of inputs.addenda) {
    const who = addendum.author.name ?? addendum.author.username;
    lines.push(`ADDENDUM (${addendum.createdAt.slice(0, 10)}, ${who}): ${addendum.text}`);
  }
  return lines.join("\n");
}

/** OBX-5 of type ED: source application ^ type (MIME, table 0191) ^ subtype ^ encoding (table 0299) ^ data. */
export function encapsulatedPdf(pdf: Buffer): string {
  // Base64's alphabet holds none of the delimiters, so the data needs no escaping.
  return `^application^pdf^Base64^${pdf.toString("base64")}`;
}

/** ORU^R01: the result, with the impression as text (OBX 1, FT) and the PDF (OBX 2, ED). */
function buildOru(input: ResultMessageInput): string {
  const { inputs } = input;
  const corrected = inputs.report.version > 1;
  const status = corrected ? "C" : "F";
  const issued = instant(inputs.report.issuedAt);
  const orc = segment("ORC", fieldsOf({ 1: "RE", 2: placerOf(input), 3: fillerOf(input), 5: "CM", 9: issued }));
  const obr = segment(
    "OBR",
    fieldsOf({
      1: "1",
      2: placerOf(input),
      3: fillerOf(input),
      4: eegStudyCode,
      7: instant(inputs.interpretation.periodFrom),
      8: instant(inputs.interpretation.periodTo),
      22: issued,
      24: "EN",
      25: status,
      32: signer(input, "&"),
    }),
  );
  const obxText = segment(
    "OBX",
    fieldsOf({
      1: "1",
      2: "FT",
      3: eegStudyCode,
      4: "1",
      5: formattedText(resultText(inputs)),
      11: status,
      14: issued,
    }),
  );
  const obxPdf = segment(
    "OBX",
    fieldsOf({ 1: "2", 2: "ED", 3: eegStudyCode, 4: "2", 5: encapsulatedPdf(input.pdf), 11: status, 14: issued }),
  );
  return [mshOf(input, "ORU^R01"), pidOf(input), pv1Of(input), orc, obr, obxText, obxPdf].join("\r");
}

/** TXA-12 of a version: unique per version, the same on every retry. TXA-13 of an addendum names version 1's. */
export function documentNumberOf(inputs: ReportInputs, version = inputs.report.version): string {
  return `${inputs.report.interpretationId}.${version}^${vigilSendingApplication}`;
}

/**
 * MDM^T02 (original document) or T08 (edited document: the addendum, TXA-13 naming the original so the chart
 * replaces it): EVN, PID, PV1, TXA, and the PDF in OBX (ED).
 */
function buildMdm(input: ResultMessageInput, type: "MDM^T02" | "MDM^T08"): string {
  const { inputs } = input;
  const issued = instant(inputs.report.issuedAt);
  const event = type === "MDM^T08" ? "T08" : "T02";
  const txa = segment(
    "TXA",
    fieldsOf({
      1: "1",
      // Table 0270 has no EEG report; PN (procedure note) is what an EEG interpretation is filed as.
      2: "PN",
      3: "AP",
      4: instant(inputs.interpretation.periodTo),
      5: signer(input, "^"),
      6: issued,
      9: signer(input, "^"),
      12: documentNumberOf(inputs),
      13: type === "MDM^T08" ? documentNumberOf(inputs, 1) : "",
      14: placerOf(input),
      15: fillerOf(input),
      // Table 0271: LA, legally authenticated (signed); 0273: AV, available for patient care.
      17: "LA",
      19: "AV",
      // TXA-22 (PPN): the signer, and in component 15 when they signed.
      22: `${signer(input, "^")}${"^".repeat(13)}${instant(inputs.signedAt)}`,
    }),
  );
  const obx = segment(
    "OBX",
    fieldsOf({
      1: "1",
      2: "ED",
      3: eegStudyCode,
      4: "1",
      5: encapsulatedPdf(input.pdf),
      11: type === "MDM^T08" ? "C" : "F",
      14: issued,
    }),
  );
  return [mshOf(input, type), segment("EVN", [event, issued]), pidOf(input), pv1Of(input), txa, obx].join("\r");
}

/** The message for one report version in the profile's style: ORU^R01, or MDM^T02 (T08 for an addendum). */
export function buildResultMessage(input: ResultMessageInput): { type: ResultMessageType; text: string } {
  const type = resultMessageTypeOf(input.style, input.inputs.report.version);
  return { type, text: type === "ORU^R01" ? buildOru(input) : buildMdm(input, type) };
}
