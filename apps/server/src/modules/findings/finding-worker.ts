import type { FastifyBaseLogger } from "fastify";
import { type DeliveryPass, sendDueDeliveries } from "./finding-deliveries-service.js";
import { escalateDueFindings } from "./finding-escalations-service.js";
import type { FindingsContext } from "./findings-context.js";

export type FindingWorkPass = DeliveryPass & { escalations: number };

/**
 * One pass of the critical-finding loop at `now`: the escalations due, then every message due (the escalations' new
 * ones included). The server runs it every FINDING_WORKER_SECONDS and whenever a finding is raised; tests call it
 * with the moment they choose instead of waiting.
 */
export async function runFindingWork(ctx: FindingsContext, now: Date = new Date()): Promise<FindingWorkPass> {
  const escalations = await escalateDueFindings(ctx, now);
  const deliveries = await sendDueDeliveries(ctx, now);
  return { escalations, ...deliveries };
}

export type FindingWorker = { stop: () => Promise<void> };

/**
 * This instance's worker: a pass every `findings.workerSeconds` (0: none), one at a time; a wake-up during a pass
 * runs another right after it. A pass that fails is logged, and the next one starts again from the tables: a claimed
 * message whose settling was lost is taken again once its lease runs out. The worker answers the context's
 * `wakeWorker`, so a raise sends its messages at once rather than at the next tick.
 */
export function startFindingWorker(ctx: FindingsContext, log: FastifyBaseLogger): FindingWorker {
  const seconds = ctx.settings.findings.workerSeconds;
  if (seconds <= 0) return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = runFindingWork(ctx)
      .then((pass) => {
        if (pass.escalations + pass.sent + pass.retrying + pass.failed > 0) log.info(pass, "critical finding work");
        if (pass.failed > 0) log.warn({ failed: pass.failed }, "critical finding messages failed after every attempt");
      })
      .catch((error: unknown) => {
        log.error({ err: error }, "the critical finding worker's pass failed; the next one retries");
      })
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          tick();
        }
      });
  };
  const timer = setInterval(tick, seconds * 1000);
  timer.unref();
  ctx.wakeWorker = tick;
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      ctx.wakeWorker = () => undefined;
      // The database closes after the app: a pass in flight finishes first.
      while (running) await running;
    },
  };
}
