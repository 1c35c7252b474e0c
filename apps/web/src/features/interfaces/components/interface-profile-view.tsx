import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { Client, InterfaceProfileRevision } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { DetailList, DetailRow } from "../../../components/layouts/detail-list";
import { describeDestination, resultStyleLabels, visitNumberSourceLabels } from "../profile-model";

export function profileAuthorName(author: InterfaceProfileRevision["author"]): string {
  return author.name || author.username;
}

/** The profile in force, laid out as the hospital's interface team would read it: what comes in, what goes out. */
export function InterfaceProfileView({ revision, client }: { revision: InterfaceProfileRevision; client: Client }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="current-profile">
      <Typography id="current-profile" variant="h6" component="h2">
        Current interface profile: revision {revision.revision}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Saved by {profileAuthorName(revision.author)} on{" "}
        <ZonedDateTime value={revision.createdAt} timeZone={client.timezone} />
        {revision.changeNote ? ` — “${revision.changeNote}”` : ""}
      </Typography>
      <DetailList labelWidth={280} dense>
        <DetailRow label="Interface">
          {revision.enabled ? "On" : "Off: the hospital's messages are refused and no results are sent"}
        </DetailRow>
        <DetailRow label="Sending application (MSH-3)">{revision.sendingApplication}</DetailRow>
        <DetailRow label="Sending facility (MSH-4)">{revision.sendingFacility}</DetailRow>
        <DetailRow label="MRN assigning authority (PID-3.4)">{revision.mrnAssigningAuthority}</DetailRow>
        <DetailRow label="Visit number from">{visitNumberSourceLabels[revision.visitNumberSource]}</DetailRow>
        <DetailRow label="Receiving application (MSH-5)">{revision.receivingApplication}</DetailRow>
        <DetailRow label="Receiving facility (MSH-6)">{revision.receivingFacility}</DetailRow>
        <DetailRow label="Destination for results">{describeDestination(revision.destination)}</DetailRow>
        <DetailRow label="Result style">{resultStyleLabels[revision.resultStyle]}</DetailRow>
        <DetailRow label="HL7 version">{revision.hl7Version}</DetailRow>
        <DetailRow label="Order status updates (ORC-5)">
          {revision.orderStatusUpdates
            ? "Sent: in progress when monitoring starts, completed when the report is signed"
            : "Not sent"}
        </DetailRow>
      </DetailList>
    </Paper>
  );
}
