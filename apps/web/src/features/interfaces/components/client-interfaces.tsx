import ArrowBack from "@mui/icons-material/ArrowBack";
import Edit from "@mui/icons-material/Edit";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Client, pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { oneOf, useSearchState } from "../../../components/tables/use-search-state";
import { useInterfaceProfile } from "../api/get-interface-profile";
import { describeDestination } from "../profile-model";
import { FhirPushSettingsSection } from "./fhir-push-settings";
import { FhirSystems } from "./fhir-systems";
import { InterfaceProfileEditor } from "./interface-profile-editor";
import { InterfaceProfileHistory } from "./interface-profile-history";
import { InterfaceProfileView } from "./interface-profile-view";
import { InterfaceTestMessage } from "./interface-test-message";

const views = ["", "edit"] as const;

/**
 * The client screen's Interfaces tab: the HL7 interface profile in force, its history and, for administrators,
 * a new revision (`?view=edit`) and the test message. Coordinators read it.
 */
export function ClientInterfaces({ client }: { client: Client }) {
  const { can } = useAccess();
  const canManage = can("interfaces:manage") && !client.archivedAt;
  const profile = useInterfaceProfile(client.id);
  const [search, setSearch] = useSearchState({ view: "" });
  const view = oneOf(search.view, views, "");
  const back = () => setSearch({ view: null });

  if (profile.isPending) return <LoadingScreen label="Loading the interface profile…" />;
  if (profile.isError) {
    return <QueryError what="The interface profile" error={profile.error} onRetry={() => void profile.refetch()} />;
  }
  const { current, history } = profile.data;

  if (view === "edit" && canManage) {
    return (
      <>
        <Box sx={{ mb: 2 }}>
          <Button startIcon={<ArrowBack />} onClick={back}>
            Back to the interface profile
          </Button>
        </Box>
        <InterfaceProfileEditor client={client} current={current} onDone={back} />
      </>
    );
  }

  return (
    <Stack spacing={3}>
      <Typography variant="body2">
        What the hospital's interface team needs to connect, to show or print:{" "}
        <Link component={RouterLink} to={pages["interface-conformance"].href()}>
          Interface conformance
        </Link>
      </Typography>
      {canManage ? (
        <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
          <Button variant="contained" startIcon={<Edit />} onClick={() => setSearch({ view: "edit" })}>
            {current ? "Edit the profile" : "Set up the interface"}
          </Button>
        </Stack>
      ) : null}
      {current ? (
        <InterfaceProfileView revision={current} client={client} />
      ) : (
        <Typography color="text.secondary">
          No interface profile yet: the hospital's HL7 messages are not taken for this client.
          {canManage ? " Set it up with “Set up the interface”." : ""}
        </Typography>
      )}
      {canManage && current?.destination ? (
        <InterfaceTestMessage client={client} destination={describeDestination(current.destination)} />
      ) : null}
      {history.length > 0 ? <InterfaceProfileHistory client={client} history={history} /> : null}
      <FhirSystems client={client} canManage={canManage} />
      <FhirPushSettingsSection client={client} canManage={canManage} />
    </Stack>
  );
}
