import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemText from "@mui/material/ListItemText";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import { type ClockAlert, clockAlertKindLabels, clockAlertStateLabels, formatInstantInZone } from "@vigil/contract";
import { useId } from "react";
import { Link as RouterLink } from "react-router";
import { useClockAlerts, useMarkAllClockAlertsRead, useMarkClockAlertRead } from "../../api/clock-alerts";
import { visuallyHidden } from "../visually-hidden";

function AlertItem({ alert, onOpen }: { alert: ClockAlert; onOpen: () => void }) {
  const what = `${clockAlertKindLabels[alert.kind]} ${clockAlertStateLabels[alert.state]}`;
  const unread = alert.readAt === null;
  return (
    <ListItemButton component={RouterLink} to={alert.href} onClick={onOpen} alignItems="flex-start" divider>
      <ListItemText
        primary={
          <>
            <Typography component="span" sx={{ fontWeight: unread ? 700 : 400 }}>
              {`Case ${alert.caseNumber}: ${what}`}
            </Typography>
            {unread ? (
              <Box component="span" sx={visuallyHidden}>
                {" (unread)"}
              </Box>
            ) : null}
          </>
        }
        secondary={`${alert.client.name} · due ${formatInstantInZone(alert.dueAt, alert.client.timezone)}`}
      />
    </ListItemButton>
  );
}

/** The newest clock alerts of the signed-in user, each opening its case (and marking it read), and "Mark all read". */
export function ClockAlertsPanel({
  id,
  limit,
  anchor,
  onClose,
}: {
  id: string;
  /** The bell's page size: the panel shares its cached read. */
  limit: number;
  anchor: HTMLElement | null;
  onClose: () => void;
}) {
  const alerts = useClockAlerts(limit);
  const markRead = useMarkClockAlertRead();
  const markAllRead = useMarkAllClockAlertsRead();
  const headingId = useId();
  const unread = alerts.data?.unread ?? 0;
  return (
    <Popover
      id={id}
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
      slotProps={{
        paper: { role: "dialog", "aria-labelledby": headingId, sx: { width: 380, maxWidth: "calc(100vw - 32px)" } },
      }}
    >
      <Box sx={{ display: "flex", alignItems: "center", px: 2, py: 1, gap: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ flexGrow: 1 }}>
          Clock alerts
        </Typography>
        <Button
          size="small"
          disabled={unread === 0 || markAllRead.isPending} // Closing hands focus back to the bell, whose name now says nothing is unread; a disabled button would drop it.
          onClick={() => markAllRead.mutate(undefined, { onSuccess: onClose })}
        >
          Mark all read
        </Button>
      </Box>
      {alerts.isPending ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          Loading your alerts…
        </Typography>
      ) : alerts.isError ? (
        <Alert severity="error" sx={{ mx: 2, mb: 2 }}>
          Your alerts could not be loaded.
        </Alert>
      ) : alerts.data.items.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          No clock alerts. You are told here when a clock you own turns due soon or overdue.
        </Typography>
      ) : (
        <List dense disablePadding aria-labelledby={headingId} sx={{ maxHeight: 420, overflowY: "auto" }}>
          {alerts.data.items.map((alert) => (
            <AlertItem
              key={alert.id}
              alert={alert}
              onOpen={() => {
                if (alert.readAt === null) markRead.mutate(alert.id);
                onClose();
              }}
            />
          ))}
        </List>
      )}
      {alerts.data && alerts.data.total > alerts.data.items.length ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 1 }}>
          {`The newest ${alerts.data.items.length} of ${alerts.data.total} alerts.`}
        </Typography>
      ) : null}
    </Popover>
  );
}
