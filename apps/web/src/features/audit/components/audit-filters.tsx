import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { auditOutcomeSchema } from "@vigil/contract";
import { useId } from "react";
import type { ClientOption } from "../../../api/list-client-ids";
import { isoToZonedInput, zonedInputToIso, zonedTimeHint } from "../../../components/dates/zoned-input";
import { clientOptions, optionsOf, SelectField } from "../../../components/forms/select-field";
import { useDebouncedText } from "../../../components/tables/use-debounced-text";
import { commonActions, outcomeLabels } from "../audit-labels";
import type { AuditFilterChange, AuditLogView } from "../use-audit-log-view";

type AuditFiltersProps = {
  view: AuditLogView;
  onChange: (change: AuditFilterChange, options?: { replace?: boolean }) => void;
  onClear: () => void;
  clients: readonly ClientOption[] | undefined;
  /** The browser's zone: the time fields are read in it. */
  timeZone: string;
};

/** The audit log's filters; their values live in the URL (see `useAuditLogView`). */
export function AuditFilters({ view, onChange, onClear, clients, timeZone }: AuditFiltersProps) {
  const actionListId = useId();
  const { values, problems } = view;
  const [user, setUser] = useDebouncedText(values.user, (value) => onChange({ user: value }, { replace: true }));
  const [action, setAction] = useDebouncedText(values.action, (value) =>
    onChange({ action: value }, { replace: true }),
  );
  const [caseId, setCaseId] = useDebouncedText(values.caseId, (value) =>
    onChange({ caseId: value }, { replace: true }),
  );
  // A client the picker does not list (archived since, or from a shared link) still shows as chosen.
  const unlistedClient = values.clientId && !clients?.some((client) => client.id === values.clientId);

  const setTime = (key: "from" | "to", text: string) => {
    if (text === "") onChange({ [key]: null });
    else {
      const iso = zonedInputToIso(text, timeZone);
      if (iso) onChange({ [key]: iso });
    }
  };

  return (
    <Stack
      direction="row"
      role="search"
      aria-label="Filter the audit log"
      sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
    >
      <TextField
        label="User"
        type="search"
        size="small"
        placeholder="Username"
        value={user}
        onChange={(event) => setUser(event.target.value)}
        sx={{ minWidth: 160 }}
      />
      <TextField
        label="Action"
        type="search"
        size="small"
        placeholder="e.g. user.disable"
        value={action}
        onChange={(event) => setAction(event.target.value)}
        helperText="The exact action name"
        slotProps={{ htmlInput: { list: actionListId, spellCheck: false } }}
        sx={{ minWidth: 220 }}
      />
      <datalist id={actionListId}>
        {commonActions.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <TextField
        label="Case id"
        type="search"
        size="small"
        value={caseId}
        onChange={(event) => setCaseId(event.target.value)}
        error={Boolean(problems.caseId)}
        helperText={problems.caseId ?? "A case, its records and their reads"}
        slotProps={{ htmlInput: { spellCheck: false } }}
        sx={{ minWidth: 300 }}
      />
      <SelectField
        label="Client"
        size="small"
        value={values.clientId}
        onChange={(clientId) => onChange({ clientId })}
        error={Boolean(problems.clientId)}
        helperText={problems.clientId ?? "The client and its cases"}
        sx={{ minWidth: 220 }}
        emptyLabel="All clients"
        options={clientOptions(clients)}
      >
        {unlistedClient ? <option value={values.clientId}>Client {values.clientId}</option> : null}
      </SelectField>
      <SelectField
        label="Outcome"
        size="small"
        value={view.outcome ?? ""}
        onChange={(outcome) => onChange({ outcome })}
        sx={{ minWidth: 140 }}
        emptyLabel="Any outcome"
        options={optionsOf(auditOutcomeSchema.options, outcomeLabels)}
      />
      <TextField
        label="From"
        type="datetime-local"
        size="small"
        value={isoToZonedInput(values.from, timeZone)}
        onChange={(event) => setTime("from", event.target.value)}
        error={Boolean(problems.from)}
        helperText={
          problems.from ??
          zonedTimeHint(isoToZonedInput(values.from, timeZone), timeZone, { where: "Included; your time zone" })
        }
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        label="To"
        type="datetime-local"
        size="small"
        value={isoToZonedInput(values.to, timeZone)}
        onChange={(event) => setTime("to", event.target.value)}
        error={Boolean(problems.to)}
        helperText={
          problems.to ??
          zonedTimeHint(isoToZonedInput(values.to, timeZone), timeZone, { where: "Not included; your time zone" })
        }
        slotProps={{ inputLabel: { shrink: true } }}
      />
      {view.filtered ? (
        <Button onClick={onClear} sx={{ mt: 0.25 }}>
          Clear filters
        </Button>
      ) : null}
    </Stack>
  );
}
