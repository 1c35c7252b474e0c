import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { hl7DirectionSchema, hl7MessageStatusSchema } from "@vigil/contract";
import type { ClientOption } from "../../../api/list-client-ids";
import { isoToZonedInput, zonedInputToIso, zonedTimeHint } from "../../../components/dates/zoned-input";
import { clientOptions, optionsOf, SelectField } from "../../../components/forms/select-field";
import { useDebouncedText } from "../../../components/tables/use-debounced-text";
import { directionLabels, statusLabels } from "../message-log-labels";
import type { MessageLogFilterChange, MessageLogView } from "../message-log-view";

type MessageLogFiltersProps = {
  view: MessageLogView;
  onChange: (change: MessageLogFilterChange, options?: { replace?: boolean }) => void;
  onClear: () => void;
  clients: readonly ClientOption[] | undefined;
  /** The browser's zone: the time fields are read in it. */
  timeZone: string;
};

/** The message log's filters; their values live in the URL (see `useMessageLogView`). */
export function MessageLogFilters({ view, onChange, onClear, clients, timeZone }: MessageLogFiltersProps) {
  const { values, problems } = view;
  const [search, setSearch] = useDebouncedText(values.search, (value) =>
    onChange({ search: value }, { replace: true }),
  );
  const [messageType, setMessageType] = useDebouncedText(values.messageType, (value) =>
    onChange({ messageType: value }, { replace: true }),
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
      aria-label="Filter the message log"
      sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
    >
      <TextField
        label="Control id, MRN or order number"
        type="search"
        size="small"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        error={Boolean(problems.search)}
        helperText={problems.search ?? "Exactly as in the message"}
        slotProps={{ htmlInput: { spellCheck: false } }}
        sx={{ minWidth: 260 }}
      />
      <SelectField
        label="Direction"
        size="small"
        value={view.direction ?? ""}
        onChange={(direction) => onChange({ direction })}
        sx={{ minWidth: 200 }}
        emptyLabel="In and out"
        options={optionsOf(hl7DirectionSchema.options, directionLabels)}
      />
      <SelectField
        label="Status"
        size="small"
        value={view.status ?? ""}
        onChange={(status) => onChange({ status })}
        sx={{ minWidth: 180 }}
        emptyLabel="Any status"
        options={optionsOf(hl7MessageStatusSchema.options, (status) => statusLabels[status].label)}
      />
      <SelectField
        label="Client"
        size="small"
        value={values.clientId}
        onChange={(clientId) => onChange({ clientId })}
        error={Boolean(problems.clientId)}
        helperText={problems.clientId}
        sx={{ minWidth: 220 }}
        emptyLabel="All clients"
        options={clientOptions(clients)}
      >
        {unlistedClient ? <option value={values.clientId}>Client {values.clientId}</option> : null}
      </SelectField>
      <TextField
        label="Message type"
        type="search"
        size="small"
        placeholder="ORM^O01 or ORM"
        value={messageType}
        onChange={(event) => setMessageType(event.target.value)}
        error={Boolean(problems.messageType)}
        helperText={problems.messageType ?? "A type, or its code alone"}
        slotProps={{ htmlInput: { spellCheck: false } }}
        sx={{ minWidth: 180 }}
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
