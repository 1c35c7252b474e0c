import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { type CaseStage, type CaseSummary, type Client, caseStages, segmentTitles } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { oneOf, useSearchState, wholeNumber } from "../../../components/tables/use-search-state";
import { useClientCases } from "../api/list-client-cases";
import { priorityLabels, studyTypeLabels } from "../client-labels";
import { caseUrl } from "../client-urls";

const stageChoices = ["", ...caseStages] as const;
const pageSizes = [25, 50, 100];

/** The cases tab: the client's cases, newest first, paged by the server; stage filter and page in the URL. */
export function ClientCases({ client }: { client: Client }) {
  const [search, setSearch] = useSearchState({ stage: "", page: "0", size: "25" });
  const stage = oneOf(search.stage, stageChoices, "");
  const pageSize = pageSizes.includes(Number(search.size)) ? Number(search.size) : 25;
  const page = wholeNumber(search.page, 0);
  const cases = useClientCases(client.id, {
    stage: stage === "" ? undefined : (stage as CaseStage),
    limit: pageSize,
    offset: page * pageSize,
  });

  const columns: ServerTableColumn<CaseSummary>[] = [
    {
      id: "caseNumber",
      header: "Case",
      cell: (row) => (
        <Link component={RouterLink} to={caseUrl(row.stage, row.id)}>
          {row.caseNumber}
        </Link>
      ),
    },
    {
      id: "studyType",
      header: "Study",
      cell: (row) => `${studyTypeLabels[row.studyType]}${row.hasVideo ? " with video" : ""}`,
    },
    {
      id: "priority",
      header: "Priority",
      cell: (row) =>
        row.priority === "stat" ? <Chip label="STAT" color="error" size="small" /> : priorityLabels[row.priority],
    },
    { id: "stage", header: "Stage", cell: (row) => segmentTitles[row.stage] ?? row.stage },
    {
      id: "createdAt",
      header: "Opened",
      cell: (row) => <ZonedDateTime value={row.createdAt} timeZone={client.timezone} />,
    },
  ];

  return (
    <Stack spacing={2}>
      <TextField
        select
        label="Stage"
        value={stage}
        onChange={(event) => setSearch({ stage: event.target.value, page: null }, { replace: true })}
        // "All stages" is the empty value; a native select shows it, so the label must sit above it.
        slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        sx={{ maxWidth: 240 }}
        size="small"
      >
        <option value="">All stages</option>
        {caseStages.map((value) => (
          <option key={value} value={value}>
            {segmentTitles[value] ?? value}
          </option>
        ))}
      </TextField>
      <ServerTable
        label={`Cases of ${client.name}`}
        columns={columns}
        rows={cases.data?.items}
        rowKey={(row) => row.id}
        total={cases.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        pageSizeOptions={pageSizes}
        onPageChange={(next) => setSearch({ page: next })}
        onPageSizeChange={(size) => setSearch({ size, page: null })}
        loading={cases.isPending}
        fetching={cases.isFetching}
        error={cases.error}
        onRetry={() => void cases.refetch()}
        errorMessage="The client's cases could not be loaded."
        emptyMessage={stage ? `No ${segmentTitles[stage]?.toLowerCase() ?? stage} cases.` : "No cases yet"}
      />
    </Stack>
  );
}
