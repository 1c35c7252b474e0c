import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { IssuedStatement, StatementDifferenceLine, StatementDifferences } from "@vigil/contract";
import { useId } from "react";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { formatHours, formatMoney, formatMoneyDifference, formatRate } from "../billing-format";

const changeWords: Record<StatementDifferenceLine["change"], string> = {
  added: "Added since issue",
  removed: "No longer billable",
  changed: "Changed",
};

function signedHours(value: string): string {
  return value.startsWith("-") || /^0+\.00$/.test(value) ? formatHours(value) : `+${formatHours(value)}`;
}

/** What the differences come to, in words: to bill, to credit, or nothing. */
function outcome(changes: StatementDifferences, currency: string): string {
  if (changes.amount === null) return "No rate applies to this month now, so the difference has no amount.";
  if (changes.amount.startsWith("-")) {
    return `To credit on a credit note: ${formatMoney(changes.amount.slice(1), currency)}.`;
  }
  if (/^0+\.00$/.test(changes.amount)) return "Nothing to bill or credit: the amounts are the same.";
  return `To bill on a supplementary invoice: ${formatMoney(changes.amount, currency)}.`;
}

/**
 * Screen only, under an issued statement: what changed in the month since it was billed (a re-opened case's new
 * time, a deleted log, a rate changed with a reason; corrections already issued are counted as billed), line by
 * line, and the amount a supplementary invoice or credit note would carry. The issued statement stays as sent.
 */
export function StatementChanges({ issued, changes }: { issued: IssuedStatement; changes: StatementDifferences }) {
  const headingId = useId();
  const { currency } = issued;
  const unchanged = changes.lines.length === 0 && changes.rateChangedTo === null;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      className="vigil-no-print"
      sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}
    >
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Changes since statement No. {issued.number}
      </Typography>
      {unchanged ? (
        <Typography>Nothing has changed since the statement was issued.</Typography>
      ) : (
        <>
          {changes.rateChangedTo ? (
            <Typography sx={{ mb: 1 }}>
              The rate is now {formatRate(changes.rateChangedTo.hourlyRate, currency)}; the statement was issued at{" "}
              {formatRate(issued.rate.hourlyRate, currency)}.
            </Typography>
          ) : null}
          {changes.lines.length > 0 ? (
            <ScrollRegion label={`Changes since statement No. ${issued.number}`}>
              <Table size="small">
                <Box component="caption" sx={{ captionSide: "top", textAlign: "left", fontWeight: 600, p: 0, pb: 1 }}>
                  Cases whose figures differ from statement No. {issued.number}
                </Box>
                <TableHead>
                  <TableRow>
                    <TableCell>Case</TableCell>
                    <TableCell>Patient</TableCell>
                    <TableCell>Change</TableCell>
                    <TableCell align="right">Hours issued</TableCell>
                    <TableCell align="right">Hours now</TableCell>
                    <TableCell align="right">Amount issued</TableCell>
                    <TableCell align="right">Amount now</TableCell>
                    <TableCell align="right">Difference</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {changes.lines.map((line) => (
                    <TableRow key={line.caseId}>
                      <TableCell sx={{ whiteSpace: "nowrap" }}>{line.caseNumber}</TableCell>
                      <TableCell>{line.patientName}</TableCell>
                      <TableCell>{changeWords[line.change]}</TableCell>
                      <TableCell align="right">
                        {line.issuedHours === null ? "—" : formatHours(line.issuedHours)}
                      </TableCell>
                      <TableCell align="right">
                        {line.currentHours === null ? "—" : formatHours(line.currentHours)}
                      </TableCell>
                      <TableCell align="right">{formatMoney(line.issuedAmount, currency)}</TableCell>
                      <TableCell align="right">{formatMoney(line.currentAmount, currency)}</TableCell>
                      <TableCell align="right">{formatMoneyDifference(line.amount, currency)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </ScrollRegion>
          ) : null}
          <Box component="dl" sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 3, my: 2 }}>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              Hours
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {signedHours(changes.hours)}
            </Typography>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600 }}>
              Amount
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {formatMoneyDifference(changes.amount, currency)}
            </Typography>
          </Box>
          <Typography sx={{ fontWeight: 600 }}>{outcome(changes, currency)}</Typography>
        </>
      )}
    </Paper>
  );
}
