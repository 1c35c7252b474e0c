import CheckCircle from "@mui/icons-material/CheckCircle";
import ErrorOutlined from "@mui/icons-material/ErrorOutlined";
import WarningAmber from "@mui/icons-material/WarningAmber";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { type BillingCheck, type Case, cptWarningLabels } from "@vigil/contract";
import { useId } from "react";
import { useAccess } from "../../../../components/access/access-context";
import { QueryError } from "../../../../components/feedback/query-error";
import { ApiRequestError } from "../../../../lib/api-client";
import { useBillingCheck } from "../../api/get-billing-check";
import { formatMonth, rateWords } from "./billing-check-labels";

const componentWords = { technical: "Technical", professional: "Professional" } as const;

export function isForbidden(error: unknown): boolean {
  return error instanceof ApiRequestError && error.body.status === 403;
}

function PassMark({ passed, label }: { passed: boolean; label?: string }) {
  return (
    <Stack direction="row" component="span" sx={{ alignItems: "center", gap: 0.5, flexShrink: 0 }}>
      {passed ? (
        <CheckCircle fontSize="small" color="success" aria-hidden="true" />
      ) : (
        <ErrorOutlined fontSize="small" color="error" aria-hidden="true" />
      )}
      <Typography component="span" sx={{ fontWeight: 600, color: passed ? "success.dark" : "error.main" }}>
        {label ?? (passed ? "Passed" : "Failed")}
      </Typography>
    </Stack>
  );
}

function Heading({ id, children }: { id?: string; children: string }) {
  return (
    <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 600, mt: 1 }}>
      {children}
    </Typography>
  );
}

function CheckBody({ check }: { check: BillingCheck }) {
  const failing = check.checks.filter((item) => !item.passed).length;
  const acknowledged = new Set(check.acknowledgedWarnings);
  return (
    <Stack spacing={1.5}>
      <Alert severity={check.passed ? "success" : "error"}>
        <AlertTitle>{check.passed ? "Passed" : "Not passed"}</AlertTitle>
        {check.passed
          ? "Nothing in billing stands in the way of closing this case."
          : `${failing} of ${check.checks.length} checks fail; the case cannot be closed until they pass.`}
      </Alert>
      <Box component="ul" aria-label="Checks" sx={{ listStyle: "none", p: 0, m: 0 }}>
        {check.checks.map((item) => (
          <Stack component="li" key={item.id} direction="row" sx={{ gap: 1.5, py: 0.5, alignItems: "baseline" }}>
            <PassMark passed={item.passed} />
            <Box>
              <Typography component="span">{item.label}</Typography>
              {item.message ? (
                <Typography variant="body2" color={item.passed ? "text.secondary" : "error.main"}>
                  {item.message}
                </Typography>
              ) : null}
            </Box>
          </Stack>
        ))}
      </Box>

      <Heading>Months billed</Heading>
      {check.months.length === 0 ? (
        <Typography color="text.secondary">No billable time on this case.</Typography>
      ) : (
        <Table size="small" aria-label="Months billed" sx={{ maxWidth: 640 }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Month</TableCell>
              <TableCell sx={{ fontWeight: 600 }} align="right">
                Hours
              </TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Rate</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {check.months.map((month) => (
              <TableRow key={month.month}>
                <TableCell>{formatMonth(month.month)}</TableCell>
                <TableCell align="right">{month.hours}</TableCell>
                <TableCell>
                  {month.rate ? (
                    rateWords(month.rate)
                  ) : (
                    <Stack direction="row" component="span" sx={{ alignItems: "center", gap: 0.5 }}>
                      <WarningAmber fontSize="small" color="warning" aria-hidden="true" />
                      <Typography component="span" sx={{ fontWeight: 600 }}>
                        No rate
                      </Typography>
                      <Typography component="span" variant="body2" color="text.secondary">
                        — set one in billing before closing
                      </Typography>
                    </Stack>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}

      <Heading>CPT suggestion</Heading>
      <Typography variant="body2" color="text.secondary">
        Recording time {check.cpt.recordingHours} hours, {check.cpt.videoPercent}% with video.
      </Typography>
      {check.cpt.lines.length === 0 ? (
        <Typography color="text.secondary">No CPT codes apply.</Typography>
      ) : (
        <Table size="small" aria-label="Suggested CPT codes">
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Code × units</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Component</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Description</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Basis</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {check.cpt.lines.map((line, index) => (
              <TableRow key={`${line.code}-${line.component}-${index}`}>
                <TableCell sx={{ whiteSpace: "nowrap" }}>
                  {line.code} × {line.units}
                </TableCell>
                <TableCell>{componentWords[line.component]}</TableCell>
                <TableCell>{line.description}</TableCell>
                <TableCell>{line.basis}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {check.cpt.warnings.length > 0 ? (
        <Box component="ul" aria-label="CPT warnings" sx={{ listStyle: "none", p: 0, m: 0 }}>
          {check.cpt.warnings.map((warning) => (
            <Stack component="li" key={warning.id} direction="row" sx={{ gap: 1, py: 0.5, alignItems: "flex-start" }}>
              <WarningAmber fontSize="small" color="warning" aria-hidden="true" sx={{ mt: 0.25 }} />
              <Box>
                <Typography component="span" sx={{ fontWeight: 600 }}>
                  {cptWarningLabels[warning.id]}
                </Typography>
                <Typography variant="body2">{warning.message}</Typography>
                <Typography variant="body2" color={acknowledged.has(warning.id) ? "success.dark" : "warning.dark"}>
                  {acknowledged.has(warning.id)
                    ? "Acknowledged in a billing note"
                    : "Not acknowledged yet: a billing note must acknowledge it before the case closes"}
                </Typography>
              </Box>
            </Stack>
          ))}
        </Box>
      ) : (
        <Typography variant="body2" color="text.secondary">
          No CPT warnings.
        </Typography>
      )}
    </Stack>
  );
}

/**
 * The billing check above the billing notes (reviewed and closed cases): whether closing may go ahead and why
 * not, in words beside each mark; the months the case's billable time falls in, with their rates ("No rate"
 * flagged); and the suggested CPT codes with their warnings. Users whose groups cannot read it see no panel.
 */
export function BillingCheckPanel({ caseItem }: { caseItem: Case }) {
  const { can } = useAccess();
  const allowed = can("records:billing-notes");
  const check = useBillingCheck(caseItem.id, { enabled: allowed });
  const headingId = useId();
  if (!allowed || (check.isError && isForbidden(check.error))) return null;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2 }}>
      <Typography id={headingId} variant="h6" component="h2" gutterBottom>
        Billing check
      </Typography>
      {check.isPending ? (
        <Typography role="status" color="text.secondary">
          Loading the billing check…
        </Typography>
      ) : check.isError ? (
        <QueryError what="The billing check" error={check.error} onRetry={() => void check.refetch()} />
      ) : (
        <CheckBody check={check.data} />
      )}
    </Paper>
  );
}
