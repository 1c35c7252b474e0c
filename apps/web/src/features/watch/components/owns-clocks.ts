/** Technologists and reviewers own clocks (assigned to a case): "Mine" and their home page's lead are theirs. */
export function ownsClocks(groups: readonly string[] | undefined): boolean {
  return Boolean(groups?.includes("technologist") || groups?.includes("reviewer"));
}
