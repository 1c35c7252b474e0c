import FileDownload from "@mui/icons-material/FileDownload";
import Search from "@mui/icons-material/Search";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Disclosure, disclosureExportQuerySchema, disclosureKindLabels, pages } from "@vigil/contract";
import { type FormEvent, useEffect, useMemo, useState } from "react";
import { Link as RouterLink } from "react-router";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { ClientFilterField } from "../../../components/forms/filter-fields";
import { PageHeading } from "../../../components/layouts/page-heading";
import { queryProblems, sentence, serverQueryProblems } from "../../../components/tables/query-problems";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { saveFile } from "../../../lib/save-file";
import { type DisclosureFilter, exportDisclosures, useDisclosures } from "../api/list-disclosures";
import { browserTimeZone, formatAuditTime } from "../audit-time";

const defaults = { mrn: "", clientId: "", from: "", to: "", page: "0", size: "25" };

/** The URL's filter as the API takes it, or null while there is no MRN (the accounting is always one patient's). */
function filterOf(search: typeof defaults): DisclosureFilter | null {
  const mrn = search.mrn.trim();
  if (!mrn) return null;
  return {
    mrn,
    ...(search.clientId ? { clientId: search.clientId } : {}),
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
  };
}

function authorName(author: { name: string | null; username: string } | null): string {
  return author ? author.name || author.username : "—";
}

/** The server's own CSV of every row of the filter, saved under the patient's MRN and the day. */
function CsvDownload({ filter }: { filter: DisclosureFilter }) {
  const [state, setState] = useState<{ pending: boolean; failure: string | null }>({ pending: false, failure: null });
  const download = async () => {
    setState({ pending: true, failure: null });
    try {
      const csv = await exportDisclosures(filter);
      const safeMrn = filter.mrn.replace(/[^A-Za-z0-9_-]+/g, "-");
      saveFile(`disclosures-${safeMrn}-${new Date().toISOString().slice(0, 10)}.csv`, csv);
      setState({ pending: false, failure: null });
    } catch (error) {
      setState({ pending: false, failure: apiErrorOf(error)?.message ?? String(error) });
    }
  };
  return (
    <Stack spacing={1} sx={{ alignItems: "flex-end" }}>
      <Button
        variant="outlined"
        onClick={() => void download()}
        disabled={state.pending}
        startIcon={state.pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <FileDownload />}
      >
        Download CSV
      </Button>
      {state.failure ? <Alert severity="error">The CSV was not downloaded: {state.failure}</Alert> : null}
    </Stack>
  );
}

/**
 * `/audit/disclosures` (audit:read): one patient's accounting of disclosures — every time one of their reports was
 * e-mailed as a link, downloaded with one, or fetched by staff as PDF or FHIR — newest first, paged by the server,
 * with the server's CSV of the whole filter. The filter lives in the URL, so an accounting can be linked to.
 */
export function DisclosuresPage() {
  const timeZone = useMemo(() => browserTimeZone(), []);
  const { search, setSearch, range, pager } = useTableSearch(defaults);
  const [mrn, setMrn] = useState(search.mrn);
  // Back and Forward change the URL's MRN: the field follows.
  useEffect(() => setMrn(search.mrn), [search.mrn]);
  const filter = filterOf(search);
  // A range the API would refuse is not asked for: its message is shown beside the field instead.
  const problems = filter ? queryProblems(disclosureExportQuerySchema, filter) : {};
  const valid = filter !== null && Object.keys(problems).length === 0;
  const disclosures = useDisclosures(valid ? { ...filter, ...range } : null);
  const serverProblems = serverQueryProblems(disclosures.error);
  const problemOf = (key: string) => {
    const message = problems[key] ?? serverProblems[key];
    return message ? sentence(message) : undefined;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch({ mrn: mrn.trim(), page: null });
  };

  const columns: ServerTableColumn<Disclosure>[] = [
    {
      id: "at",
      header: "Time",
      cell: (row) => (
        <time dateTime={row.at} style={{ whiteSpace: "nowrap" }}>
          {formatAuditTime(row.at, timeZone)}
        </time>
      ),
    },
    { id: "kind", header: "Disclosure", cell: (row) => disclosureKindLabels[row.kind] },
    {
      id: "report",
      header: "Report",
      cell: (row) =>
        row.reportTitle ? `${row.reportTitle}${row.reportVersion ? `, version ${row.reportVersion}` : ""}` : "—",
    },
    {
      id: "case",
      header: "Case",
      cell: (row) => (
        <>
          {row.caseNumber}
          <Typography variant="body2" color="text.secondary">
            {row.clientName}
          </Typography>
        </>
      ),
    },
    { id: "recipient", header: "To", cell: (row) => row.recipient },
    { id: "by", header: "By", cell: (row) => (row.by ? authorName(row.by) : "Vigil") },
    { id: "ip", header: "IP", cell: (row) => row.ip ?? "—" },
  ];

  const patient = disclosures.data?.items[0]?.patient;
  return (
    <>
      <PageHeading>Accounting of disclosures</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 1 }}>
        Every time a patient's EEG report left Vigil: e-mailed to a client's contact as a one-time link, downloaded with
        that link, or fetched by staff as PDF or FHIR. Newest first; times in your browser's time zone, {timeZone}.
      </Typography>
      <Typography sx={{ mb: 2 }}>
        <Link component={RouterLink} to={pages.audit.href()}>
          Audit log
        </Link>
      </Typography>
      <Stack
        component="form"
        role="search"
        aria-label="Find a patient's disclosures"
        onSubmit={submit}
        noValidate
        direction="row"
        sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
      >
        <TextField
          label="Patient MRN"
          size="small"
          required
          value={mrn}
          onChange={(event) => setMrn(event.target.value)}
          error={Boolean(problemOf("mrn"))}
          helperText={problemOf("mrn") ?? "Exactly as the client records it"}
          slotProps={{ htmlInput: { spellCheck: false, maxLength: 100 } }}
          sx={{ minWidth: 220 }}
        />
        <Box sx={{ minWidth: 220 }}>
          <ClientFilterField value={search.clientId} onChange={(clientId) => setSearch({ clientId, page: null })} />
        </Box>
        {(["from", "to"] as const).map((key) => (
          <TextField
            key={key}
            label={key === "from" ? "From" : "To"}
            type="date"
            size="small"
            value={search[key]}
            onChange={(event) => setSearch({ [key]: event.target.value, page: null }, { replace: true })}
            error={Boolean(problemOf(key))}
            helperText={problemOf(key) ?? "Day included (UTC)"}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
        <Button type="submit" variant="contained" startIcon={<Search />}>
          Show disclosures
        </Button>
      </Stack>
      {filter === null ? (
        <Typography color="text.secondary">Enter a patient's MRN to list every disclosure of their reports.</Typography>
      ) : (
        <>
          <Stack direction="row" sx={{ mb: 2, gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
            <Typography sx={{ flexGrow: 1 }} role="status">
              {patient ? `${patient.name}, MRN ${patient.mrn}` : `MRN ${filter.mrn}`}
              {disclosures.data
                ? ` — ${disclosures.data.total} disclosure${disclosures.data.total === 1 ? "" : "s"}`
                : ""}
            </Typography>
            {valid ? <CsvDownload filter={filter} /> : null}
          </Stack>
          {valid ? (
            <ServerTable
              label="Disclosures"
              columns={columns}
              rowKey={(row) => row.id}
              {...pager}
              {...tableQueryProps(disclosures)}
              errorMessage={`The disclosures could not be loaded${
                apiErrorOf(disclosures.error) ? `: ${apiErrorOf(disclosures.error)?.message}` : "."
              }`}
              emptyMessage="No report of this patient has left Vigil in this period."
            />
          ) : null}
        </>
      )}
    </>
  );
}
