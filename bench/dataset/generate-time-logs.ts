import { author, type DatasetContext, hour, minute, type Person } from "./dataset-context.js";
import type { CaseFacts } from "./generate-case.js";
import { specs } from "./table-specs.js";
import { type Revision, writeRecord } from "./write-records.js";

/**
 * A started case's time logs: set-up, monitoring shifts (the last one running while the case is monitored),
 * take-down; each a time-log record with its revisions and its row of the typed projection `case_time_logs`.
 */
export function writeTimeLogs(context: DatasetContext, facts: CaseFacts & { started: number }, logCount: number): void {
  const { random, now, out } = context;
  const { caseId, started, ended, techs, mode, hasVideo } = facts;
  const studyEnd = ended ?? now;
  const recording = ended !== null;
  const setupEnd = started + random.between(0.5, 1) * hour;
  const takedownStart = recording ? studyEnd - random.between(0.25, 0.5) * hour : studyEnd;
  const shifts = logCount - (recording ? 2 : 1);
  const shiftLength = (takedownStart - setupEnd) / Math.max(1, shifts);
  const channels = random.chance(0.05) ? null : random.pick([21, 21, 21, 23, 32, 8, 16]);
  const logs: { activity: string; start: number; end: number | null; tech: Person }[] = [
    { activity: "setup", start: started, end: setupEnd, tech: techs[0] as Person },
  ];
  for (let shift = 0; shift < shifts; shift++) {
    const start = setupEnd + shift * shiftLength + (shift === 0 ? 0 : random.between(0, 2) * minute);
    const isLast = shift === shifts - 1;
    const end = isLast && !recording ? null : setupEnd + (shift + 1) * shiftLength;
    logs.push({
      activity: random.chance(0.06) ? "review" : "monitoring",
      start,
      end,
      tech: techs[(shift + 1) % techs.length] as Person,
    });
  }
  if (recording) {
    logs.push({ activity: "takedown", start: takedownStart, end: studyEnd, tech: techs[techs.length - 1] as Person });
  }
  for (const log of logs) {
    const running = log.end === null;
    const data = {
      activity: log.activity,
      mode,
      video: hasVideo,
      startedAt: new Date(log.start).toISOString(),
      endedAt: running ? null : new Date(log.end as number).toISOString(),
      billable: log.activity !== "review",
      channels,
      notes: log.activity === "setup" ? "21 electrodes, 10–20 system, collodion." : "",
    };
    const who = author(log.tech);
    const revisions: Revision[] = [{ change: "create", data: { ...data, endedAt: null }, at: log.start, author: who }];
    if (!running) revisions.push({ change: "clock-out", data, at: log.end as number, author: who });
    let finalData = data;
    if (!running && random.chance(0.03)) {
      finalData = { ...data, notes: "Clock-out time corrected from the shift sheet." };
      revisions.push({
        change: "edit",
        data: finalData,
        at: (log.end as number) + random.between(0.1, 2) * hour,
        author: who,
        reason: "Corrected from the shift sheet",
      });
    }
    const deleted = !running && random.chance(0.004);
    if (deleted) {
      revisions.push({
        change: "delete",
        data: finalData,
        at: (log.end as number) + random.between(2, 6) * hour,
        author: who,
        deleted: true,
        reason: "Entered on the wrong case",
      });
    }
    const recordId = writeRecord(context, caseId, "time-log", revisions);
    out.row(specs.timeLogs, [
      recordId,
      caseId,
      who.sub,
      who.username,
      who.name,
      finalData.activity,
      finalData.mode,
      finalData.video,
      finalData.billable,
      finalData.channels,
      new Date(log.start),
      running ? null : new Date(log.end as number),
      deleted,
    ]);
    context.counts.timeLogs++;
    if (running) context.counts.runningTimeLogs++;
  }
}
