import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Case, EventData, EventItem, EventList } from "@vigil/contract";
import { ZonedDateTime } from "../../../../components/dates/zoned-date-time";
import type { RecordView } from "../../components/record-view";
import { AcknowledgeAction } from "./acknowledge-action";
import { EventEditor } from "./event-editor";
import { eventTypeLabels, flattenEvent, notificationMethodLabels, skinConditionLabels } from "./event-labels";

function EventBody({ item, caseItem }: { item: EventItem; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { data } = item;
  const notification = data.notification;
  const skin = data.skinCheck;
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap" }}>
        <Chip
          size="small"
          label={eventTypeLabels[data.type]}
          color={data.type === "seizure" ? "error" : data.type === "notification" ? "info" : "default"}
        />
        <Typography component="span" sx={{ fontWeight: 600 }}>
          <ZonedDateTime value={data.occurredAt} timeZone={zone} />
        </Typography>
      </Stack>
      {data.description ? (
        <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{data.description}</Typography>
      ) : null}
      {notification ? (
        <Box>
          <Typography variant="body2">
            Notified <strong>{notification.name}</strong> by{" "}
            {notificationMethodLabels[notification.method].toLowerCase()} at{" "}
            <ZonedDateTime value={notification.notifiedAt} timeZone={zone} />.
          </Typography>
          {notification.acknowledgedAt ? (
            <Typography variant="body2">
              Acknowledged at <ZonedDateTime value={notification.acknowledgedAt} timeZone={zone} />.
            </Typography>
          ) : (
            <Chip size="small" color="warning" variant="outlined" label="Not acknowledged yet" sx={{ mt: 0.5 }} />
          )}
        </Box>
      ) : null}
      {skin ? (
        <Box>
          <Typography variant="body2">
            Skin:{" "}
            <Box
              component="strong"
              sx={{
                color:
                  skin.condition === "breakdown"
                    ? "error.main"
                    : skin.condition === "redness"
                      ? "warning.dark"
                      : undefined,
              }}
            >
              {skinConditionLabels[skin.condition]}
            </Box>
            {skin.sites ? ` at ${skin.sites}` : ""}
          </Typography>
          {skin.actionTaken ? (
            <Typography variant="body2" sx={{ whiteSpace: "pre-wrap" }}>
              Action taken: {skin.actionTaken}
            </Typography>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

function EventSummary({ list }: { list: EventList }) {
  const count = list.summary.unacknowledged;
  if (count === 0) {
    return (
      <Typography variant="body2" color="text.secondary">
        No notification is waiting for acknowledgement.
      </Typography>
    );
  }
  return (
    <Alert severity="warning">
      {count === 1 ? "1 notification is" : `${count} notifications are`} not acknowledged yet.
    </Alert>
  );
}

/** Events: seizures, clinical and push-button events, artifacts, skin checks, notifications to the client's contacts. */
export const eventView: RecordView<EventItem, EventData, EventList> = {
  kind: "event",
  title: "Events",
  noun: "event",
  emptyText: "No events yet.",
  Editor: EventEditor,
  ItemBody: EventBody,
  Summary: EventSummary,
  ItemActions: AcknowledgeAction,
  flatten: flattenEvent,
};
