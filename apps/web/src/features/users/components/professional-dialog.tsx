import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import type { User } from "@vigil/contract";
import { useId } from "react";
import { Dialog } from "../../../components/feedback/dialog";
import { ProfessionalIdentityForm } from "../../../components/users/professional-identity-form";

/** An administrator sets a user's names in parts, NPI, credentials and board certifications. */
export function ProfessionalDialog({
  user,
  onClose,
  onSaved,
}: {
  user: User;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
  const titleId = useId();
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>Professional details of {user.username}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          Printed under the signature of every report {user.name} signs from now on, and sent to hospitals with their
          NPI. Reports already signed keep what they printed.
        </DialogContentText>
        <ProfessionalIdentityForm user={user} onSaved={onSaved} onCancel={onClose} />
      </DialogContent>
    </Dialog>
  );
}
