import Add from "@mui/icons-material/Add";
import ArrowBack from "@mui/icons-material/ArrowBack";
import CompareArrows from "@mui/icons-material/CompareArrows";
import Print from "@mui/icons-material/Print";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Client, ProtocolRevision } from "@vigil/contract";
import { useState } from "react";
import { useAccess } from "../../../components/access/access-context";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { oneOf, useSearchState, wholeNumber } from "../../../components/tables/use-search-state";
import { useClientProtocol } from "../api/get-client-protocol";
import { ProtocolCompare } from "./protocol-compare";
import { ProtocolEditor } from "./protocol-editor";
import { authorName, ProtocolRevisionView } from "./protocol-revision-view";
import { TransferFormPrint } from "./transfer-form-print";

const views = ["", "compare", "new", "transfer"] as const;

function ProtocolHistory({
  client,
  history,
  onCompare,
}: {
  client: Client;
  history: readonly ProtocolRevision[];
  onCompare: (from: number, to: number) => void;
}) {
  const [picked, setPicked] = useState<number[]>([]);
  const toggle = (revision: number) =>
    setPicked((previous) =>
      previous.includes(revision) ? previous.filter((value) => value !== revision) : [...previous, revision].slice(-2),
    );
  const [first, second] = [...picked].sort((a, b) => a - b);
  return (
    <Box component="section" aria-labelledby="protocol-history">
      <Stack direction="row" sx={{ alignItems: "center", mb: 1, gap: 2, flexWrap: "wrap" }}>
        <Typography id="protocol-history" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          History
        </Typography>
        {history.length > 1 ? (
          <Button
            startIcon={<CompareArrows />}
            disabled={first === undefined || second === undefined}
            onClick={() => first !== undefined && second !== undefined && onCompare(first, second)}
          >
            Compare selected
          </Button>
        ) : null}
      </Stack>
      {history.length > 1 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Pick two revisions to see what changed between them.
        </Typography>
      ) : null}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Protocol revisions">
          <TableHead>
            <TableRow>
              {history.length > 1 ? <TableCell padding="checkbox">Pick</TableCell> : null}
              <TableCell sx={{ fontWeight: 600 }}>Revision</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Saved</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>By</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Change note</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.map((revision) => (
              <TableRow key={revision.id} selected={picked.includes(revision.revision)}>
                {history.length > 1 ? (
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={picked.includes(revision.revision)}
                      onChange={() => toggle(revision.revision)}
                      slotProps={{ input: { "aria-label": `Pick revision ${revision.revision} to compare` } }}
                    />
                  </TableCell>
                ) : null}
                <TableCell>{revision.revision}</TableCell>
                <TableCell>
                  <ZonedDateTime value={revision.createdAt} timeZone={client.timezone} />
                </TableCell>
                <TableCell>{authorName(revision.author)}</TableCell>
                <TableCell>{revision.changeNote}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}

/**
 * The protocol tab: the current revision and the history; sub-views in the URL (`?view=compare&from=1&to=2`,
 * `?view=new`, `?view=transfer`) so a comparison or the printable form can be linked to.
 */
export function ClientProtocol({ client }: { client: Client }) {
  const { can } = useAccess();
  const canWrite = can("clients:write") && !client.archivedAt;
  const protocol = useClientProtocol(client.id);
  const [search, setSearch] = useSearchState({ view: "", from: "", to: "" });
  const view = oneOf(search.view, views, "");
  const back = () => setSearch({ view: null, from: null, to: null });
  const backButton = (
    <Box className="vigil-no-print" sx={{ mb: 2 }}>
      <Button startIcon={<ArrowBack />} onClick={back}>
        Back to the protocol
      </Button>
    </Box>
  );

  if (protocol.isPending) return <LoadingScreen label="Loading the protocol…" />;
  if (protocol.isError)
    return <QueryError what="The protocol" error={protocol.error} onRetry={() => void protocol.refetch()} />;
  const { current, history } = protocol.data;

  if (view === "new" && canWrite) {
    return (
      <>
        {backButton}
        <ProtocolEditor client={client} current={current} onDone={back} />
      </>
    );
  }
  if (view === "transfer") {
    return (
      <>
        {backButton}
        <TransferFormPrint client={client} />
      </>
    );
  }
  if (view === "compare" && history.length > 1) {
    const newest = history[0]?.revision ?? 1;
    const previous = history[1]?.revision ?? newest;
    const from = wholeNumber(search.from, previous, { min: 1 });
    const to = wholeNumber(search.to, newest, { min: 1 });
    return (
      <>
        {backButton}
        <Typography variant="h6" component="h2" gutterBottom>
          Compare protocol revisions
        </Typography>
        <ProtocolCompare
          client={client}
          history={history}
          from={from}
          to={to}
          onChange={(selection) => setSearch(selection, { replace: true })}
        />
      </>
    );
  }

  return (
    <Stack spacing={3}>
      <Stack direction="row" className="vigil-no-print" sx={{ gap: 2, flexWrap: "wrap" }}>
        {canWrite ? (
          <Button variant="contained" startIcon={<Add />} onClick={() => setSearch({ view: "new" })}>
            New revision
          </Button>
        ) : null}
        {history.length > 1 ? (
          <Button variant="outlined" startIcon={<CompareArrows />} onClick={() => setSearch({ view: "compare" })}>
            Compare revisions
          </Button>
        ) : null}
        {current ? (
          <Button variant="outlined" startIcon={<Print />} onClick={() => setSearch({ view: "transfer" })}>
            Printable transfer form
          </Button>
        ) : null}
      </Stack>
      {current ? (
        <ProtocolRevisionView revision={current} client={client} />
      ) : (
        <Typography color="text.secondary">
          No protocol yet.{canWrite ? " Write the first revision with “New revision”." : ""}
        </Typography>
      )}
      {history.length > 0 ? (
        <ProtocolHistory
          client={client}
          history={history}
          onCompare={(from, to) => setSearch({ view: "compare", from, to })}
        />
      ) : null}
    </Stack>
  );
}
