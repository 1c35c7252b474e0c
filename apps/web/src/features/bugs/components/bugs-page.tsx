import Lan from "@mui/icons-material/Lan";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { pages } from "@vigil/contract";
import { Link as RouterLink, useSearchParams } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { PageHeading } from "../../../components/layouts/page-heading";
import { type RouteTab, RouteTabPanel, RouteTabs } from "../../../components/navigation/route-tabs";
import { BugReportsPanel } from "./bug-reports-panel";
import { UnitTestsPanel } from "./unit-tests-panel";

const tabIdPrefix = "bugs";

/**
 * `/bugs`: the bug reports and the product's unit-test catalogue as tabs (`?tab=unit-tests`, so each can be
 * bookmarked and reached with Back), and the way to the live integration checks. Each tab is a link to the page
 * with only its own tab in the URL, so one tab's filters never leak into the other's.
 */
export function BugsPage() {
  const { can } = useAccess();
  const [params] = useSearchParams();
  const tabs: RouteTab[] = [
    { value: "reports", label: "Reports", to: pages.bugs.href() },
    ...(can("tests:read")
      ? [{ value: "unit-tests", label: "Unit tests", to: pages.bugs.href({}, { tab: "unit-tests" }) }]
      : []),
  ];
  const requested = params.get("tab") ?? "reports";
  const tab = tabs.some((entry) => entry.value === requested) ? requested : "reports";

  return (
    <>
      <Stack
        direction="row"
        sx={{ alignItems: "flex-start", justifyContent: "space-between", gap: 2, flexWrap: "wrap" }}
      >
        <PageHeading>Bugs</PageHeading>
        {can("integration:run") ? (
          <Button
            component={RouterLink}
            to={pages["integration-testing"].href()}
            variant="outlined"
            startIcon={<Lan />}
          >
            Integration testing
          </Button>
        ) : null}
      </Stack>
      <RouteTabs label="Bugs" idPrefix={tabIdPrefix} tabs={tabs} value={tab} />
      <RouteTabPanel idPrefix={tabIdPrefix} value={tab}>
        {tab === "unit-tests" ? <UnitTestsPanel /> : <BugReportsPanel />}
      </RouteTabPanel>
    </>
  );
}
