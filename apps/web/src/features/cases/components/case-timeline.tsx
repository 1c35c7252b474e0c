import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { Case, CasePriority, StudyType, TimelineEntry } from "@vigil/contract";
import { formatInstantInZone } from "@vigil/contract";
import type { ReactNode } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { QueryError } from "../../../components/feedback/query-error";
import { detailParts } from "../../../components/history/detail-labels";
import { useCaseTimeline } from "../api/get-case-timeline";
import {
  personName,
  priorityLabels,
  stageLabel,
  studyTypeLabels,
  timelineActionLabels,
  transitionActionLabels,
  transitionStatusLabels,
} from "../case-labels";

/** The step's recorded details in words, by the one definition of what each is called (`detail-labels.ts`). */
function detailText(details: Record<string, unknown>): string {
  return detailParts(details, (key, value) =>
    (key === "priority" || key === "from" || key === "to") && typeof value === "string"
      ? priorityLabels[value as CasePriority]
      : undefined,
  ).join(" · ");
}

const changedFieldLabels: Record<string, string> = {
  studyType: "Study type",
  hasVideo: "Video",
  priority: "Priority",
  recordingStartedAt: "Recording started",
  recordingEndedAt: "Recording ended",
};

function changedValue(field: string, value: unknown, zone: string): string {
  if (value === null || value === undefined) return "none";
  if (field.startsWith("recording") && typeof value === "string") return formatInstantInZone(value, zone);
  if (field === "priority") return priorityLabels[value as CasePriority] ?? String(value);
  if (field === "studyType") return studyTypeLabels[value as StudyType] ?? String(value);
  if (typeof value === "boolean") return value ? "yes" : "no";
  return String(value);
}

/** "Recording ended: <old> → none": what a change of the case replaced, so an overwritten time stays readable. */
function changeLines(details: Record<string, unknown>, zone: string): string[] {
  const changes = details.changes;
  if (!changes || typeof changes !== "object") return [];
  return Object.entries(changes as Record<string, { from?: unknown; to?: unknown } | null>).map(
    ([field, change]) =>
      `${changedFieldLabels[field] ?? field}: ${changedValue(field, change?.from, zone)} → ${changedValue(field, change?.to, zone)}`,
  );
}

function describe(entry: TimelineEntry, zone: string): { title: ReactNode; body?: ReactNode } {
  if (entry.kind === "action") {
    const body = [detailText(entry.details), ...changeLines(entry.details, zone)].filter(Boolean).join("\n");
    return { title: timelineActionLabels[entry.action] ?? entry.action, body: body || undefined };
  }
  if (entry.kind === "transition") {
    const move = entry.transition;
    return {
      title: (
        <>
          {stageLabel(move.from)} → {stageLabel(move.to)}{" "}
          <Chip
            size="small"
            label={transitionStatusLabels[move.status] ?? move.status}
            color={move.status === "completed" ? "success" : move.status === "pending" ? "warning" : "default"}
          />
        </>
      ),
      body: move.reason ? `Reason: ${move.reason}` : undefined,
    };
  }
  return {
    title: `${transitionActionLabels[entry.action] ?? entry.action} the requested move`,
    body: entry.comment ? `Comment: ${entry.comment}` : undefined,
  };
}

/** The timeline tab: every action, move and decision on the case, in order, with who and when (client's zone). */
export function CaseTimelineView({ item }: { item: Case }) {
  const timeline = useCaseTimeline(item.id);
  const zone = item.client.timezone;
  if (timeline.isPending) {
    return (
      <Box role="status" aria-label="Loading the timeline">
        <Skeleton variant="text" />
        <Skeleton variant="text" />
        <Skeleton variant="text" />
      </Box>
    );
  }
  if (timeline.isError)
    return <QueryError what="The timeline" error={timeline.error} onRetry={() => void timeline.refetch()} />;
  const items = timeline.data.items;
  if (items.length === 0) return <Typography color="text.secondary">Nothing has happened to this case yet.</Typography>;
  return (
    <Paper variant="outlined" sx={{ maxWidth: 900 }}>
      <Box component="ol" aria-label="Case timeline" sx={{ listStyle: "none", m: 0, p: 0 }}>
        {items.map((entry) => {
          const { title, body } = describe(entry, zone);
          return (
            <Box
              component="li"
              key={`${entry.kind}-${entry.id}`}
              sx={{ px: 2, py: 1.5, borderBottom: 1, borderColor: "divider", "&:last-child": { borderBottom: 0 } }}
            >
              <Typography variant="body2" color="text.secondary">
                <ZonedDateTime value={entry.at} timeZone={zone} /> · {personName(entry.actor)}
              </Typography>
              <Typography component="div">{title}</Typography>
              {body ? (
                <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
                  {body}
                </Typography>
              ) : null}
            </Box>
          );
        })}
      </Box>
    </Paper>
  );
}
