import PDFDocument from "pdfkit";
import { type FontWeight, fontNamed, fontRunsOf } from "./pdf-fonts.js";

/**
 * An archival, accessible PDF (pdfkit, in-process): PDF 1.7 declaring PDF/A-2b in its XMP metadata (with the sRGB
 * output intent pdfkit adds), tagged (a structure tree a screen reader follows; the caller adds the elements), with
 * the document's language and its title shown by readers instead of the file name. Every character is printed in
 * an embedded Noto subset (`pdf-fonts.ts`): PDF/A forbids the 14 unembedded standard fonts, and they could not show
 * most of the world's names anyway.
 */

export type PdfDoc = InstanceType<typeof PDFDocument>;

export type ArchivalPdfOptions = {
  size: string;
  margins: { top: number; left: number; right: number; bottom: number };
  /** BCP 47, e.g. "en-US": the language of the document's own words (names keep theirs). */
  lang: string;
  info: { Title: string; Author: string; Subject: string; CreationDate: Date };
};

const xmlEscapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * pdfkit writes the title, author and subject into the XMP packet unescaped, so "Smith & Jones" would make the
 * metadata ill-formed XML (and the PDF/A claim false). The document-info dictionary is written before the XMP and
 * takes the text as it is; only the XMP step sees escaped copies.
 */
function escapeXmpText(doc: PdfDoc): void {
  const target = doc as unknown as { _addInfo: () => void; info: Record<string, unknown> };
  const addInfo = target._addInfo;
  target._addInfo = function addEscapedInfo(this: typeof target) {
    const info = this.info;
    this.info = Object.fromEntries(
      Object.entries(info).map(([key, value]) => [
        key,
        typeof value === "string" ? value.replace(/[&<>]/g, (char) => xmlEscapes[char] ?? char) : value,
      ]),
    );
    try {
      addInfo.call(this);
    } finally {
      this.info = info;
    }
  };
}

export function createArchivalPdf(options: ArchivalPdfOptions): PdfDoc {
  const doc = new PDFDocument({
    size: options.size,
    margins: options.margins,
    bufferPages: true,
    pdfVersion: "1.7",
    subset: "PDF/A-2b",
    tagged: true,
    lang: options.lang,
    displayTitle: true,
    // No ModDate: PDF/A wants each info entry mirrored in the XMP, and pdfkit writes no xmp:ModifyDate.
    // biome-ignore lint/plugin/leading-spread-then-keys: Producer and Creator are info fields too: ours win
    info: { ...options.info, Producer: "Vigil", Creator: "Vigil" },
  });
  escapeXmpText(doc);
  return doc;
}

export type TextStyle = { weight: FontWeight; size: number; color: string };

const registered = new WeakMap<PdfDoc, Set<string>>();

function useFont(doc: PdfDoc, name: string): void {
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(name)) {
    // pdfkit's types list file names and bytes only; it takes a parsed fontkit font too (PDFFontFactory.open).
    doc.registerFont(name, fontNamed(name) as unknown as Buffer);
    names.add(name);
  }
  doc.font(name);
}

/**
 * The font's default features but glyph (de)composition: Noto Sans draws "ị" as "i" and a combining dot, and pdfkit
 * maps text to glyphs one glyph at a time, so the extracted text lost the dot ("Thi" for "Thị"). Precomposed glyphs
 * (text is printed in NFC) keep each character one glyph. fontkit takes a map of features to turn on or off; pdfkit's
 * types only know the list form.
 */
const withoutDecomposition = { ccmp: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[];

/**
 * `doc.text` for any text: each run in the font that has its glyphs, the runs chained (`continued`) so they wrap as
 * one line of text. `at` places the first line, as `doc.text(text, x, y)` does; `options.continued` chains this text
 * to the next call's.
 */
export function writeText(
  doc: PdfDoc,
  text: string,
  style: TextStyle,
  options: PDFKit.Mixins.TextOptions = {},
  at?: { x: number; y: number },
): void {
  const runs = fontRunsOf(text, style.weight);
  doc.fillColor(style.color);
  runs.forEach((run, index) => {
    useFont(doc, run.font);
    doc.fontSize(style.size);
    const last = index === runs.length - 1;
    // biome-ignore lint/plugin/leading-spread-then-keys: features and continued are text options too: ours win
    const runOptions = {
      ...options,
      features: withoutDecomposition,
      continued: last ? (options.continued ?? false) : true,
    };
    if (index === 0 && at) doc.text(run.text, at.x, at.y, runOptions);
    else doc.text(run.text, runOptions);
  });
}

/** Ends the document and gives its bytes. */
export async function finishPdf(doc: PdfDoc): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/** Drawing that is decoration, not content (rules, running footers): marked so screen readers skip it. */
export function artifact(doc: PdfDoc, draw: () => void, type?: "Pagination" | "Layout"): void {
  doc.markContent("Artifact", type ? { type } : undefined);
  draw();
  doc.endMarkedContent();
}

/** Every buffered page's running footer: `label` on the left, "Page n of N" on the right, inside the bottom margin. */
export function writePageFooters(doc: PdfDoc, margin: number, style: TextStyle, label: string): void {
  const range = doc.bufferedPageRange();
  for (let index = 0; index < range.count; index += 1) {
    doc.switchToPage(range.start + index);
    // The footer sits inside the bottom margin: without lifting it, pdfkit would start a new page for it.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - margin + 8;
    artifact(
      doc,
      () => {
        writeText(doc, label, style, { width: doc.page.width - 2 * margin - 80, lineBreak: false }, { x: margin, y });
        writeText(
          doc,
          `Page ${index + 1} of ${range.count}`,
          style,
          { width: 80, align: "right", lineBreak: false },
          { x: doc.page.width - margin - 80, y },
        );
      },
      "Pagination",
    );
    doc.page.margins.bottom = bottom;
  }
}
