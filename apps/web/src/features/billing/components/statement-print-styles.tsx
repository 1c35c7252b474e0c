import GlobalStyles from "@mui/material/GlobalStyles";

/** The statement's root and its parts, named for the print rules below. */
export const statementClasses = {
  root: "vigil-statement",
  tableScroll: "vigil-statement-table-scroll",
  totals: "vigil-statement-totals",
} as const;

const root = `.${statementClasses.root}`;

/**
 * Paper rules for the monthly statement: A4- and Letter-friendly margins, black on white, the cases table's
 * header repeated on every page, no row cut across a page, the totals kept together, and the screen's buttons
 * and alerts left off the paper.
 */
export const statementPrintStyles = {
  "@page": { margin: "15mm" },
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
    [`${root} .MuiAlert-root`]: { border: "1px solid #000" },
    [`${root} .MuiAlert-icon`]: { display: "none" },
    [`${root} table`]: { borderCollapse: "collapse", width: "100%" },
    [`${root} th, ${root} td`]: { borderBottom: "1px solid #000 !important", fontSize: "10pt", padding: "4px 6px" },
    [`${root} thead`]: { display: "table-header-group" },
    [`${root} tr`]: { breakInside: "avoid", pageBreakInside: "avoid" },
    // A scrolling box does not split across pages; on paper the table simply flows.
    [`.${statementClasses.tableScroll}`]: { overflow: "visible !important" },
    [`.${statementClasses.totals}`]: { breakInside: "avoid", pageBreakInside: "avoid" },
  },
} as const;

export function StatementPrintStyles() {
  return <GlobalStyles styles={statementPrintStyles} />;
}
