import type { SxProps, Theme } from "@mui/material/styles";
import { useClientIds } from "../../../api/list-client-ids";
import { ClientFilterField } from "../../../components/forms/filter-fields";

/**
 * A report's "Client" picker: every active client, and the client a link names even when the list does not have
 * it (still loading, or archived since), so a shared report's client stays chosen and says why it is not listed.
 * Without its own `error`/`helperText` it shows, in red, that the clients could not be loaded.
 */
export function ReportClientField({
  value,
  error,
  helperText,
  ...props
}: {
  value: string;
  onChange: (clientId: string) => void;
  /** The no-client choice: "All clients", "Choose a client". */
  emptyLabel: string;
  error?: boolean;
  helperText?: string;
  sx?: SxProps<Theme>;
}) {
  // The same read as the field's own (one query key), for what the list lacks and whether it failed.
  const clients = useClientIds();
  const listed = clients.data?.some((client) => client.id === value);
  return (
    <ClientFilterField
      value={value}
      helperText={helperText ?? (clients.isError ? "The clients could not be loaded" : undefined)}
      error={error ?? clients.isError}
      {...props}
    >
      {value && !listed ? (
        <option value={value}>{clients.isPending ? "Loading clients…" : "The client in the link (not active)"}</option>
      ) : null}
    </ClientFilterField>
  );
}
