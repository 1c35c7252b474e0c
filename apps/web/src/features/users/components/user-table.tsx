import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Typography from "@mui/material/Typography";
import type { User, UserPage, UserSort } from "@vigil/contract";
import type { ReactNode } from "react";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { TablePager } from "../../../components/tables/table-pager";
import { isFiltered, pageSizes, type UserListView } from "../use-user-list-view";
import { groupLabels, mfaLabel, statusLabels } from "../user-labels";
import { type UserAction, UserRowActions } from "./user-row-actions";

const columnCount = 8;

/**
 * The row's "⋮" stays at the right edge while the wide table scrolls under it: on a phone the column is far to the
 * right, a screen and a half away from the name it acts on.
 */
const actionsColumn = { position: "sticky", right: 0, zIndex: 1, bgcolor: "background.paper" } as const;

type UserTableProps = {
  view: UserListView;
  onChange: (change: Partial<UserListView>) => void;
  data: UserPage | undefined;
  isPending: boolean;
  isFetching: boolean;
  error: Error | null;
  onRetry: () => void;
  onAction: (user: User, action: UserAction) => void;
};

function SortableHeader({
  field,
  label,
  view,
  onChange,
}: {
  field: UserSort;
  label: string;
  view: UserListView;
  onChange: UserTableProps["onChange"];
}) {
  const active = view.sort === field;
  return (
    <TableCell sortDirection={active ? view.order : false}>
      <TableSortLabel
        active={active}
        direction={active ? view.order : "asc"}
        onClick={() => onChange({ sort: field, order: active && view.order === "asc" ? "desc" : "asc" })}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
}

/** One row spanning the table: the loading, empty and error states say so in words. */
function MessageRow({ children }: { children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={columnCount} sx={{ py: 4 }}>
        {children}
      </TableCell>
    </TableRow>
  );
}

/** The server-paged user table. */
export function UserTable({ view, onChange, data, isPending, isFetching, error, onRetry, onAction }: UserTableProps) {
  let body: ReactNode;
  if (isPending) {
    body = (
      <MessageRow>
        <Stack direction="row" spacing={2} sx={{ alignItems: "center", justifyContent: "center" }} role="status">
          <CircularProgress size={24} aria-hidden="true" />
          <Typography>Loading users…</Typography>
        </Stack>
      </MessageRow>
    );
  } else if (error && !data) {
    body = (
      <MessageRow>
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={onRetry}>
              Try again
            </Button>
          }
        >
          The users could not be loaded: {error.message}
        </Alert>
      </MessageRow>
    );
  } else if (!data || data.items.length === 0) {
    body = (
      <MessageRow>
        <Stack spacing={1} sx={{ alignItems: "center" }} role="status">
          <Typography>{isFiltered(view) ? "No users match these filters." : "There are no users yet."}</Typography>
          {isFiltered(view) ? (
            <Button onClick={() => onChange({ search: "", group: null, enabled: null })}>Clear filters</Button>
          ) : null}
        </Stack>
      </MessageRow>
    );
  } else {
    body = data.items.map((user) => (
      // A disabled user's row is muted, not greyed out to text.disabled (2.4:1, unreadable); its chip says Disabled.
      <TableRow key={user.sub} hover sx={user.isEnabled ? undefined : { "& td": { color: "text.secondary" } }}>
        <TableCell component="th" scope="row" sx={{ fontWeight: 600 }}>
          {user.username}
        </TableCell>
        <TableCell>{user.name}</TableCell>
        <TableCell>{user.email}</TableCell>
        <TableCell>
          {user.groups.length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              No groups
            </Typography>
          ) : (
            <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
              {user.groups.map((group) => (
                <Chip key={group} label={groupLabels[group].label} size="small" variant="outlined" />
              ))}
            </Box>
          )}
        </TableCell>
        <TableCell>
          <Chip
            label={user.isEnabled ? "Enabled" : "Disabled"}
            color={user.isEnabled ? "success" : "default"}
            size="small"
          />
        </TableCell>
        <TableCell>{statusLabels[user.status]}</TableCell>
        <TableCell>{mfaLabel(user.mfa)}</TableCell>
        <TableCell align="right" sx={actionsColumn}>
          <UserRowActions user={user} onAction={(action) => onAction(user, action)} />
        </TableCell>
      </TableRow>
    ));
  }

  return (
    <Paper variant="outlined">
      {/* Keeps its height, so the table does not jump when a refresh starts and ends. */}
      <Box sx={{ height: 4 }}>{isFetching && !isPending ? <LinearProgress aria-label="Refreshing users" /> : null}</Box>
      <ScrollRegion label="Users">
        <Table size="small" aria-label="Users">
          <TableHead>
            <TableRow>
              <SortableHeader field="username" label="Username" view={view} onChange={onChange} />
              <SortableHeader field="name" label="Name" view={view} onChange={onChange} />
              <SortableHeader field="email" label="Email" view={view} onChange={onChange} />
              <TableCell>Access groups</TableCell>
              <TableCell>Account</TableCell>
              <SortableHeader field="status" label="Password" view={view} onChange={onChange} />
              <TableCell>MFA</TableCell>
              <TableCell align="right" sx={actionsColumn}>
                Actions
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </ScrollRegion>
      <TablePager
        count={data?.total ?? 0}
        page={data && view.page * view.pageSize >= data.total && data.total > 0 ? 0 : view.page}
        rowsPerPage={view.pageSize}
        rowsPerPageOptions={[...pageSizes]}
        onPageChange={(_event, page) => onChange({ page })}
        onRowsPerPageChange={(event) => onChange({ pageSize: Number(event.target.value) })}
        labelRowsPerPage="Users per page"
      />
    </Paper>
  );
}
