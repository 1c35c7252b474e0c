import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import { type CaseStage, type CaseSummary, type Client, caseStages, pages, segmentTitles } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { optionsOf, SelectField } from "../../../components/forms/select-field";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { oneOf } from "../../../components/tables/use-search-state";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { useClientCases } from "../api/list-client-cases";
import { priorityLabels, studyTypeLabels } from "../client-labels";

const stageChoices = ["", ...caseStages] as const;

/** The cases tab: the client's cases, newest first, paged by the server; stage filter and page in the URL. */
export function ClientCases({ client }: { client: Client }) {
  const table = useTableSearch({ stage: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const stage = oneOf(search.stage, stageChoices, "");
  const cases = useClientCases(client.id, {
    stage: stage === "" ? undefined : (stage as CaseStage),
    ...table.range,
  });

  const columns: ServerTableColumn<CaseSummary>[] = [
    {
      id: "caseNumber",
      header: "Case",
      cell: (row) => (
        <Link
          component={RouterLink}
          to={pages[`case-${row.stage}-detail` as const].href({ caseId: row.id, tab: "overview" })}
        >
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
      <SelectField
        label="Stage"
        value={stage}
        onChange={(value) => setSearch({ stage: value, page: null }, { replace: true })}
        sx={{ maxWidth: 240 }}
        size="small"
        emptyLabel="All stages"
        options={optionsOf(caseStages, (value) => segmentTitles[value] ?? value)}
      />
      <ServerTable
        label={`Cases of ${client.name}`}
        columns={columns}
        rowKey={(row) => row.id}
        {...table.pager}
        {...tableQueryProps(cases)}
        errorMessage="The client's cases could not be loaded."
        emptyMessage={stage ? `No ${segmentTitles[stage]?.toLowerCase() ?? stage} cases.` : "No cases yet"}
      />
    </Stack>
  );
}
