import Typography from "@mui/material/Typography";
import type { ReportVersion } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";

/**
 * Whether the hospital's chart took this version by HL7 (its interface profile's destination): waiting while the
 * result is queued or retried, acknowledged and when, or failed with the hospital's words. Nothing when the client
 * takes no results by interface.
 */
export function ReportEhrStatus({ version, timeZone }: { version: ReportVersion; timeZone: string }) {
  const { ehr } = version;
  if (!ehr) return null;
  if (ehr.status === "acknowledged") {
    return (
      <Typography variant="body2" color="success.main">
        Sent to the EHR · acknowledged
        {ehr.at ? (
          <>
            {" "}
            <ZonedDateTime value={ehr.at} timeZone={timeZone} />
          </>
        ) : null}
      </Typography>
    );
  }
  if (ehr.status === "failed") {
    return (
      <Typography variant="body2" color="error" role="status">
        Sent to the EHR · failed: {ehr.error ?? "the hospital's system did not take it"}
      </Typography>
    );
  }
  return (
    <Typography variant="body2" color="text.secondary">
      Sent to the EHR · waiting for the hospital's system to acknowledge it
      {ehr.error ? ` (last try: ${ehr.error})` : ""}
    </Typography>
  );
}
