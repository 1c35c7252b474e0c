import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type Case,
  electrodes,
  formatInstantInZone,
  type ImpedanceItem,
  type ImpedanceList,
  recommendedImpedanceKohm,
} from "@vigil/contract";
import { ZonedDateTime } from "../../../../components/dates/zoned-date-time";
import { ImpedanceGrid } from "./impedance-grid";
import { ImpedanceLevelIcon } from "./impedance-level-icon";

/** A check as a technologist scans it: when, which electrodes need attention, and the head map. */
export function ImpedanceItemBody({ item, caseItem }: { item: ImpedanceItem; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { data, flagged, caution, thresholdKohm } = item;
  return (
    <Stack spacing={1}>
      <Typography>
        Checked <ZonedDateTime value={data.checkedAt} timeZone={zone} /> · {data.values.length} of {electrodes.length}{" "}
        electrodes measured · threshold {thresholdKohm} kΩ
      </Typography>
      {flagged.length > 0 ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
          <ImpedanceLevelIcon level="flagged" />
          <Typography sx={{ fontWeight: 600 }}>
            Flagged (above {thresholdKohm} kΩ): {flagged.join(", ")}
          </Typography>
        </Stack>
      ) : null}
      {caution.length > 0 ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
          <ImpedanceLevelIcon level="caution" />
          <Typography>
            Caution ({recommendedImpedanceKohm}–{thresholdKohm} kΩ): {caution.join(", ")}
          </Typography>
        </Stack>
      ) : null}
      {flagged.length === 0 && caution.length === 0 ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
          <ImpedanceLevelIcon level="good" />
          <Typography>Every measured electrode is below {recommendedImpedanceKohm} kΩ.</Typography>
        </Stack>
      ) : null}
      <ImpedanceGrid
        values={data.values}
        thresholdKohm={thresholdKohm}
        flagged={flagged}
        caution={caution}
        label={`Electrode impedances, ${formatInstantInZone(data.checkedAt, zone)}`}
      />
      {data.notes ? <Typography sx={{ whiteSpace: "pre-wrap" }}>{data.notes}</Typography> : null}
    </Stack>
  );
}

/** The protocol's rule and where the case stands against it; an overdue check is an alert. */
export function ImpedanceSummary({ list, caseItem }: { list: ImpedanceList; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { summary } = list;
  return (
    <Stack spacing={1}>
      {summary.overdue ? (
        <Alert severity="error" role="alert">
          Overdue: an impedance check was due{" "}
          {summary.dueAt ? <ZonedDateTime value={summary.dueAt} timeZone={zone} /> : "already"}. Check every{" "}
          {summary.intervalHours} h.
        </Alert>
      ) : null}
      <Typography variant="body2">
        Threshold {summary.thresholdKohm} kΩ
        {summary.protocolRevision === null
          ? " (product default; no protocol revision pinned yet)"
          : ` from protocol revision ${summary.protocolRevision}`}
        ; caution from {summary.cautionKohm} kΩ; check every {summary.intervalHours} h.
      </Typography>
      <Typography variant="body2">
        Last check:{" "}
        {summary.lastCheckedAt ? <ZonedDateTime value={summary.lastCheckedAt} timeZone={zone} /> : "none yet"}
        {" · "}Next due:{" "}
        {summary.dueAt ? (
          <ZonedDateTime value={summary.dueAt} timeZone={zone} />
        ) : (
          "not while the case is not monitoring"
        )}
      </Typography>
    </Stack>
  );
}
