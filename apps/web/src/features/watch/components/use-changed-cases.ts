import { useEffect, useRef, useState } from "react";
import { useCaseEvents } from "../../../lib/live-events";

/** How long a row someone just changed stays outlined. */
export const changedForMs = 4_000;

/**
 * The cases someone changed a moment ago (the case-event stream names each one), so the board can outline their
 * rows while they move. The stream's provider already re-reads the board (`sharedKeys.watch`) on every event.
 */
export function useChangedCases(): ReadonlySet<string> {
  const [changed, setChanged] = useState<ReadonlySet<string>>(() => new Set());
  const timers = useRef(new Map<string, number>());
  useCaseEvents((event) => {
    setChanged((previous) => new Set(previous).add(event.caseId));
    window.clearTimeout(timers.current.get(event.caseId));
    timers.current.set(
      event.caseId,
      window.setTimeout(() => {
        timers.current.delete(event.caseId);
        setChanged((previous) => {
          const next = new Set(previous);
          next.delete(event.caseId);
          return next;
        });
      }, changedForMs),
    );
  });
  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, []);
  return changed;
}
