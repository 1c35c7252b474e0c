import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import type { CaseDependencies } from "./case-dependencies.js";
import type { CaseRow } from "./cases-repository.js";

/**
 * Billable time logs were accepted because they lay in the monitoring period (records' time-log rules); a new
 * recording start or end may not leave any of them outside it, or the time would be billed after all. 409 naming
 * each such log: correct or delete the log first, or choose times that cover it.
 */
export async function assertPeriodKeepsBillableLogs(
  tx: Db,
  locked: CaseRow,
  period: { recordingStartedAt: Date | null; recordingEndedAt: Date | null },
  dependencies: CaseDependencies,
): Promise<void> {
  const outside = await dependencies.findBillableLogsOutsidePeriod(tx, locked, {
    openedAt: locked.createdAt,
    ...period,
  });
  if (outside.length === 0) return;
  const fields = [
    ...(period.recordingStartedAt?.getTime() !== locked.recordingStartedAt?.getTime() ? ["recordingStartedAt"] : []),
    ...(period.recordingEndedAt?.getTime() !== locked.recordingEndedAt?.getTime() ? ["recordingEndedAt"] : []),
  ];
  throw new AppError(
    "conflict",
    `These recording times would leave billable time logs outside the monitoring period: ${outside.map((log) => log.description).join("; ")}. Correct or delete those logs first, or choose times that cover them.`,
    {
      logs: outside.map((log) => ({ id: log.recordId, technologist: log.technologistUsername })),
      issues: fields.map((field) => ({
        path: `body.${field}`,
        message: `would leave ${outside.length === 1 ? "a billable time log" : `${outside.length} billable time logs`} outside the monitoring period`,
      })),
    },
  );
}
