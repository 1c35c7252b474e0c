import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useId } from "react";
import { useAccess } from "../../../components/access/access-context";
import { useNow } from "../../../components/clocks/use-now";
import { QueryError } from "../../../components/feedback/query-error";
import { useCriticalFindings } from "../api/list-critical-findings";
import { FindingCard } from "./finding-card";
import { RaiseFindingButton } from "./raise-finding-button";
import type { FindingCase } from "./raise-finding-dialog";

/**
 * "Critical findings" at the top of the case overview (PRODUCT.md §11): every finding of the case, newest first,
 * with its times, window and recipients, kept current by the case events; raising one is one click away.
 */
export function CriticalFindingsPanel({ target }: { target: FindingCase }) {
  const headingId = useId();
  const { can } = useAccess();
  const readable = can("cases:read");
  const findings = useCriticalFindings(target.caseId, { enabled: readable });
  const now = useNow(15_000);
  if (!readable) return null;
  const items = findings.data?.items ?? [];
  return (
    <Paper component="section" variant="outlined" aria-labelledby={headingId} sx={{ px: { xs: 2, sm: 3 }, py: 2 }}>
      <Stack direction="row" sx={{ gap: 2, alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}>
        <Typography variant="h6" component="h2" id={headingId}>
          Critical findings
        </Typography>
        <RaiseFindingButton target={target} />
      </Stack>
      {findings.isPending ? (
        <Typography color="text.secondary" sx={{ py: 1 }} role="status">
          Loading the critical findings…
        </Typography>
      ) : findings.isError ? (
        <QueryError what="The critical findings" error={findings.error} onRetry={() => void findings.refetch()} />
      ) : items.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          No critical findings on this case.
        </Typography>
      ) : (
        <Stack spacing={2} sx={{ mt: 1 }}>
          {items.map((finding) => (
            <FindingCard key={finding.id} finding={finding} timeZone={target.timeZone} now={now} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
