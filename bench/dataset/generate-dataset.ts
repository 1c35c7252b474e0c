import { CountingSink, type DatasetContext, type DatasetOptions, type DatasetSummary } from "./dataset-context.js";
import { writeBillingNote } from "./generate-billing.js";
import { writeCase } from "./generate-case.js";
import { writeCaseNotes, writeClinicalRecords } from "./generate-case-records.js";
import { generateClients } from "./generate-clients.js";
import { writeTimeLogs } from "./generate-time-logs.js";
import { generateUsers } from "./generate-users.js";
import { planCases } from "./plan-cases.js";
import { seeded } from "./seeded-random.js";
import type { Sink } from "./table-specs.js";

export type { DatasetOptions, DatasetSummary } from "./dataset-context.js";

/**
 * A large, realistic data set shaped exactly as the server leaves its rows: current-state rows with their
 * revision rows, the time logs' typed projection (`case_time_logs`) mirroring every `case_records` row of kind
 * time-log, patient details as append-only revisions with the latest copied onto the case, assignments, actions and
 * completed transitions that brought each case to its stage, rates with their history, and audit events.
 *
 * Rows are produced as PostgreSQL COPY text (one line per row) for a `Sink`; table and column names come from the
 * server's Drizzle schema (table-specs.ts). A seeded generator makes the same shape every time (ids are random
 * uuids, as gen_random_uuid() makes them): the steps below run, and draw from it, in one fixed order.
 */
export async function generateDataset(sink: Sink, options: DatasetOptions): Promise<DatasetSummary> {
  const context: DatasetContext = {
    options,
    random: seeded(options.seed ?? 20_260_901),
    now: options.now.getTime(),
    out: new CountingSink(sink),
    scaled: (count: number, min = 1) => Math.max(min, Math.round(count * options.scale)),
    counts: { timeLogs: 0, runningTimeLogs: 0, records: 0, revisions: 0, patientDetailsRevisions: 0, auditEvents: 0 },
    checkedRecords: {},
  };
  const population = generateUsers(context);
  const clientInfos = generateClients(context, population);
  const { plannedCases, logCounts } = planCases(context, clientInfos);

  const byStage: Record<string, number> = {};
  for (let index = 0; index < plannedCases.length; index++) {
    const planned = plannedCases[index] as (typeof plannedCases)[number];
    byStage[planned.stage] = (byStage[planned.stage] ?? 0) + 1;
    const facts = writeCase(context, population, planned, index);
    writeCaseNotes(context, facts);
    const { started } = facts;
    // An intake case has not started recording: no time logs, checks, events, interpretation or billing yet.
    if (started !== null) {
      writeTimeLogs(context, { ...facts, started }, logCounts[index] as number);
      writeClinicalRecords(context, { ...facts, started }, population.reviewers);
      writeBillingNote(context, facts, population.billers);
    }
    if (index % 500 === 499) {
      await sink.drain();
      if (index % 5000 === 4999) options.progress?.(index + 1, plannedCases.length);
    }
  }
  options.progress?.(plannedCases.length, plannedCases.length);

  return {
    clients: clientInfos.length,
    users: population.people.length,
    cases: plannedCases.length,
    byStage,
    ...context.counts,
    caseNumberSequence: plannedCases.length,
    rows: context.out.counts,
  };
}
