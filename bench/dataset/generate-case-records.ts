import { author, type DatasetContext, hour, minute, type Person } from "./dataset-context.js";
import type { CaseFacts } from "./generate-case.js";
import { noteBodies } from "./vocabulary.js";
import { type Revision, writeRecord } from "./write-records.js";

/** Case notes (any stage), some edited. */
export function writeCaseNotes(context: DatasetContext, facts: CaseFacts): void {
  const { random } = context;
  const { caseId, coordinator, techs, createdAt, latestMoment, stageIndex } = facts;
  const noteCount = random.int(0, 2);
  for (let note = 0; note < noteCount; note++) {
    const by = random.pick([coordinator, ...techs]);
    const at = createdAt + (latestMoment - createdAt) * random.next();
    const revisions: Revision[] = [
      {
        change: "create",
        data: { category: random.pick(["general", "handoff", "issue"]), body: random.pick(noteBodies) },
        at,
        author: author(by),
      },
    ];
    const edits = random.chance(0.35) ? random.int(1, 2) : 0;
    for (let edit = 1; edit <= edits; edit++) {
      revisions.push({
        change: "edit",
        data: {
          category: (revisions[0]?.data as { category: string }).category,
          body: `${random.pick(noteBodies)} (updated)`,
        },
        at: at + edit * random.between(0.2, 3) * hour,
        author: author(by),
        reason: stageIndex >= 2 ? "Clarified" : null,
      });
    }
    writeRecord(context, caseId, "case-note", revisions);
  }
}

/**
 * A started case's clinical records: impedance checks (judged by the pinned protocol's threshold), events, and once
 * the recording has ended past monitoring, an interpretation (signed when the case was reviewed).
 */
export function writeClinicalRecords(
  context: DatasetContext,
  facts: CaseFacts & { started: number },
  reviewers: Person[],
): void {
  const { random, now } = context;
  const {
    caseId,
    client,
    stageIndex,
    started,
    ended,
    reviewedAt,
    studyHours,
    icuHours,
    mode,
    pinned,
    techs,
    reviewer,
  } = facts;
  const studyEnd = ended ?? now;
  const threshold = pinned?.thresholdKohm ?? 10;
  const checks = random.int(1, 3);
  for (let check = 0; check < checks; check++) {
    const at = started + 0.5 * hour + (studyEnd - started - hour) * (check / checks);
    const high = random.chance(0.15);
    writeRecord(context, caseId, "impedance", [
      {
        change: "create",
        data: {
          checkedAt: new Date(at).toISOString(),
          values: ["Fp1", "Fp2", "C3", "C4", "O1", "O2", "T7", "T8"].map((electrode, number) => ({
            electrode,
            kohm: high && number === 4 ? threshold + 4.5 : Math.round(random.between(1.5, 4.9) * 10) / 10,
          })),
          notes: high ? "O1 lifted during repositioning; re-gelled after the check." : "",
        },
        at,
        author: author(random.pick(techs)),
        meta: { thresholdKohm: threshold },
      },
    ]);
  }
  const events = random.int(0, 3) + (mode === "intermittent" ? random.int(1, 3) : 0);
  for (let event = 0; event < events; event++) {
    const at = started + (studyEnd - started) * random.next();
    const type =
      mode === "intermittent" && event === 0
        ? "review-check"
        : random.pick(["seizure", "clinical", "push-button", "artifact", "skin-check", "notification", "review-check"]);
    const contact = random.pick(client.contacts);
    const data = {
      occurredAt: new Date(at).toISOString(),
      type,
      description:
        type === "seizure" ? "Electrographic seizure, left temporal onset, 45 s." : `Event of type ${type} noted.`,
      notification:
        type === "notification"
          ? {
              contactId: contact.id,
              name: contact.name,
              method: "phone",
              notifiedAt: new Date(at).toISOString(),
              acknowledgedAt: random.chance(0.8) ? new Date(at + 10 * minute).toISOString() : null,
            }
          : null,
      skinCheck: type === "skin-check" ? { condition: "intact", sites: "", actionTaken: "" } : null,
    };
    writeRecord(context, caseId, "event", [{ change: "create", data, at, author: author(random.pick(techs)) }]);
  }
  if (stageIndex >= 2 && ended !== null) {
    const by = reviewer ?? random.pick(reviewers);
    const data = {
      reportType: studyHours > 36 || icuHours > 36 ? "summary" : "daily",
      periodFrom: new Date(started).toISOString(),
      periodTo: new Date(ended).toISOString(),
      history: "Adult with altered mental status; seizures to be excluded.",
      technicalDescription: "21 electrodes (10–20 system); video recorded throughout.",
      background: {
        continuity: "continuous",
        symmetry: "symmetric",
        predominantFrequency: "alpha",
        pdrHz: 9.5,
        voltage: "normal",
        reactivity: "present",
        stateChanges: "present-normal",
        notes: "",
      },
      findings: [],
      seizures: { classification: "none", count: null, description: "" },
      impression: stageIndex >= 3 ? "Normal continuous EEG. No epileptiform discharges; no seizures." : "",
      impressionCode: null,
      clinicalCorrelation: stageIndex >= 3 ? "A normal study does not exclude epilepsy." : "",
    };
    const drafted = ended + random.between(1, 4) * hour;
    const revisions: Revision[] = [
      {
        change: "create",
        data: { ...data, impression: "", clinicalCorrelation: "" },
        at: drafted,
        author: author(by),
        meta: { status: "draft", signedBy: null, signedAt: null, addenda: [] },
      },
    ];
    if (reviewedAt !== null) {
      revisions.push({ change: "edit", data, at: reviewedAt - 0.5 * hour, author: author(by) });
      revisions.push({
        change: "sign",
        data,
        at: reviewedAt,
        author: author(by),
        meta: { status: "final", signedBy: author(by), signedAt: new Date(reviewedAt).toISOString() },
      });
    }
    writeRecord(context, caseId, "interpretation", revisions);
  }
}
