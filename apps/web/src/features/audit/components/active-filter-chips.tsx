import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import type { ClientOption } from "../../../api/list-client-ids";
import { outcomeLabels } from "../audit-labels";
import { formatAuditTime } from "../audit-time";
import type { AuditFilterChange, AuditFilterKey, AuditLogView } from "../use-audit-log-view";

type Active = { key: AuditFilterKey; label: string };

function activeFilters(view: AuditLogView, clients: readonly ClientOption[] | undefined, timeZone: string): Active[] {
  const { query } = view;
  const active: Active[] = [];
  if (query.user) active.push({ key: "user", label: `User: ${query.user}` });
  if (query.action) active.push({ key: "action", label: `Action: ${query.action}` });
  if (query.caseId) active.push({ key: "caseId", label: `Case ${query.caseId}` });
  if (query.clientId) {
    const client = clients?.find((option) => option.id === query.clientId);
    active.push({
      key: "clientId",
      label: client ? `Client: ${client.name} (${client.code})` : `Client ${query.clientId}`,
    });
  }
  if (query.outcome) active.push({ key: "outcome", label: `Outcome: ${outcomeLabels[query.outcome]}` });
  if (query.from) active.push({ key: "from", label: `From ${formatAuditTime(query.from, timeZone)}` });
  if (query.to) active.push({ key: "to", label: `Before ${formatAuditTime(query.to, timeZone)}` });
  return active;
}

/**
 * The filters in force, as removable chips: a link from elsewhere (the case screen's "Audit trail") arrives with
 * a filter the user did not set, and must see it and be able to drop it. Delete or Backspace removes a focused chip.
 */
export function ActiveFilterChips({
  view,
  clients,
  timeZone,
  onChange,
}: {
  view: AuditLogView;
  clients: readonly ClientOption[] | undefined;
  timeZone: string;
  onChange: (change: AuditFilterChange) => void;
}) {
  const active = activeFilters(view, clients, timeZone);
  if (active.length === 0) return null;
  return (
    <Box
      component="ul"
      aria-label="Active filters"
      sx={{ listStyle: "none", p: 0, m: 0, mb: 2, display: "flex", flexWrap: "wrap", gap: 1 }}
    >
      {active.map(({ key, label }) => (
        <li key={key}>
          <Chip
            label={label}
            color="primary"
            variant="outlined"
            onDelete={() => onChange({ [key]: null })}
            aria-keyshortcuts="Delete Backspace"
          />
        </li>
      ))}
    </Box>
  );
}
