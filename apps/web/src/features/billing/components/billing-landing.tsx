import ChevronRight from "@mui/icons-material/ChevronRight";
import Card from "@mui/material/Card";
import CardActionArea from "@mui/material/CardActionArea";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { PageHeading } from "../../../components/layouts/page-heading";

/** `/billing`: where billing work starts. One service line today; the page keeps room for more. */
export function BillingPage() {
  return (
    <>
      <PageHeading>Billing</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Monthly rates, amounts, printable statements and invoices per client.
      </Typography>
      <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
        <Card variant="outlined" component="section" sx={{ width: { xs: "100%", sm: 360 } }}>
          <CardActionArea component={RouterLink} to={pages["billing-overview"].href()}>
            <CardContent>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="h6" component="h2">
                  Continuous monitoring
                </Typography>
                <ChevronRight aria-hidden="true" />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                Billable hours per client and month, hourly rates (own or inherited), amounts and monthly statements.
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
        <Card variant="outlined" component="section" sx={{ width: { xs: "100%", sm: 360 } }}>
          <CardActionArea component={RouterLink} to={pages["billing-invoices"].href()}>
            <CardContent>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="h6" component="h2">
                  Invoices
                </Typography>
                <ChevronRight aria-hidden="true" />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                Every invoice issued with a month's statement: numbers, due dates, totals, the PDF as sent, and CSV.
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
        <Card variant="outlined" component="section" sx={{ width: { xs: "100%", sm: 360 } }}>
          <CardActionArea component={RouterLink} to={pages["billing-receivables"].href()}>
            <CardContent>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="h6" component="h2">
                  Receivables
                </Typography>
                <ChevronRight aria-hidden="true" />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                What each client owes as of a date, by days past due, with its credit and oldest overdue invoice.
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
        <Card variant="outlined" component="section" sx={{ width: { xs: "100%", sm: 360 } }}>
          <CardActionArea component={RouterLink} to={pages["billing-payments"].href()}>
            <CardContent>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="h6" component="h2">
                  Payments
                </Typography>
                <ChevronRight aria-hidden="true" />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                Record payments received, apply them to invoices, reverse a bounced one.
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
        <Card variant="outlined" component="section" sx={{ width: { xs: "100%", sm: 360 } }}>
          <CardActionArea component={RouterLink} to={pages["billing-exports"].href()}>
            <CardContent>
              <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between", gap: 1 }}>
                <Typography variant="h6" component="h2">
                  Exports for the accountant
                </Typography>
                <ChevronRight aria-hidden="true" />
              </Stack>
              <Typography variant="body2" color="text.secondary">
                A period's invoices, credit notes and payments for QuickBooks (IIF or CSV) or Xero, on your accounts.
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
      </Stack>
    </>
  );
}
