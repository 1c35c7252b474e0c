import type { IntegrationCheckId, IntegrationCheckList, IntegrationResult } from "@vigil/contract";
import { type CheckContext, type CheckOutcome, describeError } from "./integration-check.js";
import { integrationChecks } from "./integration-checks.js";

/**
 * The page runs every check in parallel and shows each as it lands, so one slow peer must cost its own row a few
 * seconds, never the page a hang: past this a check is a fail that names what it was waiting for.
 */
export const defaultCheckTimeoutMs = 5000;

/** `GET /api/bugs/integration-checks`: what this deployment can check, in the page's order. */
export function listIntegrationChecks(): IntegrationCheckList {
  return {
    items: Object.values(integrationChecks).map(({ id, title, purpose }) => ({ id, title, purpose })),
  };
}

class CheckTimeout extends Error {}

/**
 * `POST /api/bugs/integration-checks/:check/run`: runs one check now. Whatever happens — a peer that refuses, one
 * that never answers, a bug in the check — the answer is a result with a hint, not an error: the page exists to be
 * read when things are broken.
 */
export async function runIntegrationCheck(
  context: CheckContext,
  id: IntegrationCheckId,
  options: { timeoutMs?: number } = {},
): Promise<IntegrationResult> {
  const check = integrationChecks[id];
  const timeoutMs = options.timeoutMs ?? defaultCheckTimeoutMs;
  const checkedAt = new Date();
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new CheckTimeout(`${check.id} did not finish within ${timeoutMs} ms`);
      // Peers given the signal (fetch) stop waiting; the rest are abandoned to their own timeouts.
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  let outcome: CheckOutcome;
  try {
    outcome = await Promise.race([check.run(context, { signal: controller.signal, budgetMs: timeoutMs }), timedOut]);
  } catch (error) {
    const { waitingFor, hint } = check.stalled(context);
    outcome =
      error instanceof CheckTimeout
        ? {
            status: "fail",
            summary: `Timed out after ${timeoutMs / 1000} s waiting for ${waitingFor}.`,
            hint,
            details: { timeoutMs },
          }
        : {
            status: "fail",
            summary: `The check stopped while waiting for ${waitingFor}: ${describeError(error)}.`,
            hint,
            details: { error: describeError(error) },
          };
  } finally {
    clearTimeout(timer);
  }
  return {
    id: check.id,
    title: check.title,
    ...outcome,
    durationMs: Math.round(performance.now() - started),
    checkedAt: checkedAt.toISOString(),
  };
}
