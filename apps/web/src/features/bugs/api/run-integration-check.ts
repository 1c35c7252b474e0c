import { type IntegrationCheckId, type IntegrationResult, routes } from "@vigil/contract";
import { useCallback, useEffect, useRef, useState } from "react";
import { ApiRequestError, NoSessionError, requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/** `POST /bugs/integration-checks/{check}/run`: runs one live self-check now and answers its result. */
export function runIntegrationCheck(check: IntegrationCheckId, signal?: AbortSignal): Promise<IntegrationResult> {
  return requestData("POST", apiPath(routes.runIntegrationCheck, { check }), routes.runIntegrationCheck.response, {
    signal,
    // A server error while checking is that check's failure, shown on its own card; the others go on.
    expectedStatuses: [404, 500, 502, 503, 504],
  });
}

/** Where one check's latest run stands. */
export type CheckRun =
  | { state: "running" }
  | { state: "done"; result: IntegrationResult }
  /** No answer from the check (HTTP error, no network): a failure with the reason, timed by the browser. */
  | { state: "error"; message: string; httpStatus: number | null; durationMs: number };

export type CheckRuns = Partial<Record<IntegrationCheckId, CheckRun>>;

function reasonOf(error: unknown): { message: string; httpStatus: number | null } {
  if (error instanceof ApiRequestError) {
    return { message: error.body.message, httpStatus: error.body.status > 0 ? error.body.status : null };
  }
  if (error instanceof NoSessionError)
    return { message: "You are signed out; sign in and run it again.", httpStatus: null };
  return { message: error instanceof Error ? error.message : String(error), httpStatus: null };
}

/**
 * Runs integration checks, each on its own request, and keeps every check's latest state. Running a check
 * again while it runs drops the earlier answer (its request is aborted), so a card never shows a stale result.
 */
export function useIntegrationCheckRuns() {
  const [runs, setRuns] = useState<CheckRuns>({});
  const controllers = useRef(new Map<IntegrationCheckId, AbortController>());

  const run = useCallback((check: IntegrationCheckId) => {
    controllers.current.get(check)?.abort();
    const controller = new AbortController();
    controllers.current.set(check, controller);
    const startedAt = performance.now();
    setRuns((previous) => ({ ...previous, [check]: { state: "running" } }));
    void runIntegrationCheck(check, controller.signal)
      .then(
        (result): CheckRun => ({ state: "done", result }),
        (error: unknown): CheckRun => ({
          state: "error",
          ...reasonOf(error),
          durationMs: Math.round(performance.now() - startedAt),
        }),
      )
      .then((outcome) => {
        if (controller.signal.aborted) return;
        controllers.current.delete(check);
        setRuns((previous) => ({ ...previous, [check]: outcome }));
      });
  }, []);

  const runAll = useCallback(
    (checks: readonly IntegrationCheckId[]) => {
      for (const check of checks) run(check);
    },
    [run],
  );

  /** Stops listening to every request under way (leaving the page). */
  const abortAll = useCallback(() => {
    for (const controller of controllers.current.values()) controller.abort();
    controllers.current.clear();
  }, []);

  useEffect(() => abortAll, [abortAll]);

  return { runs, run, runAll, abortAll };
}
