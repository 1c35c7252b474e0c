import type { Db } from "../../db/client.js";
import type { CaseRow } from "./cases-repository.js";

/** A billable time log that a new recording period would leave outside it, in words for the refusal. */
export type LogOutsidePeriod = { recordId: string; technologistUsername: string; description: string };

/**
 * What the cases module asks of the modules above it. Records and billing build on cases, so cases cannot import
 * them: app.ts hands these in when it registers the case routes. Each runs in the caller's transaction, under the
 * case lock.
 */
export type CaseDependencies = {
  /** `final-interpretation-signed` (records): a final, signed, not deleted interpretation exists. */
  hasSignedInterpretation: (db: Db, caseId: string) => Promise<boolean>;
  /**
   * `billing-check-passed` (billing: no running time log, a rate for every month the billable time touches, every
   * CPT warning acknowledged in a billing note): why the check fails at `now`, or undefined when it passes.
   */
  billingCheckFailure: (db: Db, caseRow: CaseRow, now: Date) => Promise<string | undefined>;
  /** Records: the case's live billable time logs that `period` would leave outside it (with the margins). */
  findBillableLogsOutsidePeriod: (
    db: Db,
    caseRow: CaseRow,
    period: { recordingStartedAt: Date | null; recordingEndedAt: Date | null; openedAt: Date },
  ) => Promise<LogOutsidePeriod[]>;
  /**
   * Interfaces: monitoring of the case started, or a person archived it; the hospital's order the case came from
   * may be told its new status. In the change's transaction, after the case row is written.
   */
  onCaseMilestone: (db: Db, caseRow: CaseRow, milestone: CaseMilestone) => Promise<void>;
};

/** The moves of a case its hospital's order hears of. */
export type CaseMilestone = "monitoring-started" | "archived";
