import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, type ClientTab, clientTabs, pages, segmentTitles } from "@vigil/contract";
import type { ReactNode } from "react";
import { useLocation, useParams } from "react-router";
import { useClient } from "../../../api/get-client";
import { useAccess } from "../../../components/access/access-context";
import { NotFoundPage } from "../../../components/errors/not-found-page";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { RouteTabPanel, RouteTabs } from "../../../components/navigation/route-tabs";
import { ClientCases } from "./client-cases";
import { ClientContacts } from "./client-contacts";
import { ClientOverview } from "./client-overview";
import { ClientProtocol } from "./client-protocol";
import { ClientStatusChip } from "./client-status-chip";
import { ClientUsefulLinks } from "./client-useful-links";

function isClientTab(value: string | undefined): value is ClientTab {
  return (clientTabs as readonly string[]).includes(value ?? "");
}

/** Renders the Interfaces tab: the interfaces feature's, composed in by the app layer (`app/routes/`). */
export type InterfacesTabRenderer = (client: Client) => ReactNode;

/**
 * `/continuous-monitoring/clients/{clientId}/{tab}`: the client's name and state, its tabs (as routes), the tab.
 * The Interfaces tab is there for who may read interface profiles (`interfaces:read`).
 */
export function ClientDetailPage({ renderInterfacesTab }: { renderInterfacesTab?: InterfacesTabRenderer } = {}) {
  const { clientId = "", tab } = useParams();
  const location = useLocation();
  const client = useClient(clientId);
  const { can } = useAccess();
  const visibleTabs = clientTabs.filter((value) => value !== "interfaces" || can("interfaces:read"));

  if (!isClientTab(tab) || !(visibleTabs as readonly string[]).includes(tab)) {
    return <NotFoundPage path={location.pathname} />;
  }
  if (client.isPending) return <LoadingScreen label="Loading the client…" />;
  if (client.isError) {
    if (isNotFound(client.error)) {
      return (
        <>
          <PageHeading>Client not found</PageHeading>
          <Typography>There is no client with this id; it may have been mistyped.</Typography>
        </>
      );
    }
    return <QueryError what="The client" error={client.error} onRetry={() => void client.refetch()} />;
  }

  const data = client.data;
  return (
    <>
      <Box className="vigil-no-print">
        <PageHeading>{data.name}</PageHeading>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", mb: 2, flexWrap: "wrap" }}>
          <Typography color="text.secondary">Code {data.code}</Typography>
          <ClientStatusChip client={data} />
          <Typography color="text.secondary">Times in {data.timezone}</Typography>
        </Stack>
      </Box>
      <RouteTabs
        label="Client sections"
        idPrefix="client"
        value={tab}
        tabs={visibleTabs.map((value) => ({
          value,
          label: segmentTitles[value] ?? value,
          to: pages["client-detail"].href({ clientId: data.id, tab: value }),
        }))}
      />
      <RouteTabPanel idPrefix="client" value={tab}>
        {tab === "overview" ? <ClientOverview client={data} /> : null}
        {tab === "protocol" ? <ClientProtocol client={data} /> : null}
        {tab === "contacts" ? <ClientContacts client={data} /> : null}
        {tab === "useful-links" ? <ClientUsefulLinks client={data} /> : null}
        {tab === "cases" ? <ClientCases client={data} /> : null}
        {tab === "interfaces" ? renderInterfacesTab?.(data) : null}
      </RouteTabPanel>
    </>
  );
}
