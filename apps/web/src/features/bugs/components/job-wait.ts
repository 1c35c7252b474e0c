/**
 * How long a kind's oldest due job has waited, in words ("under a minute", "12 minutes", "3 hours 5 minutes",
 * "2 days 4 hours"): read at a glance beside its limit, so whole units, rounded down.
 */
export function waitInWords(seconds: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`;
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return plural(minutes, "minute");
  const hours = Math.floor(minutes / 60);
  if (hours < 24)
    return minutes % 60 ? `${plural(hours, "hour")} ${plural(minutes % 60, "minute")}` : plural(hours, "hour");
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${plural(days, "day")} ${plural(hours % 24, "hour")}` : plural(days, "day");
}
