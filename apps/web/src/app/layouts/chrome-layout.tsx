import BugReport from "@mui/icons-material/BugReport";
import ManageAccounts from "@mui/icons-material/ManageAccounts";
import Box from "@mui/material/Box";
import { pages } from "@vigil/contract";
import { lazy, Suspense, useState } from "react";
import { Outlet, useLocation, useNavigation } from "react-router";
import { useLiveCaseEvents } from "../../api/live-case-events";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { AppShell } from "../../components/layouts/app-shell";
import { BreadcrumbsTrail } from "../../features/chrome/components/breadcrumbs-trail";
import { NavMenu } from "../../features/chrome/components/nav-menu";
import { homeUrlOf } from "../../features/chrome/menu-entries";
import { UserMenu } from "../../features/users/components/user-menu";
import { useCurrentPage } from "../route-handle";
import { useSession, useSignOut } from "../session";
import { PageGate } from "./page-gate";

// Loaded the first time someone reports a bug, so the form stays out of the signed-in shell's first load.
const BugReportDialog = lazy(() =>
  import("../../features/bugs/components/bug-report-dialog").then((module) => ({ default: module.BugReportDialog })),
);

// The bell (its alert reads and mutations, the badge) loads after the first screen, in its own chunk: no screen
// waits for it. Until it is there, an empty space of its size keeps the account button from moving.
const ClockAlertsBell = lazy(() =>
  import("../../components/notifications/clock-alerts-bell").then((module) => ({ default: module.ClockAlertsBell })),
);

function BellPlaceholder() {
  return <Box aria-hidden="true" sx={{ width: 40, height: 40, mr: 1, flexShrink: 0 }} />;
}

/** The `default` (home) and `app` layouts: app bar, menu drawer, breadcrumbs and user menu around the page. */
export function ChromeLayout() {
  const page = useCurrentPage();
  const session = useSession();
  // One live event stream per signed-in tab: queues, the case screen and the board refresh when anyone changes a case.
  useLiveCaseEvents(session.status === "ready" ? session.username : undefined);
  const signOut = useSignOut();
  const location = useLocation();
  const navigation = useNavigation();
  // "Report a bug" opens over the current page: the user stays where the problem is.
  const [reportingBug, setReportingBug] = useState(false);
  // Stays mounted once opened, so the "filed as BUG-7" confirmation outlives the dialog.
  const [bugDialogWanted, setBugDialogWanted] = useState(false);

  // Menu and user load together behind one indicator instead of a half-drawn chrome.
  if (session.status === "loading" && page?.access !== "public")
    return <LoadingScreen label="Loading your workspace…" />;

  const signedIn = session.status === "ready" || session.status === "denied";
  const menu = signedIn ? session.menu : [];
  return (
    <AppShell
      layout={page?.layout === "default" ? "default" : "app"}
      title={page?.title ?? ""}
      homeUrl={homeUrlOf(menu)}
      renderNavigation={(onNavigate) => (
        <NavMenu items={menu} currentPath={location.pathname} onNavigate={onNavigate} />
      )}
      breadcrumbs={session.status === "ready" ? <BreadcrumbsTrail path={location.pathname} /> : null}
      userMenu={
        signedIn ? (
          <>
            {session.status === "ready" ? (
              <Suspense fallback={<BellPlaceholder />}>
                <ClockAlertsBell />
              </Suspense>
            ) : null}
            <UserMenu
              name={session.user.name || session.user.username}
              email={session.user.email}
              actions={[
                { label: "Account", icon: <ManageAccounts fontSize="small" />, to: pages.account.href() },
                {
                  label: "Report a bug",
                  icon: <BugReport fontSize="small" />,
                  onSelect: () => {
                    setBugDialogWanted(true);
                    setReportingBug(true);
                  },
                },
              ]}
              onSignOut={() => void signOut()}
            />
          </>
        ) : null
      }
      busy={navigation.state === "loading"}
    >
      <PageGate page={page} session={session}>
        <Outlet />
      </PageGate>
      {signedIn && bugDialogWanted ? (
        <Suspense fallback={null}>
          <BugReportDialog open={reportingBug} onClose={() => setReportingBug(false)} />
        </Suspense>
      ) : null}
    </AppShell>
  );
}
