/**
 * Who is ever told of a service clock (PRODUCT.md §10): its owner, a technologist or reviewer assigned to the case
 * (or who raised a critical finding), and the coordinators, for the clocks nobody else owns. Other groups own no
 * clock, so no clock alert can reach them (the server's sweep, notifications/clock-alert-sweep.ts).
 */
export const clockAlertGroups = ["coordinator", "technologist", "reviewer"] as const;

export function receivesClockAlerts(groups: readonly string[] | undefined): boolean {
  return Boolean(groups?.some((group) => (clockAlertGroups as readonly string[]).includes(group)));
}
