import NotificationsIcon from "@mui/icons-material/Notifications";
import Badge from "@mui/material/Badge";
import IconButton from "@mui/material/IconButton";
import { lazy, Suspense, useId, useState } from "react";
import { useClockAlerts } from "../../api/clock-alerts";

/** How many of the newest alerts the panel lists; older ones stay counted in the badge until marked read. */
const clockAlertsShown = 20;

// The panel (MUI's Popover, hence Modal) is not part of the signed-in shell's first load: it starts loading when the
// bell is pointed at or focused, usually before the click that opens it.
const loadPanel = () => import("./clock-alerts-panel");
const ClockAlertsPanel = lazy(() => loadPanel().then((module) => ({ default: module.ClockAlertsPanel })));
const preloadPanel = () => void loadPanel().catch(() => {});

/**
 * The app bar's bell (PRODUCT.md §10): how many of the user's clock alerts are unread, read again every 30 s and on
 * every invalidation of `sharedKeys.clockAlerts()`; it opens the newest alerts, each a link to its case.
 */
export function ClockAlertsBell() {
  const alerts = useClockAlerts(clockAlertsShown);
  const unread = alerts.data?.unread ?? 0;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [wanted, setWanted] = useState(false);
  const panelId = useId();
  const open = anchor !== null;
  return (
    <>
      <IconButton
        color="inherit"
        // The name holds the badge's text exactly as shown ("99+" past 99): a speech user says what they see.
        aria-label={unread > 0 ? `Clock alerts, ${unread > 99 ? "99+" : unread} unread` : "Clock alerts"}
        aria-haspopup="dialog"
        aria-controls={open ? panelId : undefined}
        aria-expanded={open}
        onPointerEnter={preloadPanel}
        onFocus={preloadPanel}
        onClick={(event) => {
          setWanted(true);
          setAnchor(event.currentTarget);
        }}
        sx={{ mr: 1 }}
      >
        {/* No badge at all when nothing is unread: a hidden badge keeps its last count in the page's text. */}
        {unread > 0 ? (
          <Badge badgeContent={unread} color="error" max={99}>
            <NotificationsIcon />
          </Badge>
        ) : (
          <NotificationsIcon />
        )}
      </IconButton>
      {wanted ? (
        <Suspense fallback={null}>
          <ClockAlertsPanel id={panelId} limit={clockAlertsShown} anchor={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
