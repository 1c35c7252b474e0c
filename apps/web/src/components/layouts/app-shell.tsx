import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import { useTheme } from "@mui/material/styles";
import Toolbar from "@mui/material/Toolbar";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from "react";
import { Link as RouterLink } from "react-router";
import { appName } from "../../config/constants";
import { ApiErrorStack } from "../feedback/api-error-stack";
import { NewVersionBanner } from "../feedback/new-version-banner";
import { arrivalFocusPending } from "./arrival-focus";
import { mainContentId, SkipLink } from "./skip-link";

const drawerWidth = 264;
const navigationId = "main-navigation";

// The temporary drawer of small screens is MUI's Drawer, which brings Modal, the focus trap, Slide and Backdrop:
// its own chunk, loaded only where the screen is narrow (right after the first render, before anyone taps).
const loadDrawer = () => import("@mui/material/Drawer");
const TemporaryDrawer = lazy(loadDrawer);

// The busy bar shows only while a later navigation loads its screen, never on the first one: its own chunk, fetched
// right after the first render.
const loadProgressBar = () => import("@mui/material/LinearProgress");
const LinearProgress = lazy(loadProgressBar);

/**
 * The permanent navigation of wide screens, drawn the way MUI's `Drawer variant="permanent"` draws it (a docked
 * Paper along the left edge, under the app bar) without importing Drawer, which would bring the temporary
 * variant's Modal into the signed-in shell's first load.
 */
function DockedDrawer({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ flex: "0 0 auto" }}>
      <Paper
        elevation={0}
        square
        sx={{
          position: "fixed",
          top: 0,
          left: 0,
          zIndex: "drawer",
          display: "flex",
          flexDirection: "column",
          flex: "1 0 auto",
          width: drawerWidth,
          height: "100%",
          boxSizing: "border-box",
          overflowY: "auto",
          outline: 0,
          borderRight: (theme) => `1px solid ${theme.palette.divider}`,
        }}
      >
        {children}
      </Paper>
    </Box>
  );
}

export type AppShellProps = {
  layout: "default" | "app";
  /** The current page's title, repeated in the app bar for small screens where the drawer is hidden. */
  title: string;
  homeUrl: string;
  /** Drawer content; receives a callback that closes the drawer on small screens after a choice. */
  renderNavigation: (onNavigate: () => void) => ReactNode;
  breadcrumbs?: ReactNode;
  userMenu?: ReactNode;
  /** A route is loading: a thin bar under the app bar, so the old page stays readable meanwhile. */
  busy?: boolean;
  children: ReactNode;
};

/** The signed-in chrome: app bar, navigation drawer, breadcrumbs, alerts, then the page. */
export function AppShell({
  layout,
  title,
  homeUrl,
  renderNavigation,
  breadcrumbs,
  userMenu,
  busy,
  children,
}: AppShellProps) {
  const theme = useTheme();
  const wide = useMediaQuery(theme.breakpoints.up("md"));
  const [drawerOpen, setDrawerOpen] = useState(false);
  const closeDrawer = () => setDrawerOpen(false);
  useEffect(() => {
    if (!wide) void loadDrawer().catch(() => {});
  }, [wide]);
  useEffect(() => {
    void loadProgressBar().catch(() => {});
  }, []);
  const main = useRef<HTMLElement>(null);
  // Right after sign-in, until the page's heading renders and takes it (arrival-focus.ts).
  useEffect(() => {
    if (arrivalFocusPending()) main.current?.focus();
  }, []);

  return (
    <Box sx={{ display: "flex", minHeight: "100vh" }} data-layout={layout}>
      <SkipLink />
      <AppBar
        component="header"
        position="fixed"
        className="vigil-no-print"
        // Above the permanent drawer on wide screens; below the temporary one, which must cover it on phones.
        sx={{ zIndex: (t) => (wide ? t.zIndex.drawer + 1 : t.zIndex.appBar) }}
      >
        <Toolbar>
          {wide ? null : (
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Open navigation"
              aria-controls={navigationId}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
          )}
          <Link
            component={RouterLink}
            to={homeUrl}
            color="inherit"
            underline="none"
            sx={{ fontWeight: 700, fontSize: "1.25rem", mr: 2 }}
          >
            {appName}
          </Link>
          <Typography component="p" variant="subtitle1" noWrap sx={{ flexGrow: 1, opacity: 0.9 }}>
            {title}
          </Typography>
          {userMenu}
        </Toolbar>
        {busy ? (
          <Suspense fallback={null}>
            <LinearProgress
              color="secondary"
              aria-label="Loading page"
              sx={{ position: "absolute", bottom: 0, left: 0, right: 0 }}
            />
          </Suspense>
        ) : null}
      </AppBar>
      {/* The temporary drawer renders in a portal, so the nav landmark sits inside each drawer, not around them. */}
      <Box className="vigil-no-print" sx={{ width: { md: drawerWidth }, flexShrink: { md: 0 } }}>
        {wide ? (
          <DockedDrawer>
            <Toolbar />
            <Box component="nav" id={navigationId} aria-label="Main navigation">
              {renderNavigation(() => {})}
            </Box>
          </DockedDrawer>
        ) : (
          <Suspense fallback={null}>
            <TemporaryDrawer
              variant="temporary"
              open={drawerOpen}
              onClose={closeDrawer}
              sx={{ "& .MuiDrawer-paper": { width: drawerWidth, boxSizing: "border-box" } }}
            >
              <Box component="nav" id={navigationId} aria-label="Main navigation">
                {renderNavigation(closeDrawer)}
              </Box>
            </TemporaryDrawer>
          </Suspense>
        )}
      </Box>
      <Box
        component="main"
        ref={main}
        id={mainContentId}
        tabIndex={-1}
        sx={{ flexGrow: 1, minWidth: 0, p: { xs: 2, sm: 3 } }}
      >
        <Toolbar className="vigil-no-print" />
        {breadcrumbs}
        <Box className="vigil-no-print">
          <NewVersionBanner />
          <ApiErrorStack />
        </Box>
        {children}
      </Box>
    </Box>
  );
}
