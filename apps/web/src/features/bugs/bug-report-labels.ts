import { type BugContext, type BugSeverity, bugSeverityLabels, formatInstantInZone } from "@vigil/contract";

/** "High" of "High — blocks work, no workaround": the word a chip or a table cell has room for. */
export function severityWord(severity: BugSeverity): string {
  return bugSeverityLabels[severity].split(" — ")[0] ?? severity;
}

/** Reports belong to no client; their times show in the reader's own zone, named. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export function formatFiledAt(iso: string): string {
  return formatInstantInZone(iso, localTimeZone());
}

/** The app's own route of a page address (`#/clients?x=1` → `/clients?x=1`), which says more than the host. */
export function pageOfUrl(pageUrl: string): string {
  const hash = pageUrl.indexOf("#");
  if (hash >= 0) return pageUrl.slice(hash + 1) || "/";
  try {
    const url = new URL(pageUrl);
    return `${url.pathname}${url.search}`;
  } catch {
    return pageUrl;
  }
}

/** Only web addresses become links; anything else filed as the page address is shown as text. */
export function isWebAddress(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

export function screenText(screen: BugContext["screen"]): string {
  const ratio = screen.devicePixelRatio === undefined ? "" : ` at ${screen.devicePixelRatio}× pixel ratio`;
  return `${screen.width} × ${screen.height}${ratio}`;
}

export function viewportText(viewport: BugContext["viewport"]): string {
  return viewport ? `${viewport.width} × ${viewport.height}` : "Not recorded";
}

export function appVersionText(appVersion: BugContext["appVersion"]): string {
  return `server release ${appVersion.enoch ?? "unknown"}, web build ${appVersion.buildId ?? "unknown"}`;
}
