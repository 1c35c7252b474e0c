import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type CriticalFinding, criticalFindingKindLabels } from "@vigil/contract";
import { type ReactNode, useId, useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { timeLeftText } from "../../../components/clocks/clock-labels";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ReasonDialog } from "../../../components/feedback/reason-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { useCancelCriticalFinding } from "../api/cancel-critical-finding";
import { durationText, findingStatusColors, findingStatusLabels } from "./finding-labels";
import { FindingRecipients } from "./finding-recipients";
import { PhoneAcknowledgementDialog } from "./phone-acknowledgement-dialog";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: "grid", gridTemplateColumns: { xs: "1fr", sm: "220px 1fr" }, gap: 1, py: 0.5 }}>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

function personName(person: { name: string | null; username: string }): string {
  return person.name || person.username;
}

/** Within the window or not: a countdown to `dueAt` while open, the verdict once closed. */
function WindowText({ finding, now }: { finding: CriticalFinding; now: number }) {
  if (finding.status === "cancelled") return <>Owed nothing: cancelled</>;
  if (finding.status === "open") {
    const overdue = Date.parse(finding.dueAt) < now;
    return (
      <Box component="span" sx={{ color: overdue ? "error.main" : undefined, fontWeight: overdue ? 600 : undefined }}>
        {overdue ? "Missed: " : ""}
        {timeLeftText(finding.dueAt, now)} (window {finding.windowMinutes} min)
      </Box>
    );
  }
  return finding.withinWindow === false ? (
    <Box component="span" sx={{ color: "error.main", fontWeight: 600 }}>
      Missed: acknowledged after the {finding.windowMinutes}-minute window
    </Box>
  ) : (
    <>Within the {finding.windowMinutes}-minute window</>
  );
}

function AcknowledgementText({ finding, timeZone }: { finding: CriticalFinding; timeZone: string }) {
  const acknowledgement = finding.acknowledgement;
  if (!acknowledgement) return <>Not yet</>;
  return (
    <>
      <ZonedDateTime value={acknowledgement.at} timeZone={timeZone} /> (
      {durationText(finding.raisedAt, acknowledgement.at)} after it was raised) by {acknowledgement.name},{" "}
      {acknowledgement.via === "link"
        ? "with the link in the message"
        : `by phone (recorded by ${acknowledgement.recordedBy ? personName(acknowledgement.recordedBy) : "staff"})`}
      {/* A physician's typed read-back is its own line; a note beside a phone read-back stays a note. */}
      {acknowledgement.via === "link" && acknowledgement.readBackConfirmed && acknowledgement.note
        ? `; read back: “${acknowledgement.note}”`
        : `; ${acknowledgement.readBackConfirmed ? "read back confirmed" : "not read back"}${
            acknowledgement.note ? `. Note: ${acknowledgement.note}` : ""
          }`}
    </>
  );
}

function CancelFindingButton({ finding }: { finding: CriticalFinding }) {
  const [open, setOpen] = useState(false);
  const cancel = useCancelCriticalFinding();
  return (
    <>
      <Button color="error" onClick={() => setOpen(true)}>
        Cancel finding
      </Button>
      <ReasonDialog
        open={open}
        title="Cancel this critical finding?"
        confirmLabel="Cancel finding"
        destructive
        maxLength={1000}
        pending={cancel.isPending}
        error={apiErrorOf(cancel.error)?.message ?? null}
        onConfirm={(reason) =>
          cancel.mutate({ caseId: finding.caseId, findingId: finding.id, reason }, { onSuccess: () => setOpen(false) })
        }
        onClose={() => {
          cancel.reset();
          setOpen(false);
        }}
      >
        Nobody else is told about it and its escalation stops. The reason is kept on the case's timeline.
      </ReasonDialog>
    </>
  );
}

/**
 * One finding: kind and status in words and colour, the four times of the loop in the client's zone (EEG onset →
 * raised → first notification sent → acknowledged), the window, who acknowledged and how, each recipient's
 * messages, the escalations; and for staff who handle findings, the phone acknowledgement and the cancellation.
 */
export function FindingCard({ finding, timeZone, now }: { finding: CriticalFinding; timeZone: string; now: number }) {
  const headingId = useId();
  const { can } = useAccess();
  const [recordingPhone, setRecordingPhone] = useState(false);
  const open = finding.status === "open";
  const kind = criticalFindingKindLabels[finding.kind];
  return (
    <Paper
      component="article"
      variant="outlined"
      aria-labelledby={headingId}
      data-status={finding.status}
      sx={{ p: 2, borderColor: open ? "error.main" : undefined, borderWidth: open ? 2 : 1 }}
    >
      <Stack direction="row" sx={{ gap: 1, alignItems: "center", flexWrap: "wrap" }}>
        <Typography variant="subtitle1" component="h3" id={headingId} sx={{ fontWeight: 600 }}>
          {kind}
        </Typography>
        <Chip
          size="small"
          variant={open ? "filled" : "outlined"}
          color={findingStatusColors[finding.status]}
          label={findingStatusLabels[finding.status]}
        />
      </Stack>
      <Typography sx={{ mt: 1, whiteSpace: "pre-wrap" }}>{finding.description}</Typography>
      <Box component="dl" sx={{ my: 1 }}>
        <Fact label="EEG onset">
          <ZonedDateTime value={finding.onsetAt} timeZone={timeZone} />
        </Fact>
        <Fact label="Raised">
          <ZonedDateTime value={finding.raisedAt} timeZone={timeZone} /> by {personName(finding.raisedBy)}
        </Fact>
        <Fact label="First notification sent">
          {finding.firstNotifiedAt ? (
            <>
              <ZonedDateTime value={finding.firstNotifiedAt} timeZone={timeZone} /> (
              {durationText(finding.raisedAt, finding.firstNotifiedAt)} after it was raised)
            </>
          ) : (
            "Not sent yet"
          )}
        </Fact>
        <Fact label="Acknowledgement">
          <AcknowledgementText finding={finding} timeZone={timeZone} />
        </Fact>
        {finding.cancellation ? (
          <Fact label="Cancellation">
            <ZonedDateTime value={finding.cancellation.at} timeZone={timeZone} /> by{" "}
            {personName(finding.cancellation.by)}: {finding.cancellation.reason}
          </Fact>
        ) : null}
        <Fact label="Acknowledgement due">
          <ZonedDateTime value={finding.dueAt} timeZone={timeZone} />
          <Box component="span" sx={{ display: "block" }}>
            <WindowText finding={finding} now={now} />
          </Box>
        </Fact>
        <Fact label="Escalations">
          {finding.escalations === 0 ? "None so far" : `${finding.escalations} so far`}
          {open && finding.nextEscalationAt ? (
            <>
              ; next <ZonedDateTime value={finding.nextEscalationAt} timeZone={timeZone} />
            </>
          ) : null}
        </Fact>
      </Box>
      <Typography variant="subtitle2" component="h4" sx={{ mt: 1 }}>
        Recipients
      </Typography>
      <FindingRecipients label={`Recipients: ${kind}`} recipients={finding.recipients} timeZone={timeZone} />
      {open && can("findings:handle") ? (
        <Stack direction="row" sx={{ gap: 1, mt: 2, flexWrap: "wrap" }}>
          <Button variant="contained" onClick={() => setRecordingPhone(true)}>
            Record phone acknowledgement
          </Button>
          <CancelFindingButton finding={finding} />
          <PhoneAcknowledgementDialog
            open={recordingPhone}
            finding={finding}
            timeZone={timeZone}
            onClose={() => setRecordingPhone(false)}
          />
        </Stack>
      ) : null}
    </Paper>
  );
}
