import type {
  Author,
  BillingNoteData,
  CaseNoteData,
  EventInput,
  ImpedanceInput,
  InterpretationInput,
  TimeLogInput,
} from "@vigil/contract";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { clientContacts } from "../db/schema.js";
import { type ImportedRevision, importRecordHistory } from "../modules/records/record-import.js";
import { type DemoInterpretation, demoBillingNotes, demoInterpretations } from "./demo-records.js";
import type { SeededCase } from "./seed-cases.js";

/**
 * The demo cases' records, written through the records service's import so that current rows,
 * revisions and the time-log projection agree exactly as the API would leave them. Monitoring cases have running
 * time logs for the demo technologist, impedance checks (one flagged), events with a notification to a client
 * contact and a skin check; preview has a draft interpretation; reviewed and closed cases a signed one in ACNS
 * terms and a billing note.
 */

type People = { coordinator: Author; technologist: Author; reviewer: Author; billing: Author };

const hour = 3_600_000;
const plus = (at: Date, hours: number) => new Date(at.getTime() + hours * hour);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * hour);

function once(author: Author, at: Date, data: unknown, meta?: Record<string, unknown>): ImportedRevision[] {
  return [{ change: "create", data, at, author, ...(meta ? { meta } : {}) }];
}

async function timeLog(tx: Db, caseId: string, author: Author, data: TimeLogInput): Promise<void> {
  const at = new Date(data.startedAt);
  // biome-ignore lint/plugin/leading-spread-then-keys: endedAt is a field of the log's data
  const revisions: ImportedRevision[] = [{ change: "create", data: { ...data, endedAt: null }, at, author }];
  // Logs are started and clocked out as they happen; a finished one has both revisions.
  if (data.endedAt) revisions.push({ change: "clock-out", data, at: new Date(data.endedAt), author });
  await importRecordHistory(tx, { caseId, kind: "time-log", revisions });
}

async function timeLogs(tx: Db, subject: SeededCase, technologist: Author): Promise<void> {
  if (!subject.started) return;
  const setupEnd = plus(subject.started, 0.75);
  await timeLog(tx, subject.id, technologist, {
    activity: "setup",
    mode: subject.mode,
    video: subject.hasVideo,
    startedAt: subject.started.toISOString(),
    endedAt: setupEnd.toISOString(),
    billable: true,
    channels: 21,
    notes: "21 electrodes, 10–20 system, collodion; patient and family educated.",
  });
  await timeLog(tx, subject.id, technologist, {
    activity: "monitoring",
    mode: subject.mode,
    video: subject.hasVideo,
    startedAt: setupEnd.toISOString(),
    endedAt: subject.ended?.toISOString() ?? null,
    billable: true,
    channels: 21,
    notes: "",
  });
}

function impedance(checkedAt: Date, overrides: Partial<Record<string, number>> = {}, notes = ""): ImpedanceInput {
  const values = { Fp1: 3.2, Fp2: 2.9, F3: 3.8, F4: 4.1, C3: 2.7, C4: 3.1, P3: 3.4, P4: 3.0, O1: 4.4, O2: 3.9 };
  return {
    checkedAt: checkedAt.toISOString(),
    values: Object.entries(Object.assign({}, values, overrides)).map(([electrode, kohm]) => ({
      electrode: electrode as ImpedanceInput["values"][number]["electrode"],
      kohm: kohm as number,
    })),
    notes,
  };
}

async function impedances(tx: Db, subject: SeededCase, technologist: Author, checks: ImpedanceInput[]) {
  for (const check of checks) {
    await importRecordHistory(tx, {
      caseId: subject.id,
      kind: "impedance",
      revisions: once(technologist, new Date(check.checkedAt), check, { thresholdKohm: subject.thresholdKohm }),
    });
  }
}

async function events(tx: Db, subject: SeededCase, technologist: Author, list: EventInput[]) {
  for (const event of list) {
    await importRecordHistory(tx, {
      caseId: subject.id,
      kind: "event",
      revisions: once(technologist, new Date(event.occurredAt), event),
    });
  }
}

async function note(tx: Db, subject: SeededCase, author: Author, at: Date, data: CaseNoteData) {
  await importRecordHistory(tx, { caseId: subject.id, kind: "case-note", revisions: once(author, at, data) });
}

async function billingNote(tx: Db, subject: SeededCase, author: Author, at: Date, data: BillingNoteData) {
  await importRecordHistory(tx, { caseId: subject.id, kind: "billing-note", revisions: once(author, at, data) });
}

async function contactsOf(tx: Db, clientId: string) {
  return tx
    .select({ id: clientContacts.id, name: clientContacts.name, isPrimary: clientContacts.isPrimary })
    .from(clientContacts)
    .where(and(eq(clientContacts.clientId, clientId)));
}

/** The reviewer's interpretation of the whole recording, drafted two hours before it was signed (if it was). */
async function interpretation(
  tx: Db,
  subject: SeededCase,
  reviewer: Author,
  text: DemoInterpretation,
  signed: Date | null,
): Promise<void> {
  const data: InterpretationInput = {
    periodFrom: (subject.started as Date).toISOString(),
    periodTo: (subject.ended as Date).toISOString(),
    ...text,
  };
  const drafted = signed ? plus(signed, -2) : hoursAgo(3);
  const revisions: ImportedRevision[] = [{ change: "create", data, at: drafted, author: reviewer }];
  if (signed) revisions.push({ change: "sign", data, at: signed, author: reviewer });
  await importRecordHistory(tx, { caseId: subject.id, kind: "interpretation", revisions });
}

/** Records for each seeded case, by stage and in the order they would have been kept. */
export async function seedDemoRecords(tx: Db, subjects: readonly SeededCase[], people: People): Promise<void> {
  const { coordinator, technologist, reviewer, billing } = people;
  for (const subject of subjects) {
    if (subject.stage === "intake") {
      await note(tx, subject, coordinator, hoursAgo(0.5), {
        category: "general",
        body: "Transfer form received from the unit; waiting for the bed assignment before set-up.",
      });
      continue;
    }
    await timeLogs(tx, subject, technologist);
    const started = subject.started as Date;
    if (subject.stage === "monitoring") await seedMonitoring(tx, subject, people);
    else await impedances(tx, subject, technologist, [impedance(plus(started, 0.5))]);

    if (subject.stage === "preview") {
      await interpretation(tx, subject, reviewer, demoInterpretations.preview, null);
    }
    if (subject.stage === "reviewed") {
      await interpretation(tx, subject, reviewer, demoInterpretations.reviewed, subject.reviewed);
      await billingNote(tx, subject, billing, plus(subject.reviewed as Date, 2), demoBillingNotes.reviewed);
    }
    if (subject.stage === "closed") {
      await interpretation(tx, subject, reviewer, demoInterpretations.closed, subject.reviewed);
      await billingNote(tx, subject, billing, plus(subject.reviewed as Date, 3), demoBillingNotes.closed);
    }
  }
}

async function seedMonitoring(tx: Db, subject: SeededCase, people: People): Promise<void> {
  const { technologist } = people;
  const started = subject.started as Date;
  const [primary, other] = [...(await contactsOf(tx, subject.clientId))].sort(
    (left, right) => Number(right.isPrimary) - Number(left.isPrimary),
  );
  if (subject.mode === "continuous") {
    await impedances(tx, subject, technologist, [
      impedance(plus(started, 0.5)),
      impedance(hoursAgo(15), { O1: 14.2, T7: 7.1 }, "O1 lifted during repositioning; re-gelled after the check."),
      impedance(hoursAgo(3), { O1: 4.8 }),
    ]);
    await events(tx, subject, technologist, [
      {
        occurredAt: hoursAgo(20).toISOString(),
        type: "seizure",
        description: "Electrographic seizure, left temporal onset, 45 s, no clinical correlate.",
      },
      {
        occurredAt: plus(hoursAgo(20), 0.05).toISOString(),
        type: "notification",
        description: "Reported the electrographic seizure to the neurointensivist.",
        notification: primary
          ? {
              contactId: primary.id,
              name: primary.name,
              method: "phone",
              notifiedAt: plus(hoursAgo(20), 0.05).toISOString(),
              acknowledgedAt: plus(hoursAgo(20), 0.15).toISOString(),
            }
          : null,
      },
      {
        occurredAt: hoursAgo(4).toISOString(),
        type: "skin-check",
        description: "Daily skin check under the electrodes.",
        skinCheck: { condition: "intact", sites: "", actionTaken: "" },
      },
      {
        occurredAt: hoursAgo(1).toISOString(),
        type: "notification",
        description: "Lateralized periodic discharges increasing in frequency; charge nurse paged.",
        notification: other
          ? { contactId: other.id, name: other.name, method: "page", notifiedAt: hoursAgo(1).toISOString() }
          : null,
      },
    ]);
    await note(tx, subject, technologist, hoursAgo(8), {
      category: "handoff",
      body: "Night shift: O1 re-gelled at 02:00; LPDs unchanged. Family asked for the neurologist to call back.",
    });
    return;
  }
  // Intermittent monitoring at home: reviews every 2 h (the last one a little overdue), a push-button event.
  await impedances(tx, subject, technologist, [
    impedance(plus(started, 0.5)),
    impedance(hoursAgo(23), { Fp1: 11.5 }, "Fp1 high after the patient showered; patient asked to press it down."),
  ]);
  await events(tx, subject, technologist, [
    ...[6.5, 4.5, 2.5].map(
      (hours): EventInput => ({
        occurredAt: hoursAgo(hours).toISOString(),
        type: "review-check",
        description: "Reviewed the last 2 h of EEG and detections: no seizures.",
      }),
    ),
    {
      occurredAt: hoursAgo(5).toISOString(),
      type: "push-button",
      description: "Patient pressed the event button: 'déjà vu feeling'. No EEG change.",
    },
    {
      occurredAt: hoursAgo(26).toISOString(),
      type: "skin-check",
      description: "Skin check by video call.",
      skinCheck: {
        condition: "redness",
        sites: "Fp1, Fp2",
        actionTaken: "Barrier film applied; electrodes kept in place.",
      },
    },
  ]);
}
