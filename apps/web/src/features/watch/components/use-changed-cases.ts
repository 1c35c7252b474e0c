import { useState } from "react";

/**
 * The cases someone changed a moment ago, so the board can outline their rows while they move. Empty until the
 * case-event stream (lib/live-events.ts) is there to say which case changed.
 */
export function useChangedCases(): ReadonlySet<string> {
  const [changed] = useState<ReadonlySet<string>>(() => new Set());
  return changed;
}
