import ArrowBack from "@mui/icons-material/ArrowBack";
import Print from "@mui/icons-material/Print";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import {
  type AppliedRate,
  type BillingStatement,
  type CptSuggestion,
  formatInstantInZone,
  type IssuedStatement,
  type IssuedStatementLine,
  idSchema,
  monthSchema,
  pages,
} from "@vigil/contract";
import { type ReactNode, useId, useState } from "react";
import { Link as RouterLink, useParams } from "react-router";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { appName } from "../../../config/constants";
import { useBillingStatement } from "../api/get-billing-statement";
import { formatHours, formatMoney, formatMonth, formatPeriod, formatRate } from "../billing-format";
import { IssueAdjustmentAction } from "./issue-adjustment-action";
import { type IssueOutcome, IssueStatementAction } from "./issue-statement-action";
import { StatementChanges } from "./statement-changes";
import { StatementPrintStyles, statementClasses } from "./statement-print-styles";

/** Screen-only: back to the client's months, and print (the browser's dialog also saves as PDF). */
function StatementToolbar({ backTo, children }: { backTo: string; children?: ReactNode }) {
  return (
    <Stack
      className="vigil-no-print"
      direction="row"
      sx={{ mb: 2, gap: 2, alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}
    >
      <Link component={RouterLink} to={backTo} sx={{ display: "inline-flex", alignItems: "center" }}>
        <ArrowBack fontSize="small" aria-hidden="true" sx={{ mr: 0.5 }} />
        Back to billing
      </Link>
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", flexWrap: "wrap", justifyContent: "flex-end" }}>
        {children}
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print / Save as PDF
        </Button>
      </Stack>
    </Stack>
  );
}

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

/** What the document prints: the issued statement once there is one, else the live figures. */
type PrintedStatement = {
  client: BillingStatement["client"];
  month: string;
  periodStart: string;
  periodEnd: string;
  currency: string;
  rate: AppliedRate | null;
  lines: (Omit<IssuedStatementLine, "amount"> & { amount: string | null; running?: boolean })[];
  totals: BillingStatement["totals"];
  roundingNote: string;
  issued: IssuedStatement | null;
};

function printedOf(statement: BillingStatement): PrintedStatement {
  const { issued } = statement;
  if (issued) return { ...issued, lines: issued.lines, issued };
  return { ...statement, lines: statement.cases, issued: null };
}

function rateText(rate: AppliedRate | null, currency: string): string {
  if (!rate) return "No rate";
  return rate.inherited
    ? `${formatRate(rate.hourlyRate, currency)} (inherited from ${formatMonth(rate.fromMonth)})`
    : `${formatRate(rate.hourlyRate, currency)} (this month's own rate)`;
}

/** CPT suggestions compactly: "95720 × 3" per line, then the warnings the billing note must acknowledge. */
function CptCell({ caseNumber, cpt }: { caseNumber: string; cpt: CptSuggestion }) {
  return (
    <>
      {cpt.lines.length === 0 ? (
        <span>None</span>
      ) : (
        <Box component="ul" sx={{ listStyle: "none", p: 0, m: 0 }}>
          {cpt.lines.map((line) => (
            <li key={`${line.code}-${line.component}`} title={`${line.description}. ${line.basis}`}>
              {line.code} × {line.units}{" "}
              <Typography component="span" variant="caption" color="text.secondary">
                ({line.component})
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {cpt.warnings.length > 0 ? (
        <Box component="ul" sx={{ pl: 2, my: 0.5 }} aria-label={`CPT warnings for ${caseNumber}`}>
          {cpt.warnings.map((warning) => (
            <Typography component="li" variant="caption" key={warning.id} sx={{ display: "list-item" }}>
              Warning: {warning.message}
            </Typography>
          ))}
        </Box>
      ) : null}
    </>
  );
}

function CasesTable({ printed }: { printed: PrintedStatement }) {
  const month = formatMonth(printed.month);
  return (
    <ScrollRegion label={`Cases billed in ${month}`} className={statementClasses.tableScroll} sx={{ my: 2 }}>
      <Table size="small">
        <Box component="caption" sx={{ captionSide: "top", textAlign: "left", fontWeight: 600, p: 0, pb: 1 }}>
          Cases billed in {month}
        </Box>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 600 }}>Case</TableCell>
            <TableCell sx={{ fontWeight: 600 }}>Patient</TableCell>
            <TableCell sx={{ fontWeight: 600 }} align="right">
              Hours
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }} align="right">
              Amount ({printed.currency})
            </TableCell>
            <TableCell sx={{ fontWeight: 600 }}>CPT suggestions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {printed.lines.length === 0 ? (
            <TableRow>
              <TableCell colSpan={5}>No billable time in this month.</TableCell>
            </TableRow>
          ) : (
            printed.lines.map((item) => (
              <TableRow key={item.caseId}>
                {/* A case number is looked up as one word: never wrapped at its hyphens, on screen or paper. */}
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {item.caseNumber}
                  {item.running ? (
                    <Typography component="div" variant="caption">
                      Running: hours still grow
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>{item.patientName}</TableCell>
                <TableCell align="right">{formatHours(item.hours)}</TableCell>
                <TableCell align="right">{formatMoney(item.amount, printed.currency)}</TableCell>
                <TableCell>
                  <CptCell caseNumber={item.caseNumber} cpt={item.cpt} />
                </TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </ScrollRegion>
  );
}

function Totals({ printed }: { printed: PrintedStatement }) {
  const headingId = useId();
  const { totals } = printed;
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      className={statementClasses.totals}
      sx={{ borderTop: "2px solid", borderColor: "text.primary", pt: 1, mt: 1 }}
    >
      <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Totals
      </Typography>
      <Box
        component="dl"
        sx={{ display: "grid", gridTemplateColumns: "max-content max-content", columnGap: 3, rowGap: 0.5, my: 1 }}
      >
        <Detail term="Cases">{totals.caseCount}</Detail>
        <Detail term="Hours">{formatHours(totals.hours)}</Detail>
        <Detail term="Amount">
          {totals.amount === null ? "— (no rate)" : formatMoney(totals.amount, printed.currency)}
        </Detail>
        <Detail term="Currency">{printed.currency}</Detail>
      </Box>
      <Typography variant="body2">{printed.roundingNote}</Typography>
    </Box>
  );
}

function StatementDocument({ statement }: { statement: BillingStatement }) {
  const printed = printedOf(statement);
  const { client, issued } = printed;
  const month = formatMonth(printed.month);
  return (
    <Box
      component="article"
      className={statementClasses.root}
      aria-label={`Monthly statement: ${client.name}, ${month}`}
      sx={{
        p: { xs: 2, sm: 4 },
        border: "1px solid",
        borderColor: "divider",
        bgcolor: "background.paper",
      }}
    >
      <Typography variant="overline" component="p" sx={{ fontWeight: 700, letterSpacing: 2 }}>
        {appName}
      </Typography>
      <PageHeading>Monthly statement: {month}</PageHeading>
      <Typography variant="h6" component="p" gutterBottom>
        {client.name}
      </Typography>
      <Box
        component="dl"
        sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 3, rowGap: 0.5, my: 2 }}
      >
        <Detail term="Statement">{issued ? `No. ${issued.number}` : "Not issued yet"}</Detail>
        {issued?.invoice ? (
          <Detail term="Invoice">
            <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: issued.invoice.id })}>
              {issued.invoice.number}
            </Link>
          </Detail>
        ) : null}
        <Detail term="Period">{formatPeriod(printed.periodStart, printed.periodEnd, client.timezone)}</Detail>
        <Detail term="Hourly rate">{rateText(printed.rate, printed.currency)}</Detail>
        <Detail term="Status">
          {issued ? "Invoiced" : "Not invoiced"}
          {!issued && statement.provisional ? " · Provisional: a time log is still running" : ""}
        </Detail>
        {issued ? (
          <Detail term="Issued">
            <time dateTime={issued.issuedAt}>{formatInstantInZone(issued.issuedAt, client.timezone)}</time> by{" "}
            {issued.issuedBy.name || issued.issuedBy.username}
          </Detail>
        ) : (
          <Detail term="Generated">
            <time dateTime={statement.generatedAt}>{formatInstantInZone(statement.generatedAt, client.timezone)}</time>
          </Detail>
        )}
      </Box>
      {issued ? null : (
        <Alert severity="info" sx={{ mb: 2 }}>
          <AlertTitle>Not issued</AlertTitle>
          These figures are computed from the time logs now and may still change until the statement is issued.
        </Alert>
      )}
      {!issued && statement.provisional ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          <AlertTitle>Provisional</AlertTitle>A time log is still running, so this month's hours and amounts still grow.
          Print again once it has stopped.
        </Alert>
      ) : null}
      {!issued && statement.rateMissing ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>No rate</AlertTitle>
          No hourly rate is set for this month or any earlier month, so no amounts are calculated. Set one on the
          client's billing page.
        </Alert>
      ) : null}
      <CasesTable printed={printed} />
      <Totals printed={printed} />
    </Box>
  );
}

function Unavailable({ children }: { children: ReactNode }) {
  return (
    <>
      <Stack className="vigil-no-print" sx={{ mb: 2 }}>
        <Link component={RouterLink} to={pages["billing-overview"].href()}>
          Back to billing
        </Link>
      </Stack>
      <PageHeading>Statement not found</PageHeading>
      <Typography>{children}</Typography>
    </>
  );
}

/** The supplementary invoices and credit notes that carried earlier differences of the month (screen only). */
function Corrections({ statement }: { statement: BillingStatement }) {
  if (statement.adjustments.length === 0) return null;
  return (
    <Box component="section" className="vigil-no-print" aria-label="Corrections issued" sx={{ mt: 2 }}>
      <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Corrections issued
      </Typography>
      <Box component="ul" sx={{ pl: 2, my: 0.5 }}>
        {statement.adjustments.map((adjustment) => (
          <Typography component="li" variant="body2" key={adjustment.id}>
            {adjustment.kind === "credit-note" ? "Credit note" : "Supplementary invoice"}{" "}
            <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: adjustment.id })}>
              {adjustment.number}
            </Link>
            : {formatMoney(adjustment.total, statement.currency)} — {adjustment.reason}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}

/** What became of the last "Issue statement", told above the document until the page is left. */
function IssueOutcomeAlert({ outcome, onClose }: { outcome: IssueOutcome; onClose: () => void }) {
  if ("issued" in outcome) {
    return (
      <Alert severity="success" role="status" className="vigil-no-print" sx={{ mb: 2 }} onClose={onClose}>
        Statement No. {outcome.issued.number} was issued for {formatMonth(outcome.issued.month)}. It prints as issued
        from now on.
        {outcome.issued.invoice ? (
          <>
            {" "}
            Its invoice is{" "}
            <Link component={RouterLink} to={pages["billing-invoice"].href({ invoiceId: outcome.issued.invoice.id })}>
              {outcome.issued.invoice.number}
            </Link>
            .
          </>
        ) : null}
      </Alert>
    );
  }
  return (
    <Alert severity="warning" className="vigil-no-print" sx={{ mb: 2 }} onClose={onClose}>
      <AlertTitle>The statement was not issued</AlertTitle>
      {outcome.refused} The statement below has been read again.
    </Alert>
  );
}

/**
 * `/billing/continuous-monitoring/{clientId}/{month}` (base layout, no chrome): the monthly statement as a
 * document to print or save as PDF. Until it is issued, the live figures (every case with hours, amount and CPT
 * suggestions, the totals and how they were rounded; flagged when provisional or without a rate) with "Issue
 * statement"; once issued, the statement as issued, and on screen only, what changed since.
 */
export function BillingStatementPage() {
  const { clientId = "", month = "" } = useParams();
  const valid = idSchema.safeParse(clientId).success && monthSchema.safeParse(month).success;
  const statement = useBillingStatement(clientId, month, { enabled: valid });
  const [outcome, setOutcome] = useState<IssueOutcome | null>(null);

  let content: ReactNode;
  if (!valid) {
    return (
      <Unavailable>This address does not name a client and a month (YYYY-MM); it may have been mistyped.</Unavailable>
    );
  }
  if (statement.isPending) content = <LoadingScreen label="Loading the statement…" />;
  else if (statement.isError) {
    if (isNotFound(statement.error)) return <Unavailable>There is no client with this id.</Unavailable>;
    content = <QueryError what="The statement" error={statement.error} onRetry={() => void statement.refetch()} />;
  } else {
    const { issued, changesSinceIssue } = statement.data;
    content = (
      <>
        <StatementDocument statement={statement.data} />
        {issued && changesSinceIssue ? <StatementChanges issued={issued} changes={changesSinceIssue} /> : null}
        <Corrections statement={statement.data} />
        <IssueAdjustmentAction statement={statement.data} />
      </>
    );
  }

  return (
    <>
      <StatementPrintStyles />
      <StatementToolbar backTo={pages["billing-client"].href({ clientId })}>
        {statement.data ? <IssueStatementAction statement={statement.data} onOutcome={setOutcome} /> : null}
      </StatementToolbar>
      {outcome ? <IssueOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      {content}
    </>
  );
}
