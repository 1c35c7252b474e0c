/**
 * Text PostgreSQL cannot hold, found in input before it reaches a service (reliability/route-fuzzing.test.ts found
 * both as 500s):
 * - U+0000: no text value may contain it ("invalid byte sequence for encoding UTF8: 0x00"), so every route that
 *   stores or searches text failed its query;
 * - an unpaired UTF-16 surrogate (valid in a JSON string escape, not in Unicode text): `jsonb` refuses it, so a
 *   record's, a bug report's or an audit event's JSON failed to store, while `text` columns silently turned it into
 *   U+FFFD.
 *
 * Returns the dotted path of the first string (or property name) holding such text, e.g. `body.patient.mrn`, and why.
 * Walks with its own stack, not recursion: a JSON body may nest thousands of levels deep.
 */
export function findUnstorableText(value: unknown, path: string): { path: string; message: string } | undefined {
  const pending: [unknown, string][] = [[value, path]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, itemPath] = next;
    if (typeof item === "string") {
      const message = unstorable(item);
      if (message) return { path: itemPath, message };
    } else if (item !== null && typeof item === "object") {
      // Reversed onto the stack, so the first offending field in document order is the one reported.
      for (const [key, child] of Object.entries(item).reverse()) {
        const message = unstorable(key);
        if (message) return { path: `${itemPath}.${key}`, message: `(the name) ${message}` };
        pending.push([child, `${itemPath}.${key}`]);
      }
    }
  }
  return undefined;
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function unstorable(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain NUL characters (U+0000)";
  if (loneSurrogate.test(text)) return "must be valid Unicode text (it has an unpaired surrogate)";
  return undefined;
}

// `fatal`: a malformed byte sequence is an error, where the lenient default silently replaces it with U+FFFD.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export const malformedUtf8Message = "must be valid UTF-8 text (it has a malformed byte sequence)";

/**
 * A request body's bytes as text, or undefined when they are not UTF-8. Decoded leniently (as Fastify and Node do),
 * each malformed sequence became U+FFFD and was stored as if the client had sent it, where NUL and lone surrogates
 * are refused: the client's text is lost either way, so it is refused too. A leading byte-order mark is dropped.
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
