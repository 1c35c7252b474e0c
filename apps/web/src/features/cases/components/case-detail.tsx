import ManageSearch from "@mui/icons-material/ManageSearch";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import {
  type Case,
  type CaseStage,
  type CaseTab,
  caseStageOfPath,
  caseStages,
  caseTabs,
  pages,
  segmentTitles,
} from "@vigil/contract";
import type { ReactNode } from "react";
import { Navigate, Link as RouterLink, useLocation, useNavigation, useParams } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { NotFoundPage } from "../../../components/errors/not-found-page";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { RouteTabPanel, RouteTabs } from "../../../components/navigation/route-tabs";
import { useCase } from "../api/get-case";
import { CaseClientProtocol } from "./case-client-protocol";
import { CaseHeader } from "./case-header";
import { CaseOverview } from "./case-overview";
import { CaseTimelineView } from "./case-timeline";
import { CaseWorkflow } from "./case-workflow";

function isCaseTab(value: string | undefined): value is CaseTab {
  return (caseTabs as readonly string[]).includes(value ?? "");
}

function isStage(value: string | undefined): value is CaseStage {
  return (caseStages as readonly string[]).includes(value ?? "");
}

function casePage(stage: CaseStage) {
  return pages[`case-${stage}-detail`];
}

/**
 * Renders a record tab (patient details, interpretations, …). The records are their own feature, composed in
 * by the app layer, so this feature does not import it.
 */
export type RecordTabRenderer = (tab: CaseTab, caseItem: Case) => ReactNode;

/** Renders what leads the overview tab (the critical findings panel), composed in by the app layer likewise. */
export type OverviewLeadRenderer = (caseItem: Case) => ReactNode;

export type CaseDetailPageProps = { renderRecordTab?: RecordTabRenderer; renderOverviewLead?: OverviewLeadRenderer };

function NotBuiltTab({ tab }: { tab: CaseTab }) {
  return (
    <Typography color="text.secondary">
      {segmentTitles[tab] ?? tab} arrive with the case records; this tab is not built yet.
    </Typography>
  );
}

/**
 * `/continuous-monitoring/cases/{stage}/{caseId}/{tab}`: the case header, what the user may do now, and the tab.
 * A URL naming the wrong stage (a bookmark from before a move) is sent to the case's real stage.
 */
export function CaseDetailPage({ renderRecordTab, renderOverviewLead }: CaseDetailPageProps = {}) {
  const { caseId = "" } = useParams();
  const location = useLocation();
  // The stage routes share this screen, and React keeps it mounted across them: a new stage or case in the URL
  // remounts it, so the case is read again (it may have moved) before the URL is judged.
  return (
    <CaseDetail
      key={`${caseStageOfPath(location.pathname)}/${caseId}`}
      renderRecordTab={renderRecordTab}
      renderOverviewLead={renderOverviewLead}
    />
  );
}

function CaseDetail({ renderRecordTab, renderOverviewLead }: CaseDetailPageProps) {
  const { caseId = "", tab } = useParams();
  const location = useLocation();
  const navigation = useNavigation();
  const urlStage = caseStageOfPath(location.pathname);
  const item = useCase(caseId);
  const { can } = useAccess();

  if (!isCaseTab(tab) || !isStage(urlStage)) return <NotFoundPage path={location.pathname} />;
  if (item.isPending) return <LoadingScreen label="Loading the case…" />;
  if (item.isError) {
    if (isNotFound(item.error)) {
      return (
        <>
          <PageHeading>Case not found</PageHeading>
          <Typography>There is no case with this id; it may have been mistyped.</Typography>
        </>
      );
    }
    return <QueryError what="The case" error={item.error} onRetry={() => void item.refetch()} />;
  }

  const data = item.data;
  // While the user is already on the way elsewhere (the next screen's code still loading), following the case
  // to its new stage would replace their navigation with ours: they asked for the queue and would stay here.
  const leaving = navigation.state !== "idle";
  // A cached case may be behind (someone moved it meanwhile): wait for the fresh read before redirecting.
  if (data.stage !== urlStage && item.isFetching && !leaving) return <LoadingScreen label="Loading the case…" />;
  if (data.stage !== urlStage && !leaving) {
    const target = data.tabs.includes(tab) ? tab : "overview";
    return <Navigate replace to={`${casePage(data.stage).href({ caseId: data.id, tab: target })}${location.search}`} />;
  }
  // The server says which tabs this case has now (some open only from a stage on).
  const tabs = data.tabs;
  if (!tabs.includes(tab) && !leaving)
    return <Navigate replace to={casePage(data.stage).href({ caseId: data.id, tab: "overview" })} />;

  return (
    <>
      <CaseHeader item={data} />
      {can("audit:read") ? (
        <Box className="vigil-no-print" sx={{ mb: 1 }}>
          <Button
            component={RouterLink}
            to={pages.audit.href({}, { caseId: data.id })}
            size="small"
            startIcon={<ManageSearch />}
          >
            Audit trail
          </Button>
        </Box>
      ) : null}
      <CaseWorkflow item={data} />
      <RouteTabs
        label="Case sections"
        idPrefix="case"
        value={tab}
        tabs={tabs.map((value) => ({
          value,
          label: segmentTitles[value] ?? value,
          to: casePage(data.stage).href({ caseId: data.id, tab: value }),
        }))}
      />
      <RouteTabPanel idPrefix="case" value={tab}>
        {tab === "overview" ? (
          <CaseOverview item={data} lead={renderOverviewLead?.(data)} />
        ) : tab === "timeline" ? (
          <CaseTimelineView item={data} />
        ) : tab === "client-protocol" ? (
          <CaseClientProtocol item={data} />
        ) : renderRecordTab ? (
          renderRecordTab(tab, data)
        ) : (
          <NotBuiltTab tab={tab} />
        )}
      </RouteTabPanel>
    </>
  );
}
