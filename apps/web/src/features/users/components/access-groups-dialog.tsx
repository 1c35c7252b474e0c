import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormLabel from "@mui/material/FormLabel";
import { type AccessGroup, accessGroups, type User, userSchema } from "@vigil/contract";
import { useId, useState } from "react";
import { useUnsavedChanges } from "../../../lib/unsaved-changes";
import { useSetUserAccessGroups } from "../api/set-user-access-groups";
import { errorBodyOf } from "../server-errors";
import { groupLabels } from "../user-labels";

const sameGroups = (left: readonly AccessGroup[], right: readonly AccessGroup[]) =>
  left.length === right.length && left.every((group) => right.includes(group));

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
  const [groups, setGroups] = useState<AccessGroup[]>(initialUser.groups);
  const [notice, setNotice] = useState<string | null>(null);
  const save = useSetUserAccessGroups();
  const dirty = !sameGroups(groups, user.groups);
  useUnsavedChanges(dirty);
  const failure = errorBodyOf(save.error);

  const submit = () => {
    setNotice(null);
    save.mutate(
      { user, groups: accessGroups.filter((group) => groups.includes(group)) },
      {
        onSuccess: onSaved,
        onError: (error) => {
          const current = userSchema.safeParse((errorBodyOf(error)?.details as { current?: unknown })?.current);
          if (errorBodyOf(error)?.status === 412 && current.success) {
            setUser(current.data);
            setGroups(current.data.groups);
            setNotice("These are the groups as they are now. Make your change again and save.");
          }
        },
      },
    );
  };

  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Access groups of {user.username}</DialogTitle>
      <DialogContent>
        <FormControl component="fieldset">
          <FormLabel component="legend">
            {user.name} may do what any of these groups allows. Changes apply to their next request.
          </FormLabel>
          <FormGroup>
            {accessGroups.map((group) => (
              <FormControlLabel
                key={group}
                control={
                  <Checkbox
                    checked={groups.includes(group)}
                    onChange={(event) =>
                      setGroups((current) =>
                        event.target.checked ? [...current, group] : current.filter((other) => other !== group),
                      )
                    }
                  />
                }
                label={`${groupLabels[group].label} — ${groupLabels[group].description}`}
              />
            ))}
          </FormGroup>
        </FormControl>
        {failure ? (
          <Alert severity={failure.status === 412 ? "warning" : "error"} sx={{ mt: 2 }}>
            {failure.message} {failure.status === 412 ? notice : null}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button
          variant="contained"
          onClick={submit}
          disabled={save.isPending || !dirty}
          startIcon={save.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
        >
          Save groups
        </Button>
      </DialogActions>
    </Dialog>
  );
}
