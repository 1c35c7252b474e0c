/**
 * How a logged message is laid out for reading (docs/design/HL7.md, "The message log"): split on its own
 * delimiters (MSH-1, MSH-2), with an embedded document shortened so that a result carrying a 2 MB PDF still makes a
 * page of a few kilobytes. Values are shown as sent (escapes, components and all): the log is where an interface
 * analyst checks what was on the wire.
 */

export type DisplaySegment = { name: string; fields: string[] };

/** A field longer than this is cut, whatever it holds: a page shows the message, not a dump of it. */
const longestField = 2_000;
/** A component of base64 longer than this is an embedded document, not a value to read. */
const embeddedDocumentLength = 256;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

type Delimiters = { field: string; component: string };

/** The field and component separators a message declares in MSH-1 and MSH-2; HL7's defaults otherwise. */
export function delimitersOf(text: string): Delimiters {
  if (!text.startsWith("MSH") || text.length < 5) return { field: "|", component: "^" };
  const field = text.charAt(3);
  const component = text.charAt(4);
  const usable = (character: string) => character !== "" && !/[A-Za-z0-9\s]/.test(character);
  return usable(field) && usable(component) && field !== component
    ? { field, component }
    : { field: "|", component: "^" };
}

/** Segments as stored (`\r`) or as shown (line breaks); blank lines dropped. */
function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== "");
}

function thousands(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * OBX-5 of an ED (encapsulated data) value: source ^ type ^ subtype ^ encoding ^ data. The data component becomes
 * "[PDF, 123,456 bytes base64]" (the subtype names the document kind when it has one).
 */
function shortenEmbedded(value: string, delimiters: Delimiters): string {
  const components = value.split(delimiters.component);
  let changed = false;
  const shortened = components.map((component) => {
    if (component.length <= embeddedDocumentLength || !base64.test(component)) return component;
    changed = true;
    const kind = (components[2] ?? "").trim().toUpperCase();
    return `[${kind ? `${kind}, ` : ""}${thousands(component.length)} bytes base64]`;
  });
  return changed ? shortened.join(delimiters.component) : value;
}

function shortenLong(value: string): string {
  if (value.length <= longestField) return value;
  return `${value.slice(0, longestField)}… [${thousands(value.length - longestField)} more characters]`;
}

/** One segment's fields, shortened. For MSH, field 1 is the field separator itself (so MSH-2 is `fields[1]`). */
function segmentOf(line: string, delimiters: Delimiters): DisplaySegment {
  const parts = line.split(delimiters.field);
  const name = parts[0] ?? "";
  const values = name === "MSH" ? [delimiters.field, ...parts.slice(1)] : parts.slice(1);
  return { name, fields: values.map((value) => shortenLong(shortenEmbedded(value, delimiters))) };
}

/** The message's segments, each field shortened where it holds a document or is very long. */
export function displaySegments(text: string): DisplaySegment[] {
  const delimiters = delimitersOf(text);
  return linesOf(text).map((line) => segmentOf(line, delimiters));
}

/** The message as text to show: one segment per line, the same shortening as its segments. */
export function displayText(text: string): string {
  const delimiters = delimitersOf(text);
  return linesOf(text)
    .map((line) => {
      const segment = segmentOf(line, delimiters);
      const fields = segment.name === "MSH" ? segment.fields.slice(1) : segment.fields;
      return [segment.name, ...fields].join(delimiters.field);
    })
    .join("\n");
}
