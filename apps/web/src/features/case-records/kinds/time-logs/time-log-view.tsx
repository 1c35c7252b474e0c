import type { TimeLogData, TimeLogItem, TimeLogList } from "@vigil/contract";
import type { RecordView } from "../../components/record-view";
import { printableInstant } from "../form-values";
import { TimeLogEditor } from "./time-log-editor";
import { TimeLogItemBody, TimeLogSummary } from "./time-log-item";
import { activityLabels, modeShortLabels } from "./time-log-labels";
import { TimeLogTimer } from "./time-log-timer";

export function flattenTimeLog(data: TimeLogData): Record<string, string> {
  return {
    Activity: activityLabels[data.activity],
    "Monitoring mode": modeShortLabels[data.mode],
    "Video recorded": data.video ? "Yes" : "No",
    "Started at": printableInstant(data.startedAt),
    "Ended at": data.endedAt ? printableInstant(data.endedAt) : "running",
    Billable: data.billable ? "Yes" : "No",
    Channels: data.channels === null ? "" : String(data.channels),
    Notes: data.notes,
  };
}

export const timeLogView: RecordView<TimeLogItem, TimeLogData, TimeLogList> = {
  kind: "time-log",
  title: "Time logs",
  noun: "time log",
  emptyText: "No time logs yet.",
  Editor: TimeLogEditor,
  ItemBody: TimeLogItemBody,
  Summary: TimeLogSummary,
  Toolbar: TimeLogTimer,
  flatten: flattenTimeLog,
};
