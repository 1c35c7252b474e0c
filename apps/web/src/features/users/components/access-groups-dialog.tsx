import Alert from "@mui/material/Alert";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { accessGroupsRequestSchema, type User } from "@vigil/contract";
import { useId, useState } from "react";
import { Dialog } from "../../../components/feedback/dialog";
import { DialogFormActions } from "../../../components/forms/form-actions";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { useSetUserAccessGroups } from "../api/set-user-access-groups";
import { currentUserOf, errorBodyOf } from "../server-errors";
import { AccessGroupCheckboxes, inGroupOrder } from "./access-group-checkboxes";

/**
 * Edits one user's access groups. The save carries the version the administrator saw; if someone changed the
 * user meanwhile (412), the dialog shows the current groups and asks them to make their change again.
 */
export function AccessGroupsDialog({
  user: initialUser,
  onClose,
  onSaved,
}: {
  user: User;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const titleId = useId();
  const [user, setUser] = useState(initialUser);
  const [notice, setNotice] = useState<string | null>(null);
  const save = useSetUserAccessGroups();
  // Dirty (and so an unsaved edit) while the ticked groups differ from the user's.
  const form = useContractForm({
    schema: accessGroupsRequestSchema,
    defaultValues: { groups: inGroupOrder(initialUser.groups) },
  });
  const dirty = form.formState.isDirty;
  const failure = errorBodyOf(save.error);

  const submit = form.handleSubmit(({ groups }) => {
    setNotice(null);
    save.mutate(
      { user, groups },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const current = currentUserOf(error);
          if (errorBodyOf(error)?.status === 412 && current) {
            setUser(current);
            form.reset({ groups: inGroupOrder(current.groups) });
            setNotice("These are the groups as they are now. Make your change again and save.");
          }
        },
      },
    );
  });

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Access groups of {user.username}</DialogTitle>
      <DialogContent>
        <AccessGroupCheckboxes
          control={form.control}
          legend={`${user.name} may do what any of these groups allows. Changes apply to their next request.`}
        />
        {failure ? (
          <Alert severity={failure.status === 412 ? "warning" : "error"} sx={{ mt: 2 }}>
            {failure.message} {failure.status === 412 ? notice : null}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogFormActions
        submitLabel="Save groups"
        pending={save.isPending}
        disabled={!dirty}
        onCancel={onClose}
        onSubmit={() => void submit()}
      />
    </Dialog>
  );
}
