import ArrowBack from "@mui/icons-material/ArrowBack";
import FileDownload from "@mui/icons-material/FileDownload";
import PictureAsPdf from "@mui/icons-material/PictureAsPdf";
import Print from "@mui/icons-material/Print";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { idSchema, pages, type StatementOfAccount, statementOfAccountQuerySchema } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { useSearchState } from "../../../components/tables/use-search-state";
import { saveFile } from "../../../lib/save-file";
import { fetchStatementOfAccountFile, type StatementOfAccountParams, useStatementOfAccount } from "../api/receivables";
import { formatMoney } from "../billing-format";
import { StatementPrintStyles, statementClasses } from "./statement-print-styles";

const entryLabels: Record<StatementOfAccount["entries"][number]["kind"], string> = {
  invoice: "Invoice",
  supplementary: "Supplementary invoice",
  "credit-note": "Credit note",
  payment: "Payment",
  "payment-reversal": "Payment reversed",
  allocation: "Applied",
  refund: "Refund",
  "write-off": "Write-off",
};

function FileButtons({ params }: { params: StatementOfAccountParams }) {
  const [failure, setFailure] = useState<string | null>(null);
  const save = async (kind: "pdf" | "csv") => {
    try {
      setFailure(null);
      saveFile(
        `statement-of-account-${params.from}-${params.to}.${kind}`,
        await fetchStatementOfAccountFile(params, kind),
      );
    } catch (error) {
      setFailure(String(error));
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<PictureAsPdf />} onClick={() => void save("pdf")}>
        Download PDF
      </Button>
      <Button variant="outlined" startIcon={<FileDownload />} onClick={() => void save("csv")}>
        Download CSV
      </Button>
      {failure ? <Alert severity="error">The file was not downloaded: {failure}</Alert> : null}
    </>
  );
}

function EntriesTable({ statement }: { statement: StatementOfAccount }) {
  const money = (value: string) => (value === "0.00" ? "" : formatMoney(value, statement.currency));
  return (
    <ScrollRegion label="Statement of account entries" className={statementClasses.tableScroll} sx={{ my: 2 }}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {["Date", "Entry", "Document", "Description", "Debit", "Credit", "Balance"].map((head, index) => (
              <TableCell key={head} sx={{ fontWeight: 600 }} align={index >= 4 ? "right" : "left"}>
                {head}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableRow>
            <TableCell>{statement.from}</TableCell>
            <TableCell colSpan={5}>Balance brought forward</TableCell>
            <TableCell align="right">{formatMoney(statement.openingBalance, statement.currency)}</TableCell>
          </TableRow>
          {statement.entries.map((entry, index) => (
            <TableRow key={`${entry.date}-${index}`}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{entry.date}</TableCell>
              <TableCell>{entryLabels[entry.kind]}</TableCell>
              <TableCell>{entry.document}</TableCell>
              <TableCell>{entry.description}</TableCell>
              <TableCell align="right">{money(entry.debit)}</TableCell>
              <TableCell align="right">{money(entry.credit)}</TableCell>
              <TableCell align="right">{formatMoney(entry.balance, statement.currency)}</TableCell>
            </TableRow>
          ))}
          <TableRow>
            <TableCell>{statement.to}</TableCell>
            <TableCell colSpan={5} sx={{ fontWeight: 600 }}>
              Balance
            </TableCell>
            <TableCell align="right" sx={{ fontWeight: 600 }}>
              {formatMoney(statement.closingBalance, statement.currency)}
            </TableCell>
          </TableRow>
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

/**
 * `/billing/receivables/{client}`: a client's statement of account over a period (this year unless chosen): the
 * balance brought forward, every invoice, credit note, payment, application, reversal, refund and write-off with
 * the running balance, printable, and as the server's PDF and CSV.
 */
export function BillingStatementOfAccountPage() {
  const { clientId = "" } = useParams();
  const today = new Date().toISOString().slice(0, 10);
  const [search, setSearch] = useSearchState({ from: `${today.slice(0, 4)}-01-01`, to: today });
  const params = { clientId, from: search.from, to: search.to };
  const valid = idSchema.safeParse(clientId).success && statementOfAccountQuerySchema.safeParse(search).success;
  const statement = useStatementOfAccount(params, { enabled: valid });
  return (
    <>
      <StatementPrintStyles />
      <Stack className="vigil-no-print" direction="row" sx={{ mb: 2, gap: 2, alignItems: "center", flexWrap: "wrap" }}>
        <Link
          component={RouterLink}
          to={pages["billing-receivables"].href()}
          sx={{ display: "inline-flex", alignItems: "center" }}
        >
          <ArrowBack fontSize="small" aria-hidden="true" sx={{ mr: 0.5 }} />
          Back to receivables
        </Link>
        {(["from", "to"] as const).map((key) => (
          <TextField
            key={key}
            label={key === "from" ? "From" : "To"}
            type="date"
            size="small"
            value={search[key]}
            onChange={(event) => setSearch({ [key]: event.target.value }, { replace: true })}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        ))}
        {valid ? <FileButtons params={params} /> : null}
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print
        </Button>
      </Stack>
      {!valid ? (
        <Alert severity="warning">Choose a period whose start is not after its end.</Alert>
      ) : statement.isPending ? (
        <LoadingScreen label="Loading the statement of account…" />
      ) : statement.isError ? (
        <QueryError what="The statement of account" error={statement.error} onRetry={() => void statement.refetch()} />
      ) : (
        <>
          <PageHeading>Statement of account: {statement.data.client.name}</PageHeading>
          <Typography color="text.secondary">
            {statement.data.from} – {statement.data.to}, {statement.data.currency}; dates in{" "}
            {statement.data.client.timezone}
          </Typography>
          <EntriesTable statement={statement.data} />
        </>
      )}
    </>
  );
}
