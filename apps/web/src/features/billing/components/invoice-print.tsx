import ArrowBack from "@mui/icons-material/ArrowBack";
import PictureAsPdf from "@mui/icons-material/PictureAsPdf";
import Print from "@mui/icons-material/Print";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { type Invoice, idSchema, pages } from "@vigil/contract";
import { type ReactNode, useId, useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { saveFile } from "../../../lib/save-file";
import { fetchInvoicePdf, useInvoice } from "../api/invoices";
import { formatHours, formatMoney, formatMonth } from "../billing-format";
import { invoiceKindLabels, invoiceStatusLabels } from "../invoice-labels";
import { InvoiceAllocations } from "./invoice-allocations";
import { InvoiceApplyCredit } from "./invoice-apply-credit";
import { InvoiceSendings } from "./invoice-sendings";
import { InvoiceWriteOff } from "./invoice-write-off";
import { StatementPrintStyles, statementClasses } from "./statement-print-styles";

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Box sx={{ display: "contents" }}>
      <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
        {term}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** The PDF as issued (the bytes the hospital received), fetched with the user's token when asked. */
function PdfButton({ invoice }: { invoice: Invoice }) {
  const [state, setState] = useState<{ pending: boolean; failure: string | null }>({ pending: false, failure: null });
  const save = async () => {
    setState({ pending: true, failure: null });
    try {
      saveFile(`${invoice.number}.pdf`, await fetchInvoicePdf(invoice.id));
      setState({ pending: false, failure: null });
    } catch (error) {
      setState({ pending: false, failure: apiErrorOf(error)?.message ?? String(error) });
    }
  };
  return (
    <Stack spacing={1} sx={{ alignItems: "flex-end" }}>
      <Button
        variant="outlined"
        onClick={() => void save()}
        disabled={state.pending}
        startIcon={state.pending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : <PictureAsPdf />}
      >
        Download PDF
      </Button>
      {state.failure ? <Alert severity="error">The PDF was not downloaded: {state.failure}</Alert> : null}
    </Stack>
  );
}

function Toolbar({ invoice }: { invoice: Invoice | undefined }) {
  return (
    <Stack
      className="vigil-no-print"
      direction="row"
      sx={{ mb: 2, gap: 2, alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}
    >
      <Link
        component={RouterLink}
        to={pages["billing-invoices"].href()}
        sx={{ display: "inline-flex", alignItems: "center" }}
      >
        <ArrowBack fontSize="small" aria-hidden="true" sx={{ mr: 0.5 }} />
        Back to invoices
      </Link>
      <Stack direction="row" sx={{ gap: 2, alignItems: "flex-start", flexWrap: "wrap", justifyContent: "flex-end" }}>
        {invoice ? <PdfButton invoice={invoice} /> : null}
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print
        </Button>
      </Stack>
    </Stack>
  );
}

function LinesTable({ invoice }: { invoice: Invoice }) {
  const withPatients = invoice.lines.some((line) => line.patientName !== null);
  return (
    <ScrollRegion label="Invoice lines" className={statementClasses.tableScroll} sx={{ my: 2 }}>
      <Table size="small">
        <Box component="caption" sx={{ captionSide: "top", textAlign: "left", fontWeight: 600, p: 0, pb: 1 }}>
          Services in {formatMonth(invoice.month)}
        </Box>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Case</TableCell>
            {withPatients ? <TableCell sx={{ fontWeight: 600 }}>Patient</TableCell> : null}
            <TableCell sx={{ fontWeight: 600 }}>Service dates</TableCell>
            <TableCell sx={{ fontWeight: 600 }} align="right">
              Hours
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }} align="right">
              Rate
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }} align="right">
              Amount
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }}>CPT</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {invoice.lines.map((line) => (
            <TableRow key={line.caseId}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>{line.caseNumber}</TableCell>
              {withPatients ? <TableCell>{line.patientName}</TableCell> : null}
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                {line.serviceFrom === line.serviceTo ? line.serviceFrom : `${line.serviceFrom} – ${line.serviceTo}`}
              </TableCell>
              <TableCell align="right">{formatHours(line.hours)}</TableCell>
              <TableCell align="right">{formatMoney(line.hourlyRate, invoice.currency)}</TableCell>
              <TableCell align="right">{formatMoney(line.amount, invoice.currency)}</TableCell>
              <TableCell>{line.cptSummary}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function InvoiceDocument({ invoice }: { invoice: Invoice }) {
  const totalsId = useId();
  const title = `${invoiceKindLabels[invoice.kind]} ${invoice.number}`;
  return (
    <Box
      component="article"
      className={statementClasses.root}
      aria-label={title}
      sx={{ p: { xs: 2, sm: 4 }, border: "1px solid", borderColor: "divider", bgcolor: "background.paper" }}
    >
      <Typography variant="h6" component="p" sx={{ fontWeight: 700 }}>
        {invoice.issuer.name}
      </Typography>
      {invoice.issuer.details ? (
        <Typography variant="body2" color="text.secondary">
          {invoice.issuer.details}
        </Typography>
      ) : null}
      <Box sx={{ mt: 3 }}>
        <PageHeading>{title}</PageHeading>
      </Box>
      <Box
        component="dl"
        sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 3, rowGap: 0.5, my: 2 }}
      >
        <Detail term="Issue date">{invoice.issueDate}</Detail>
        {invoice.kind === "credit-note" ? null : (
          <>
            <Detail term="Due date">{invoice.dueDate}</Detail>
            <Detail term="Payment terms">Net {invoice.paymentTermsDays} days</Detail>
          </>
        )}
        <Detail term="Service month">{formatMonth(invoice.month)}</Detail>
        {invoice.billTo.poNumber ? <Detail term="PO number">{invoice.billTo.poNumber}</Detail> : null}
        {invoice.corrects ? (
          <Detail term="Corrects">
            <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: invoice.corrects.id })}>
              {invoice.corrects.number}
            </Link>
          </Detail>
        ) : null}
        {invoice.reason ? <Detail term="Reason">{invoice.reason}</Detail> : null}
        <Detail term="Status">{invoiceStatusLabels[invoice.status]}</Detail>
      </Box>
      <Stack direction="row" className="vigil-no-print" sx={{ gap: 2, mb: 2, alignItems: "center", flexWrap: "wrap" }}>
        <InvoiceApplyCredit invoice={invoice} />
        <InvoiceWriteOff invoice={invoice} />
      </Stack>
      <Typography variant="subtitle2" component="h2">
        Bill to
      </Typography>
      <Box component="address" sx={{ fontStyle: "normal", mb: 2 }}>
        <Typography sx={{ fontWeight: 600 }}>{invoice.billTo.name}</Typography>
        {invoice.billTo.address.map((line) => (
          <Typography key={line} variant="body2">
            {line}
          </Typography>
        ))}
      </Box>
      <LinesTable invoice={invoice} />
      <Box
        component="section"
        aria-labelledby={totalsId}
        className={statementClasses.totals}
        sx={{ borderTop: "2px solid", borderColor: "text.primary", pt: 1, mt: 1 }}
      >
        <Typography id={totalsId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
          Totals
        </Typography>
        <Box
          component="dl"
          sx={{ display: "grid", gridTemplateColumns: "max-content max-content", columnGap: 3, rowGap: 0.5, my: 1 }}
        >
          <Detail term="Subtotal">{formatMoney(invoice.subtotal, invoice.currency)}</Detail>
          {invoice.taxRatePercent ? (
            <Detail term={`Tax (${invoice.taxRatePercent} %)`}>{formatMoney(invoice.tax, invoice.currency)}</Detail>
          ) : null}
          <Detail term={invoice.kind === "credit-note" ? "Total credited" : "Total due"}>
            {formatMoney(invoice.total, invoice.currency)}
          </Detail>
          <Detail term="Currency">{invoice.currency}</Detail>
        </Box>
      </Box>
      <Typography variant="caption" color="text.secondary" component="p" className="vigil-no-print" sx={{ mt: 2 }}>
        PDF SHA-256: <span style={{ wordBreak: "break-all" }}>{invoice.pdfSha256}</span>
      </Typography>
      {invoice.kind === "credit-note" ? null : <InvoiceAllocations invoice={invoice} />}
      <InvoiceSendings invoiceId={invoice.id} />
    </Box>
  );
}

/**
 * `/billing/invoices/{invoiceId}` (base layout, no chrome): the invoice as issued, to print, with the PDF that was
 * kept when it was issued (the document the hospital received, byte for byte).
 */
export function BillingInvoicePage() {
  const { invoiceId = "" } = useParams();
  const valid = idSchema.safeParse(invoiceId).success;
  const invoice = useInvoice(invoiceId, { enabled: valid });
  let content: ReactNode;
  if (!valid || (invoice.isError && isNotFound(invoice.error))) {
    content = (
      <>
        <PageHeading>Invoice not found</PageHeading>
        <Typography>There is no invoice at this address; it may have been mistyped.</Typography>
      </>
    );
  } else if (invoice.isPending) content = <LoadingScreen label="Loading the invoice…" />;
  else if (invoice.isError) {
    content = <QueryError what="The invoice" error={invoice.error} onRetry={() => void invoice.refetch()} />;
  } else content = <InvoiceDocument invoice={invoice.data} />;
  return (
    <>
      <StatementPrintStyles />
      <Toolbar invoice={invoice.data} />
      {content}
    </>
  );
}
