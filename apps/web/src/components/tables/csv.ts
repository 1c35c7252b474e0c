import { saveFile } from "../../lib/save-file";

export type CsvColumn<Row> = { header: string; value: (row: Row) => string | number | boolean | null | undefined };

/**
 * A cell as spreadsheet programs read it safely: quoted when needed, and text that starts like a formula
 * (= + - @, tab, CR) prefixed with an apostrophe so opening the file never runs it (CSV injection).
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** RFC 4180 text (CRLF line ends) with a header row. */
export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(",")];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Hands text to the browser as a download (a UTF-8 BOM so spreadsheet programs read accents right). */
export function downloadText(filename: string, text: string, type = "text/csv;charset=utf-8"): void {
  saveFile(filename, new Blob(["\uFEFF", text], { type }));
}
