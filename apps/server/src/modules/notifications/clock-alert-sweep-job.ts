import { z } from "zod";
import { defineJob } from "../../jobs/job-definition.js";
import type { MessageService } from "../../messaging/message-service.js";
import { type SweepSettings, sweepClockAlerts } from "./clock-alert-sweep.js";

const minuteMs = 60_000;

/**
 * The clock-alert sweep as a recurring job: one per WATCH_ALERT_SWEEP_SECONDS period across all instances (0: the
 * kind exists but is never scheduled). One try a period: a failed sweep is kept failed and visible, and the next
 * period's sweep starts again from the same state (nothing is marked until it is inserted). Running twice is
 * harmless — the alerts' unique key lets one insert each row, and only inserted rows are e-mailed — so a sweep cut
 * short by a crash needs nothing more than the next one.
 */
export function clockAlertSweepJob(settings: SweepSettings, messages: MessageService) {
  const periodMs = settings.watch.alertSweepSeconds * 1000;
  return defineJob({
    kind: "clock-alert-sweep",
    payload: z.object({ period: z.iso.datetime() }),
    retry: { limit: 1, backoff: { baseMs: periodMs || minuteMs, maxMs: periodMs || minuteMs } },
    timeoutMs: 5 * minuteMs,
    every: periodMs > 0 ? { ms: periodMs, payload: (start) => ({ period: start.toISOString() }) } : undefined,
    // Waiting longer than ten periods (or five minutes) means no instance is sweeping.
    maxWaitMs: Math.max(5 * minuteMs, 10 * periodMs),
    handle: async (_payload, { db, log }) => {
      const result = await sweepClockAlerts(db, settings, messages, new Date(), log);
      if (result.alerts > 0) log.info(result, "clock alerts sent");
    },
  });
}
