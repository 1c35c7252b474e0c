import { randomBytes } from "node:crypto";
import { Hl7Message } from "@medplum/core";
import {
  escapeHl7,
  type Hl7Delimiters,
  type Hl7Header,
  headerComponent,
  headerField,
  readHeader,
  standardDelimiters,
  unescapeHl7 as unescapeText,
} from "./hl7-text.js";

/**
 * Acknowledgements per HL7 v2.5.1 chapter 2 (§2.9 and the ACK, MSA and ERR segments): pure functions from the
 * inbound message (or just its MSH, when nothing more could be read) to the ACK that answers it, and back from an
 * ACK to what it says.
 */

/** MSA-1, table 0008: AA/AE/AR in original mode and for application acks; CA/CE/CR for enhanced-mode commit acks. */
export type AckCode = "AA" | "AE" | "AR" | "CA" | "CE" | "CR";

/** HL7 table 0357 (message error condition codes), the ones a v2.5.1 receiver sends. */
export const hl7ErrorCodes = {
  0: "Message accepted",
  100: "Segment sequence error",
  101: "Required field missing",
  102: "Data type error",
  103: "Table value not found",
  200: "Unsupported message type",
  201: "Unsupported event code",
  202: "Unsupported processing id",
  203: "Unsupported version id",
  204: "Unknown key identifier",
  205: "Duplicate key identifier",
  206: "Application record locked",
  207: "Application internal error",
} as const;
export type Hl7ErrorCode = keyof typeof hl7ErrorCodes;

/** ERR-4, table 0516: error, warning, information. */
export type Hl7ErrorSeverity = "E" | "W" | "I";

/** ERR-2 (type ERL): where in the inbound message the error is. Sequence is the segment's 1-based occurrence. */
export type Hl7ErrorLocation = {
  segment: string;
  sequence?: number;
  field?: number;
  repetition?: number;
  component?: number;
  subcomponent?: number;
};

export type Hl7Error = {
  code: Hl7ErrorCode;
  location?: Hl7ErrorLocation;
  /** Default "E". */
  severity?: Hl7ErrorSeverity;
  /** Plain words for the sender's interface team (ERR-8, user message). */
  text?: string;
};

/** MSH-15 / MSH-16, table 0155: always, never, on error only, on success only. */
export type AckCondition = "AL" | "NE" | "ER" | "SU";

export type AckMode = { kind: "original" } | { kind: "enhanced"; accept: AckCondition; application: AckCondition };

export type AckOutcome = "accept" | "error" | "reject";

const conditions: readonly string[] = ["AL", "NE", "ER", "SU"];

/**
 * Original mode unless MSH-15 or MSH-16 is valued (v2.5.1 §2.9.2). In enhanced mode an empty or unknown MSH-15
 * reads as AL (a sender who valued only MSH-16 still waits for the commit ack; answering is the safe side), an
 * empty MSH-16 as NE and an unknown one as AL.
 */
export function readAckMode(inbound: Hl7Message | Hl7Header): AckMode {
  const header = asHeader(inbound);
  const accept = headerField(header, 15).trim().toUpperCase();
  const application = headerField(header, 16).trim().toUpperCase();
  if (!accept && !application) return { kind: "original" };
  return {
    kind: "enhanced",
    accept: (conditions.includes(accept) ? accept : "AL") as AckCondition,
    application: (application === "" ? "NE" : conditions.includes(application) ? application : "AL") as AckCondition,
  };
}

/** Whether an ack of a condition is sent for an outcome (AL always, NE never, ER on error, SU on success). */
export function ackWanted(condition: AckCondition, outcome: AckOutcome): boolean {
  if (condition === "AL") return true;
  if (condition === "NE") return false;
  return condition === "SU" ? outcome === "accept" : outcome !== "accept";
}

/**
 * The code of the acknowledgement answered on the connection: in original mode the application ack (AA/AE/AR);
 * in enhanced mode the commit ack (CA/CE/CR), whose application ack follows separately when MSH-16 asks.
 */
export function immediateAckCode(mode: AckMode, outcome: AckOutcome): AckCode {
  const original = { accept: "AA", error: "AE", reject: "AR" } as const;
  const commit = { accept: "CA", error: "CE", reject: "CR" } as const;
  return (mode.kind === "original" ? original : commit)[outcome];
}

export function applicationAckCode(outcome: AckOutcome): AckCode {
  return ({ accept: "AA", error: "AE", reject: "AR" } as const)[outcome];
}

export type BuildAckOptions = {
  code: AckCode;
  /** MSA-3, free text (deprecated in v2.5.1 but still read by most engines); defaults to the first error's text. */
  text?: string;
  errors?: readonly Hl7Error[];
  /** The ACK's own MSH-10; a new one when not given. */
  controlId?: string;
  at?: Date;
};

/**
 * The ACK for an inbound message: MSH with sending and receiving application/facility swapped, a new MSH-10,
 * MSH-9 `ACK^<event>^ACK`, the inbound MSH-11, MSH-12 and MSH-18; MSA with the code, the inbound MSH-10 and text;
 * one ERR per error. Written with the inbound message's own delimiters (its copied fields are in them), or the
 * standard ones when the inbound's could not be read (`header` undefined).
 */
export function buildAck(inbound: Hl7Message | Hl7Header | undefined, options: BuildAckOptions): Hl7Message {
  return Hl7Message.parse(buildAckText(inbound, options));
}

export function buildAckText(inbound: Hl7Message | Hl7Header | undefined, options: BuildAckOptions): string {
  const header = inbound === undefined ? undefined : asHeader(inbound);
  const delimiters = header?.delimiters ?? standardDelimiters;
  const { field, component } = delimiters;
  const raw = (sequence: number) => (header ? headerField(header, sequence) : "");
  const event = header ? headerComponent(header, 9, 2) : "";
  const msh = [
    "MSH",
    `${delimiters.component}${delimiters.repetition}${delimiters.escape}${delimiters.subcomponent}`,
    raw(5),
    raw(6),
    raw(3),
    raw(4),
    formatHl7Timestamp(options.at ?? new Date()),
    "",
    event ? ["ACK", event, "ACK"].join(component) : "ACK",
    escapeHl7(options.controlId ?? newControlId(), delimiters),
    raw(11) || "P",
    raw(12) || "2.5.1",
    "",
    "",
    "",
    "",
    "",
    raw(18),
  ];
  while (msh.length > 12 && msh[msh.length - 1] === "") msh.pop();
  const errors = options.errors ?? [];
  const text = options.text ?? errors.find((error) => error.text)?.text ?? "";
  const msa = ["MSA", options.code, raw(10), escapeHl7(oneLine(text), delimiters)];
  while (msa.length > 3 && msa[msa.length - 1] === "") msa.pop();
  // MSH-1 is the field separator itself: "MSH" + "|" + "^~\&" + "|" …, hence the join from MSH-2 on.
  const segments = [`MSH${field}${msh.slice(1).join(field)}`, msa.join(field)];
  for (const error of errors) segments.push(errSegment(error, delimiters));
  return segments.join("\r");
}

function errSegment(error: Hl7Error, delimiters: Hl7Delimiters): string {
  const { field, component } = delimiters;
  const location = error.location ? formatLocation(error.location, component) : "";
  const code = [String(error.code), hl7ErrorCodes[error.code], "HL70357"].join(component);
  // ERR-1 (deprecated) empty; ERR-2 location; ERR-3 code; ERR-4 severity; ERR-5..7 empty; ERR-8 user message.
  const fields = [
    "ERR",
    "",
    location,
    code,
    error.severity ?? "E",
    "",
    "",
    "",
    escapeHl7(oneLine(error.text ?? ""), delimiters),
  ];
  while (fields[fields.length - 1] === "") fields.pop();
  return fields.join(field);
}

function formatLocation(location: Hl7ErrorLocation, component: string): string {
  const parts = [
    location.segment,
    location.sequence ?? 1,
    location.field ?? "",
    location.field !== undefined && location.component !== undefined ? (location.repetition ?? 1) : "",
    location.component ?? "",
    location.subcomponent ?? "",
  ].map(String);
  while (parts.length > 1 && parts[parts.length - 1] === "") parts.pop();
  return parts.join(component);
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ").trim();
}

function asHeader(inbound: Hl7Message | Hl7Header): Hl7Header {
  if (!(inbound instanceof Hl7Message)) return inbound;
  const header = readHeader(inbound.toString());
  if (!header) throw new Error("The message has no readable MSH segment");
  return header;
}

/** A new MSH-10: unique, at most 20 characters (the v2.5.1 length of the field). */
export function newControlId(): string {
  return `V${Date.now().toString(36).toUpperCase()}${randomBytes(6).toString("hex").toUpperCase()}`.slice(0, 20);
}

/** A DTM in UTC with its offset written out, so no receiver reads it in its own zone: YYYYMMDDHHMMSS+0000. */
export function formatHl7Timestamp(at: Date): string {
  return `${at.toISOString().slice(0, 19).replace(/[-T:]/g, "")}+0000`;
}

/** What an ACK says, read back. */
export type ReadAck = {
  code: AckCode;
  /** MSA-2: the control id of the message acknowledged. */
  acknowledgedControlId: string;
  /** MSA-3, unescaped. */
  text: string;
  errors: Array<{ code: string; codeText: string; location: string; severity: string; text: string }>;
};

const ackCodes: readonly string[] = ["AA", "AE", "AR", "CA", "CE", "CR"];

/** Reads an ACK; `undefined` when the message has no MSA with a known code (not an acknowledgement). */
export function readAck(message: Hl7Message): ReadAck | undefined {
  const msa = message.getSegment("MSA");
  const code = msa?.getComponent(1, 1).trim().toUpperCase() ?? "";
  if (!msa || !ackCodes.includes(code)) return undefined;
  const { context } = message;
  const delimiters: Hl7Delimiters = {
    field: context.fieldSeparator,
    component: context.componentSeparator,
    repetition: context.repetitionSeparator,
    escape: context.escapeCharacter,
    subcomponent: context.subcomponentSeparator,
  };
  return {
    code: code as AckCode,
    acknowledgedControlId: msa.getField(2)?.toString() ?? "",
    text: unescapeText(msa.getField(3)?.toString() ?? "", delimiters),
    errors: message.getAllSegments("ERR").map((err) => ({
      code: err.getComponent(3, 1),
      codeText: unescapeText(err.getComponent(3, 2), delimiters),
      location: err.getField(2)?.toString() ?? "",
      severity: err.getComponent(4, 1),
      text: unescapeText(err.getField(8)?.toString() || err.getField(7)?.toString() || "", delimiters),
    })),
  };
}
