import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";

export type RouteTab = { value: string; label: string; to: string };

export function routeTabId(idPrefix: string, value: string): string {
  return `${idPrefix}-tab-${value}`;
}

export function routeTabPanelId(idPrefix: string): string {
  return `${idPrefix}-panel`;
}

/**
 * Tabs that are routes (`…/{id}/{tab}`): each tab is a link, so a tab can be bookmarked, opened in a new
 * window and reached with Back; the selected one is whatever the URL says.
 */
export function RouteTabs({
  label,
  idPrefix,
  tabs,
  value,
}: {
  label: string;
  idPrefix: string;
  tabs: readonly RouteTab[];
  value: string;
}) {
  return (
    <Box sx={{ borderBottom: 1, borderColor: "divider", mb: 2 }} className="vigil-no-print">
      {/* On a phone the tabs run past the screen's edge: the arrows say so there too (MUI hides them on touch). */}
      <Tabs value={value} aria-label={label} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile>
        {tabs.map((tab) => (
          <Tab
            key={tab.value}
            value={tab.value}
            label={tab.label}
            id={routeTabId(idPrefix, tab.value)}
            aria-controls={routeTabPanelId(idPrefix)}
            component={RouterLink}
            to={tab.to}
          />
        ))}
      </Tabs>
    </Box>
  );
}

/** The content under `RouteTabs`, labelled by the selected tab. */
export function RouteTabPanel({ idPrefix, value, children }: { idPrefix: string; value: string; children: ReactNode }) {
  return (
    <Box role="tabpanel" id={routeTabPanelId(idPrefix)} aria-labelledby={routeTabId(idPrefix, value)}>
      {children}
    </Box>
  );
}
