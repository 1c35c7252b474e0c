import { type ClockState, clockStateAt } from "@vigil/contract";

/** What each promise is called on screen: the contract's one definition per kind (clockKindDefinitions). */
export { clockKindLabels } from "@vigil/contract";

export const clockStateLabels: Record<ClockState, string> = {
  ok: "On time",
  "due-soon": "Due soon",
  overdue: "Overdue",
  met: "Met",
  missed: "Missed",
};

/** Colours go with the state's words (a chip with text), never carry it alone. */
export const clockStateColors: Record<ClockState, "default" | "success" | "warning" | "error"> = {
  ok: "default",
  "due-soon": "warning",
  overdue: "error",
  met: "success",
  missed: "error",
};

/** A running clock's state at `now`, by the contract's rule: a screen left open ages it without asking again. */
export function runningClockStateAt(clock: { dueSoonAt: string; dueAt: string }, now: number): ClockState {
  return clockStateAt({ dueSoonAt: Date.parse(clock.dueSoonAt), dueAt: Date.parse(clock.dueAt), stoppedAt: null }, now);
}

/** "3 h 05 min left" / "overdue by 12 min": whole minutes, as a technologist reads a deadline. */
export function timeLeftText(dueAt: string, now: number): string {
  const left = Date.parse(dueAt) - now;
  const minutes = Math.floor(Math.abs(left) / 60_000);
  const hours = Math.floor(minutes / 60);
  const span = hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, "0")} min` : `${minutes} min`;
  return left >= 0 ? `${span} left` : `overdue by ${span}`;
}
