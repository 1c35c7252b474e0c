import GlobalStyles from "@mui/material/GlobalStyles";

/** The printed report's root and its parts, named for the print rules below. */
export const reportPrintClasses = {
  root: "vigil-report",
  keep: "vigil-report-keep",
  heading: "vigil-report-heading",
} as const;

const root = `.${reportPrintClasses.root}`;

/**
 * Paper rules for the signed report: black on white, the screen's buttons and links left off, a heading never left
 * alone at the foot of a page, and no finding, block of label/value lines, header or signature cut across two pages
 * (a long paragraph still flows, with at least three lines each side of a break).
 */
export const reportPrintStyles = {
  "@media print": {
    "html, body": { background: "#fff !important", color: "#000 !important" },
    ".vigil-no-print": { display: "none !important" },
    // The base layout's padding would add to the page margin.
    "main[data-layout='base']": { padding: "0 !important", maxWidth: "none !important" },
    [root]: { color: "#000", border: "0 !important", padding: "0 !important", maxWidth: "none !important" },
    [`${root} *`]: {
      color: "#000 !important",
      backgroundColor: "transparent !important",
      boxShadow: "none !important",
    },
    [`${root} p, ${root} li, ${root} dd`]: { fontSize: "10pt", orphans: 3, widows: 3 },
    [`.${reportPrintClasses.heading}`]: { breakAfter: "avoid", pageBreakAfter: "avoid" },
    [`.${reportPrintClasses.keep}`]: { breakInside: "avoid", pageBreakInside: "avoid" },
  },
} as const;

/** A CSS string literal holding `text` as it is (quotes, backslashes and line breaks escaped; `<` too, to be safe). */
export function cssString(text: string): string {
  return `"${text
    .replace(/[\\"]/g, "\\$&")
    .replace(/[\r\n\f]+/g, " ")
    .replace(/</g, "\\3C ")}"`;
}

/**
 * The page box: margins for Letter and A4, and where the browser draws CSS page-margin boxes (Chromium 131 on),
 * the report's running line (patient, MRN, case) atop every page and "Page i of n" at the foot, as in the PDF.
 * Browsers without them print the same line once, in the document's own header.
 */
export function pageRules(runningHeader: string): string {
  const small = "font-family: Helvetica, Arial, sans-serif; font-size: 8pt; color: #555;";
  return [
    "@media print {",
    "  @page {",
    "    margin: 18mm 15mm;",
    `    @top-left { content: ${cssString(runningHeader)}; ${small} }`,
    `    @bottom-right { content: "Page " counter(page) " of " counter(pages); ${small} }`,
    "  }",
    "}",
  ].join("\n");
}

export function ReportPrintStyles({ runningHeader }: { runningHeader: string }) {
  return (
    <>
      <GlobalStyles styles={reportPrintStyles} />
      {/* Plain text, so the margin boxes nested in @page reach the browser exactly as written. */}
      <style data-report-page-rules="">{pageRules(runningHeader)}</style>
    </>
  );
}
