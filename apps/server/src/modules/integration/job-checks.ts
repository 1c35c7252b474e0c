import { readJobHealth } from "../../jobs/job-health.js";
import { databaseHint, fail, type IntegrationCheck, pass, warn } from "./integration-check.js";

const minutes = (ms: number) => Math.round(ms / 60_000);

/**
 * The job queue (docs/design/JOBS.md): fails when a kind's oldest due job has waited longer than the kind's limit
 * (no instance is running that kind), warns when jobs failed for good in the last 24 hours, passes otherwise.
 * `details` carries each kind's counts, a line per kind.
 */
export const jobQueue: IntegrationCheck = {
  id: "job-queue",
  title: "Job queue",
  purpose: "Work done later (sweeps, messages) is being run: no kind's oldest waiting job is older than its limit.",
  async run({ database, jobKinds }) {
    const kinds = await readJobHealth(database.db, jobKinds, new Date());
    // One line per kind: the details are flat values.
    const details = Object.fromEntries(
      kinds.map((kind) => [
        kind.kind,
        `waiting ${kind.waiting}, running ${kind.running}, failed in 24 h ${kind.failedLastDay}` +
          (kind.oldestWaitingMs === null ? "" : `, oldest waiting ${minutes(kind.oldestWaitingMs)} min`),
      ]),
    );
    const overdue = kinds.filter((kind) => kind.overdue);
    if (overdue.length > 0) {
      const what = overdue
        .map(
          (kind) =>
            `${kind.kind} has waited ${minutes(kind.oldestWaitingMs ?? 0)} min (limit ${minutes(kind.maxWaitMs ?? 0)} min)`,
        )
        .join("; ");
      return fail(
        `Jobs wait longer than their limit: ${what}.`,
        "No instance seems to be running jobs: check that the server processes are up and read their logs for " +
          '"looking for due jobs failed".',
        details,
      );
    }
    const failed = kinds.filter((kind) => kind.failedLastDay > 0);
    if (failed.length > 0) {
      const what = failed.map((kind) => `${kind.kind}: ${kind.failedLastDay}`).join(", ");
      return warn(
        `Jobs failed after every attempt in the last 24 hours (${what}).`,
        "Read each failed job's last error (the jobs table, state 'failed'), fix its cause, then set it waiting again " +
          "(docs/operations.md, Jobs).",
        details,
      );
    }
    const waiting = kinds.reduce((sum, kind) => sum + kind.waiting, 0);
    return pass(`No job waits past its limit and none failed in the last 24 hours (${waiting} waiting).`, details);
  },
  stalled: () => ({ waitingFor: "the database to count the jobs", hint: databaseHint }),
};
