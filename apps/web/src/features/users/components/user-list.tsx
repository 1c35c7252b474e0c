import PersonAdd from "@mui/icons-material/PersonAdd";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";
import Stack from "@mui/material/Stack";
import type { User } from "@vigil/contract";
import { useState } from "react";
import { useUsers } from "../api/list-users";
import { queryOf, useUserListView } from "../use-user-list-view";
import { AccessGroupsDialog } from "./access-groups-dialog";
import { ContactDialog } from "./contact-dialog";
import { CreateUserDialog } from "./create-user-dialog";
import { ProfessionalDialog } from "./professional-dialog";
import { ResetMfaDialog, ResetPasswordDialog, SmsMfaDialog, ToggleUserDialog } from "./user-action-dialogs";
import { UserFilters } from "./user-filters";
import type { UserAction } from "./user-row-actions";
import { UserTable } from "./user-table";

type OpenDialog = { action: UserAction; user: User } | null;

/** The administrators' user list: filters in the URL, a server-paged table, and every change behind a dialog. */
export function UserList() {
  const [view, setView] = useUserListView();
  const users = useUsers(queryOf(view));
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const [done, setDone] = useState<string | null>(null);

  const close = () => setDialog(null);
  const finish = (message: string) => {
    setDialog(null);
    setDone(message);
  };

  return (
    <>
      <Stack direction="row" sx={{ justifyContent: "flex-end", mb: 2 }}>
        <Button variant="contained" startIcon={<PersonAdd />} onClick={() => setCreating(true)}>
          New user
        </Button>
      </Stack>
      <UserFilters view={view} onChange={setView} />
      <UserTable
        view={view}
        onChange={setView}
        data={users.data}
        isPending={users.isPending}
        isFetching={users.isFetching}
        error={users.error}
        onRetry={() => void users.refetch()}
        onAction={(user, action) => setDialog({ user, action })}
      />

      <CreateUserDialog open={creating} onClose={() => setCreating(false)} />
      {dialog?.action === "groups" ? (
        <AccessGroupsDialog
          user={dialog.user}
          onClose={close}
          onSaved={(user) => finish(`Access groups of ${user.username} were saved.`)}
        />
      ) : null}
      {dialog?.action === "contact" ? (
        <ContactDialog
          user={dialog.user}
          onClose={close}
          onSaved={(user) => finish(`Contact details of ${user.username} were saved.`)}
        />
      ) : null}
      {dialog?.action === "professional" ? (
        <ProfessionalDialog
          user={dialog.user}
          onClose={close}
          onSaved={(user) => finish(`Professional details of ${user.username} were saved.`)}
        />
      ) : null}
      {dialog?.action === "toggle" ? <ToggleUserDialog user={dialog.user} onClose={close} onDone={finish} /> : null}
      {dialog?.action === "reset-password" ? (
        <ResetPasswordDialog user={dialog.user} onClose={close} onDone={finish} />
      ) : null}
      {dialog?.action === "sms-mfa" ? <SmsMfaDialog user={dialog.user} onClose={close} onDone={finish} /> : null}
      {dialog?.action === "reset-mfa" ? <ResetMfaDialog user={dialog.user} onClose={close} onDone={finish} /> : null}

      <Snackbar
        open={done !== null}
        autoHideDuration={6000}
        onClose={() => setDone(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert severity="success" variant="filled" onClose={() => setDone(null)} sx={{ width: "100%" }}>
          {done}
        </Alert>
      </Snackbar>
    </>
  );
}
