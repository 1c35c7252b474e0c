import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { BillingOverview } from "@vigil/contract";
import { useId } from "react";
import { formatHours, formatMoney, formatMonth } from "../billing-format";

/** The totals under a clients × months table: over every row the filters match, not just the page shown. */
export function BillingTotals({ overview }: { overview: BillingOverview }) {
  const headingId = useId();
  const { totals } = overview;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ p: 2, mt: 2, display: "flex", flexWrap: "wrap", gap: { xs: 2, sm: 4 }, alignItems: "baseline" }}
    >
      <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        Totals, {formatMonth(overview.from)} to {formatMonth(overview.to)} ({overview.total}{" "}
        {overview.total === 1 ? "month" : "months"})
      </Typography>
      <Box component="dl" sx={{ display: "flex", flexWrap: "wrap", gap: { xs: 2, sm: 4 }, m: 0 }}>
        <div>
          <Typography component="dt" variant="body2" color="text.secondary">
            Hours
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {formatHours(totals.hours)}
          </Typography>
        </div>
        <div>
          <Typography component="dt" variant="body2" color="text.secondary">
            Amount
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {formatMoney(totals.amount, overview.currency)}
          </Typography>
        </div>
        <div>
          <Typography component="dt" variant="body2" color="text.secondary">
            Months without a rate
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
            {totals.monthsWithoutRate}
          </Typography>
        </div>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ flexBasis: "100%" }}>
        Totals are sums of the rounded lines. Months without a rate add hours but no amount.
      </Typography>
    </Paper>
  );
}
