import Add from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";

/**
 * A client's tab of records kept in a list (contacts, useful links): "Add …" leading to its own page for users who
 * may write, then the list in its loading, error and empty states, then the tab's dialogs (`children`).
 */
export function ClientListTab<T>({
  query,
  noun,
  add,
  list,
  children,
}: {
  query: UseQueryResult<T[]>;
  /** The records in the plural, as the states name them: "Loading contacts…", "No contacts yet.". */
  noun: string;
  /** The "Add …" button and where it leads, or null for users who may not write. */
  add: { label: string; to: string } | null;
  /** The list of at least one record. */
  list: (items: T[]) => ReactNode;
  children?: ReactNode;
}) {
  let content: ReactNode;
  if (query.isPending) content = <LoadingScreen label={`Loading ${noun}…`} />;
  else if (query.isError)
    content = <QueryError what={`The ${noun}`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0) content = <Typography color="text.secondary">{`No ${noun} yet.`}</Typography>;
  else content = list(query.data);

  return (
    <Stack spacing={2}>
      {add ? (
        <div>
          <Button component={RouterLink} to={add.to} variant="contained" startIcon={<Add />}>
            {add.label}
          </Button>
        </div>
      ) : null}
      {content}
      {children}
    </Stack>
  );
}

/** A listed record's Edit and Remove, each named with the record for screen readers ("Edit Dr. Chen"). */
export function EditRemoveButtons({
  name,
  onEdit,
  onRemove,
}: {
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  return (
    <Stack direction="row" spacing={1}>
      <Button size="small" onClick={onEdit} aria-label={`Edit ${name}`}>
        Edit
      </Button>
      <Button size="small" color="error" onClick={onRemove} aria-label={`Remove ${name}`}>
        Remove
      </Button>
    </Stack>
  );
}
