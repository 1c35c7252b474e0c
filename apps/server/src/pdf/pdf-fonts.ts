/// <reference path="./fontkit.d.ts" />
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { create, type Font } from "fontkit";

/**
 * The fonts every PDF Vigil makes is printed in (reports now, invoices later): Noto, under the SIL Open Font License,
 * from the `@expo-google-fonts/noto-sans*` packages (static TrueType files, which pdfkit embeds as subsets holding
 * only the glyphs a document uses, with a ToUnicode map so copied and extracted text is the text written).
 *
 * A text is split into runs, each printed in the first family that has a glyph for every character of it:
 *   - Noto Sans: Latin with its extensions (Polish, Czech, Turkish, Vietnamese…), Greek, Cyrillic, Devanagari, and
 *     the typographic marks (– — “ ” · µ);
 *   - Noto Sans SC: Han ideographs (Chinese, and the kanji of Japanese names), Hiragana and Katakana, and the
 *     mathematical and arrow signs Noto Sans lacks (≈ ≥ ≤ →);
 *   - Noto Sans KR: Hangul.
 * A character none of them has (Arabic, Hebrew, Thai, emoji, …) is printed as U+FFFD "�", visibly, never as a wrong
 * glyph or a silent "?" (`uncoveredCharacter`); the stored inputs (and a report's FHIR copy) keep the real text.
 *
 * Each file is read once, the first time a document needs it (the CJK files are 6–10 MB each, and most documents
 * never need them), and kept for the life of the process.
 */

export type FontWeight = "regular" | "bold";

const families = [
  { key: "sans", package: "@expo-google-fonts/noto-sans", file: "NotoSans" },
  { key: "sc", package: "@expo-google-fonts/noto-sans-sc", file: "NotoSansSC" },
  { key: "kr", package: "@expo-google-fonts/noto-sans-kr", file: "NotoSansKR" },
] as const;

const weightFolders: Record<FontWeight, string> = { regular: "400Regular", bold: "700Bold" };

/** What a character no family covers is printed as: the Unicode replacement character, which Noto Sans has. */
export const uncoveredCharacter = "\uFFFD";

type LoadedFont = { name: string; font: Font };

const require = createRequire(import.meta.url);
const loaded = new Map<string, LoadedFont>();

function loadFont(family: (typeof families)[number], weight: FontWeight): LoadedFont {
  const name = `${family.file}-${weight}`;
  let entry = loaded.get(name);
  if (!entry) {
    const folder = weightFolders[weight];
    const bytes = readFileSync(require.resolve(`${family.package}/${folder}/${family.file}_${folder}.ttf`));
    const font = create(bytes);
    if (!("hasGlyphForCodePoint" in font)) throw new Error(`${name} is a font collection, not a single font.`);
    entry = { name, font };
    loaded.set(name, entry);
  }
  return entry;
}

/** A run of text and the registered name of the font that prints it. */
export type FontRun = { font: string; text: string };

// Characters that belong to whatever run they are in: spaces and line ends, combining marks, joiners, selectors.
const followsItsRun = /^(?:\s|\p{M}|[\u200b-\u200d\u2060]|\p{Variation_Selector})$/u;

function familyFor(codePoint: number, weight: FontWeight): LoadedFont | undefined {
  for (const family of families) {
    const candidate = loadFont(family, weight);
    if (candidate.font.hasGlyphForCodePoint(codePoint)) return candidate;
  }
  return undefined;
}

/**
 * `text` (in NFC, so a letter with its accents is one precomposed glyph where the font has it) split into runs by
 * the font that prints each character (see above); a character no font has becomes `uncoveredCharacter`. An empty text is one empty run, so a caller's line still advances.
 */
export function fontRunsOf(text: string, weight: FontWeight): FontRun[] {
  const primary = loadFont(families[0], weight).name;
  const runs: FontRun[] = [];
  for (const char of text.normalize("NFC").replace(/\r\n?/g, "\n")) {
    const current = runs[runs.length - 1];
    if (current && followsItsRun.test(char)) {
      current.text += char;
      continue;
    }
    const font = familyFor(char.codePointAt(0) ?? 0, weight);
    const name = font?.name ?? primary;
    const printed = font ? char : uncoveredCharacter;
    if (current?.font === name) current.text += printed;
    else runs.push({ font: name, text: printed });
  }
  return runs.length > 0 ? runs : [{ font: primary, text: "" }];
}

/**
 * The parsed font `fontRunsOf` named, for `doc.registerFont` (pdfkit takes a fontkit font as it is). One parsed
 * font serves every document: parsing the tables again for each document cost ~0.5 s a report.
 */
export function fontNamed(name: string): Font {
  const entry = loaded.get(name);
  if (!entry) throw new Error(`No font named ${name} was loaded.`);
  return entry.font;
}
