import Typography from "@mui/material/Typography";
import type { Client } from "@vigil/contract";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { useClient } from "../../../api/get-client";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";

/** Pages under one client (new contact, new link): load the client named in the URL, then render. */
export function ClientSubpage({ children }: { children: (client: Client) => ReactNode }) {
  const { clientId = "" } = useParams();
  const client = useClient(clientId);
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
  return children(client.data);
}
