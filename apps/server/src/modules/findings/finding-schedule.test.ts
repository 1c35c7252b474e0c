import { describe, expect, it } from "vitest";
import {
  afterFailedAttempt,
  defaultWindowMinutes,
  dueAtOf,
  findingWindowOf,
  isEscalationDue,
  nextEscalationAfter,
  retryDelayMs,
  withinWindowOf,
} from "./finding-schedule.js";

const at = (iso: string) => new Date(iso);
const minute = 60_000;

describe("the window a finding must be acknowledged in", () => {
  const pinned = { id: "pinned", criticalNotification: { withinMinutes: 15 } };
  const current = { id: "current", criticalNotification: { withinMinutes: 45 } };

  it("comes from the case's pinned protocol revision, even when the client's current one says otherwise", () => {
    expect(findingWindowOf(pinned, current)).toEqual({ windowMinutes: 15, protocolRevisionId: "pinned" });
  });

  it("comes from the client's current revision when the case pinned none", () => {
    expect(findingWindowOf(undefined, current)).toEqual({ windowMinutes: 45, protocolRevisionId: "current" });
  });

  it("is the protocol's default when the client has no protocol at all", () => {
    expect(findingWindowOf(undefined, undefined)).toEqual({
      windowMinutes: defaultWindowMinutes,
      protocolRevisionId: null,
    });
    expect(defaultWindowMinutes).toBe(30);
  });

  it("counts from the moment the finding was raised, not from the EEG onset", () => {
    expect(dueAtOf(at("2026-03-01T10:00:00Z"), 15)).toEqual(at("2026-03-01T10:15:00Z"));
  });
});

describe("the escalation schedule", () => {
  const due = at("2026-03-01T10:15:00Z");

  it("is due once the window has passed while the finding is open, and not a moment before", () => {
    const open = { status: "open" as const, nextEscalationAt: due };
    expect(isEscalationDue(open, new Date(due.getTime() - 1))).toBe(false);
    expect(isEscalationDue(open, due)).toBe(true);
    expect(isEscalationDue(open, new Date(due.getTime() + 60 * minute))).toBe(true);
  });

  it("stops for good once the finding is cancelled or acknowledged", () => {
    const later = new Date(due.getTime() + 24 * 60 * minute);
    expect(isEscalationDue({ status: "cancelled", nextEscalationAt: null }, later)).toBe(false);
    expect(isEscalationDue({ status: "acknowledged", nextEscalationAt: null }, later)).toBe(false);
    // Even a row whose next time was left behind owes nothing once it is closed.
    expect(isEscalationDue({ status: "cancelled", nextEscalationAt: due }, later)).toBe(false);
  });

  it("repeats every interval after the window, counted from when each was due, not from when it went out", () => {
    const sentLate = new Date(due.getTime() + 4000);
    expect(nextEscalationAfter(due, sentLate, 10)).toEqual(at("2026-03-01T10:25:00Z"));
    expect(nextEscalationAfter(at("2026-03-01T10:25:00Z"), at("2026-03-01T10:25:03Z"), 10)).toEqual(
      at("2026-03-01T10:35:00Z"),
    );
  });

  it("after an outage sends one escalation, then the next a whole interval later instead of a burst", () => {
    const back = at("2026-03-01T12:00:00Z");
    expect(nextEscalationAfter(due, back, 10)).toEqual(at("2026-03-01T12:10:00Z"));
  });

  it("takes intervals shorter than a minute", () => {
    expect(nextEscalationAfter(due, due, 0.05)).toEqual(new Date(due.getTime() + 3000));
  });
});

describe("retries of a message that could not be sent", () => {
  it("wait 30 s, then twice as long each time, at most 15 minutes", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 10].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 900_000, 900_000, 900_000,
    ]);
  });

  it("end in failed once every attempt is spent", () => {
    const now = at("2026-03-01T10:00:00Z");
    expect(afterFailedAttempt(1, 6, now)).toEqual({ status: "pending", nextAttemptAt: at("2026-03-01T10:00:30Z") });
    expect(afterFailedAttempt(5, 6, now)).toEqual({ status: "pending", nextAttemptAt: at("2026-03-01T10:08:00Z") });
    expect(afterFailedAttempt(6, 6, now)).toEqual({ status: "failed" });
    expect(afterFailedAttempt(1, 1, now)).toEqual({ status: "failed" });
  });
});

describe("within the window or not", () => {
  const dueAt = at("2026-03-01T10:15:00Z");

  it("is met by an acknowledgement up to the due time, missed by one after it", () => {
    expect(withinWindowOf({ status: "acknowledged", dueAt, acknowledgedAt: dueAt }, dueAt)).toBe(true);
    const late = new Date(dueAt.getTime() + 1000);
    expect(withinWindowOf({ status: "acknowledged", dueAt, acknowledgedAt: late }, late)).toBe(false);
  });

  it("is undecided while open and not yet due, and missed once an open finding is past due", () => {
    const finding = { status: "open" as const, dueAt, acknowledgedAt: null };
    expect(withinWindowOf(finding, new Date(dueAt.getTime() - 1))).toBeNull();
    expect(withinWindowOf(finding, new Date(dueAt.getTime() + 1))).toBe(false);
  });

  it("asks nothing of a cancelled finding", () => {
    expect(withinWindowOf({ status: "cancelled", dueAt, acknowledgedAt: null }, new Date(dueAt.getTime() + 1))).toBe(
      null,
    );
  });
});
