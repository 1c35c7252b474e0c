/**
 * The text layer of HL7 v2: delimiters (MSH-1, MSH-2), the character set (MSH-18), escape sequences, and the MSH
 * segment read on its own so that a message the parser cannot take can still be answered.
 */

export type Hl7Delimiters = {
  field: string;
  component: string;
  repetition: string;
  escape: string;
  subcomponent: string;
};

export const standardDelimiters: Hl7Delimiters = {
  field: "|",
  component: "^",
  repetition: "~",
  escape: "\\",
  subcomponent: "&",
};

/** The charsets of table 0211 this interface reads and writes; anything else is refused with ERR 103. */
export type Hl7Charset = "utf-8" | "ascii" | "latin1";

/** The MSH segment read by itself: raw field values (still escaped), indexed by MSH field number. */
export type Hl7Header = {
  delimiters: Hl7Delimiters;
  /** `fields[n]` is MSH-n as sent ("" when absent); MSH-1 and MSH-2 are the delimiters. */
  fields: readonly string[];
};

export function headerField(header: Hl7Header, sequence: number): string {
  return header.fields[sequence] ?? "";
}

/** One component (1-based) of the first repetition of MSH-n, still escaped. */
export function headerComponent(header: Hl7Header, sequence: number, component: number): string {
  const first = headerField(header, sequence).split(header.delimiters.repetition)[0] ?? "";
  return first.split(header.delimiters.component)[component - 1] ?? "";
}

const forbiddenDelimiter = /[A-Za-z0-9\r\n\s]/;

/**
 * Reads MSH-1 and MSH-2 and the rest of the MSH segment. `undefined` when the text does not begin with "MSH" or
 * its delimiters are unusable (letters, digits, white space, or the same character twice): then no field can be
 * read with any confidence.
 */
export function readHeader(text: string): Hl7Header | undefined {
  if (!text.startsWith("MSH")) return undefined;
  const field = text.charAt(3);
  const lineEnd = text.slice(4).search(/[\r\n]/);
  const segment = lineEnd === -1 ? text : text.slice(0, 4 + lineEnd);
  const parts = segment.split(field);
  const encoding = parts[1] ?? "";
  // MSH-2 holds four characters (v2.7 adds a fifth, the truncation character).
  if (encoding.length < 4 || encoding.length > 5) return undefined;
  const characters = [field, ...encoding];
  if (characters.some((character) => forbiddenDelimiter.test(character))) return undefined;
  if (new Set(characters).size !== characters.length) return undefined;
  const delimiters: Hl7Delimiters = {
    field,
    component: encoding.charAt(0),
    repetition: encoding.charAt(1),
    escape: encoding.charAt(2),
    subcomponent: encoding.charAt(3),
  };
  // parts[0] is "MSH", parts[1] is MSH-2; MSH-n is parts[n - 1] for n >= 2.
  const fields = ["MSH", field, ...parts.slice(1)];
  return { delimiters, fields };
}

/** MSH-18's first repetition → the charset to read the bytes with; `undefined` for one this interface cannot. */
export function charsetNamed(value: string): Hl7Charset | undefined {
  const name = value.trim().toUpperCase();
  if (name === "" || name === "UNICODE UTF-8" || name === "UTF-8" || name === "UTF8") return "utf-8";
  // ASCII is a subset of UTF-8: a sender that declares ASCII and sends a byte above 0x7F is read as UTF-8 would be.
  if (name === "ASCII") return "ascii";
  if (name === "8859/1" || name === "ISO-8859-1" || name === "ISO IR100") return "latin1";
  return undefined;
}

export type DecodedText =
  | { ok: true; text: string; charset: Hl7Charset; charsetField: string }
  | {
      ok: false;
      reason: "unsupported-charset" | "invalid-bytes";
      /** The text read byte for byte (ISO 8859-1), to answer and to keep for the log. */
      lenient: string;
      charsetField: string;
      /** Where the first undecodable byte is (invalid-bytes only). */
      offset?: number;
      message: string;
    };

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * Decodes a frame's bytes by the charset its MSH-18 names (UTF-8 when none). A byte that is not valid in that
 * charset refuses the whole message rather than being replaced: a patient's name with U+FFFD in it would be
 * stored as if it were what the hospital sent, and the usual cause (Windows-1252 text with no MSH-18) is fixed at
 * the sender by declaring `8859/1`.
 */
export function decodeHl7Bytes(bytes: Buffer): DecodedText {
  // The MSH segment is near the start: read a head byte for byte to find MSH-18, not the whole (maybe 16 MB) frame.
  const head = bytes.subarray(0, 64 * 1024).toString("latin1");
  const header = readHeader(head.replace(/^[\s\0]+/, ""));
  const charsetField = header ? (headerField(header, 18).split(header.delimiters.repetition)[0] ?? "").trim() : "";
  const charset = charsetNamed(charsetField);
  if (!charset) {
    return {
      ok: false,
      reason: "unsupported-charset",
      lenient: bytes.toString("latin1"),
      charsetField,
      message: `The character set "${charsetField}" (MSH-18) is not supported; send UNICODE UTF-8 or 8859/1.`,
    };
  }
  if (charset === "latin1") return { ok: true, text: bytes.toString("latin1"), charset, charsetField };
  try {
    return { ok: true, text: strictUtf8.decode(bytes), charset, charsetField };
  } catch {
    const offset = firstInvalidUtf8(bytes);
    const byte = bytes[offset] ?? 0;
    return {
      ok: false,
      reason: "invalid-bytes",
      lenient: bytes.toString("latin1"),
      charsetField,
      offset,
      message:
        `Byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} at offset ${offset} is not UTF-8` +
        `${charsetField ? ` (MSH-18 says ${charsetField})` : " (no MSH-18, so UTF-8 is assumed)"}; ` +
        "send UTF-8, or declare 8859/1 in MSH-18.",
    };
  }
}

/** The offset of the first byte that does not begin or continue a valid UTF-8 sequence. */
export function firstInvalidUtf8(bytes: Buffer): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : 4;
    if (lead >= 0x80 && (lead < 0xc2 || lead > 0xf4)) return index;
    if (index + length > bytes.length) return index;
    try {
      strictUtf8.decode(bytes.subarray(index, index + length));
    } catch {
      return index;
    }
    index += length;
  }
  return bytes.length;
}

/** Encodes text to send in the charset the peer used; a character ISO 8859-1 lacks becomes "?". */
export function encodeHl7Text(text: string, charset: Hl7Charset): Buffer {
  if (charset !== "latin1") return Buffer.from(text, "utf8");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: what 8859-1 can carry
  return Buffer.from(text.replace(/[^\u0000-\u00ff]/g, "?"), "latin1");
}

/**
 * Escapes free text for one field (HL7 v2.5.1 §2.7.4): the escape character first, then the delimiters; line
 * breaks become `\X0D\` / `\X0A\` so that they cannot end a segment.
 */
export function escapeHl7(text: string, delimiters: Hl7Delimiters = standardDelimiters): string {
  const { escape: esc, field, component, repetition, subcomponent } = delimiters;
  let result = "";
  for (const character of text) {
    if (character === esc) result += `${esc}E${esc}`;
    else if (character === field) result += `${esc}F${esc}`;
    else if (character === component) result += `${esc}S${esc}`;
    else if (character === subcomponent) result += `${esc}T${esc}`;
    else if (character === repetition) result += `${esc}R${esc}`;
    else if (character === "\r") result += `${esc}X0D${esc}`;
    else if (character === "\n") result += `${esc}X0A${esc}`;
    else result += character;
  }
  return result;
}

/**
 * Undoes `escapeHl7` and the other sequences a sender may use in text: `\.br\` (a line break in FT), `\H\`/`\N\`
 * (highlighting, dropped), `\Xhh…\` (bytes, read as ISO 8859-1 code points). An unknown sequence is kept as sent.
 */
export function unescapeHl7(text: string, delimiters: Hl7Delimiters = standardDelimiters): string {
  const { escape: esc } = delimiters;
  if (!text.includes(esc)) return text;
  let result = "";
  let index = 0;
  while (index < text.length) {
    const character = text.charAt(index);
    const close = character === esc ? text.indexOf(esc, index + 1) : -1;
    if (close === -1) {
      result += character;
      index++;
      continue;
    }
    const sequence = text.slice(index + 1, close);
    const replaced = unescapeSequence(sequence, delimiters);
    if (replaced === undefined) {
      result += character;
      index++;
      continue;
    }
    result += replaced;
    index = close + 1;
  }
  return result;
}

function unescapeSequence(sequence: string, delimiters: Hl7Delimiters): string | undefined {
  switch (sequence) {
    case "F":
      return delimiters.field;
    case "S":
      return delimiters.component;
    case "T":
      return delimiters.subcomponent;
    case "R":
      return delimiters.repetition;
    case "E":
      return delimiters.escape;
    case ".br":
      return "\n";
    case "H":
    case "N":
      return "";
  }
  if (/^X(?:[0-9A-Fa-f]{2})+$/.test(sequence)) return Buffer.from(sequence.slice(1), "hex").toString("latin1");
  return undefined;
}
