/**
 * Hands a file to the browser as a download under `filename`: its bytes stay in this tab's memory (an object URL)
 * and are never put at an address another tab, a proxy or a log could read.
 */
export function saveFile(filename: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next tick: some browsers start the download only after the click handler returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
