import Block from "@mui/icons-material/Block";
import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlined";
import ErrorOutlined from "@mui/icons-material/ErrorOutlined";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { AuditOutcome as Outcome } from "@vigil/contract";
import { outcomeLabels } from "../audit-labels";

const outcomeLooks = {
  success: { Icon: CheckCircleOutlined, color: "success.dark" },
  failure: { Icon: ErrorOutlined, color: "error.main" },
  denied: { Icon: Block, color: "warning.dark" },
} as const;

/** An event's outcome in words, with an icon and colour only as a second cue. */
export function AuditOutcome({ outcome }: { outcome: Outcome }) {
  const { Icon, color } = outcomeLooks[outcome];
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: "center", color }}>
      <Icon fontSize="small" aria-hidden="true" />
      <Typography variant="body2" component="span" sx={{ color: "text.primary" }}>
        {outcomeLabels[outcome]}
      </Typography>
    </Stack>
  );
}
