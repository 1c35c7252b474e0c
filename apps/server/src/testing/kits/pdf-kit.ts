import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Poppler's command-line tools (poppler-utils) over a PDF's bytes: what a hospital's archive, a screen reader or a
 * person copying text gets out of the file, read by a program other than the one that wrote it. CI installs them; a
 * machine without them fails these tests with a message that says what to install, rather than skipping them.
 */
function poppler(tool: "pdftotext" | "pdfinfo" | "pdffonts", args: readonly string[], bytes: Uint8Array): string {
  const folder = mkdtempSync(path.join(tmpdir(), "vigil-pdf-"));
  const file = path.join(folder, "document.pdf");
  try {
    writeFileSync(file, bytes);
    return execFileSync(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error(`${tool} is not installed: the PDF checks need poppler-utils (apt-get install poppler-utils).`);
    }
    throw error;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The text of each page, as `pdftotext` extracts it (UTF-8, reading order). */
export function extractedPages(bytes: Uint8Array): string[] {
  const pages = poppler("pdftotext", ["-enc", "UTF-8"], bytes).split("\f");
  return pages.slice(0, pages.at(-1)?.trim() === "" ? -1 : undefined);
}

/** `pdfinfo`'s fields ("Tagged" → "yes", "Title" → …). */
export function pdfInfo(bytes: Uint8Array): Record<string, string> {
  const lines = poppler("pdfinfo", ["-enc", "UTF-8"], bytes).split("\n");
  return Object.fromEntries(
    lines.flatMap((line) => {
      const match = /^([^:]+):\s*(.*)$/.exec(line);
      return match ? [[match[1] as string, (match[2] as string).trim()]] : [];
    }),
  );
}

/** The XMP metadata packet (`pdfinfo -meta`). */
export function pdfXmp(bytes: Uint8Array): string {
  return poppler("pdfinfo", ["-meta"], bytes);
}

/** The structure tree (`pdfinfo -struct-text`): each element's type and the text it holds. */
export function pdfStructure(bytes: Uint8Array): string {
  return poppler("pdfinfo", ["-struct-text"], bytes);
}

/** Each font the PDF uses: its name, type, and whether it is embedded and subset (`pdffonts`). */
export function pdfFonts(bytes: Uint8Array): { name: string; type: string; embedded: boolean; subset: boolean }[] {
  const lines = poppler("pdffonts", [], bytes).split("\n").slice(2).filter(Boolean);
  return lines.map((line) => {
    // name, type (may hold spaces), encoding, emb, sub, uni, object, generation
    const match = /^(\S+)\s+(.+?)\s+(\S+)\s+(yes|no)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+$/.exec(line);
    if (!match) throw new Error(`pdffonts printed a line this kit cannot read: ${line}`);
    return {
      name: match[1] as string,
      type: match[2] as string,
      embedded: match[4] === "yes",
      subset: match[5] === "yes",
    };
  });
}
