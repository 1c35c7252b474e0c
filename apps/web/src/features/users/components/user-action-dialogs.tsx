import type { User } from "@vigil/contract";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { useResetUserMfa } from "../api/reset-user-mfa";
import { useResetUserPassword } from "../api/reset-user-password";
import { useSetUserSmsMfa } from "../api/set-user-sms-mfa";
import { useToggleUser } from "../api/toggle-user";
import { currentUserOf, errorBodyOf } from "../server-errors";

type ActionDialogProps = { user: User; onClose: () => void; onDone: (message: string) => void };

/** Enable or disable, asked first. A stale version (412) brings the user's current state into the question. */
export function ToggleUserDialog({ user: initialUser, onClose, onDone }: ActionDialogProps) {
  const [user, setUser] = useState(initialUser);
  const toggle = useToggleUser();
  const failure = errorBodyOf(toggle.error);
  const disabling = user.isEnabled;
  return (
    <ConfirmDialog
      open
      title={disabling ? `Disable ${user.username}?` : `Enable ${user.username}?`}
      confirmLabel={disabling ? "Disable" : "Enable"}
      destructive={disabling}
      pending={toggle.isPending}
      error={failure?.message}
      onClose={onClose}
      onConfirm={() =>
        toggle.mutate(
          { user, isEnabled: !user.isEnabled },
          {
            onSuccess: (updated) =>
              onDone(updated.isEnabled ? `${updated.username} is enabled.` : `${updated.username} is disabled.`),
            onError: (error) => {
              const current = currentUserOf(error);
              if (current) setUser(current);
            },
          },
        )
      }
    >
      {disabling
        ? `${user.name} is signed out everywhere at once and cannot sign in until an administrator enables the account again.`
        : `${user.name} can sign in again with their password.`}
    </ConfirmDialog>
  );
}

/** Reset password, asked first; what happens depends on whether the user ever chose a password. */
export function ResetPasswordDialog({ user, onClose, onDone }: ActionDialogProps) {
  const reset = useResetUserPassword();
  const neverSignedIn = user.status === "FORCE_CHANGE_PASSWORD";
  return (
    <ConfirmDialog
      open
      title={`Reset the password of ${user.username}?`}
      confirmLabel="Reset password"
      destructive
      pending={reset.isPending}
      error={errorBodyOf(reset.error)?.message}
      onClose={onClose}
      onConfirm={() =>
        reset.mutate(
          { user },
          {
            onSuccess: ({ user: updated, delivery }) =>
              onDone(
                delivery
                  ? `A new temporary password was emailed to ${delivery.destination}.`
                  : `${updated.username} must reset their password at next sign-in.`,
              ),
          },
        )
      }
    >
      {neverSignedIn
        ? `${user.name} has not chosen a password yet. A new temporary password is emailed to them, valid for 7 days; the old one stops working.`
        : `${user.name} is signed out everywhere. At their next sign-in they must reset their password with a code sent to their email.`}
    </ConfirmDialog>
  );
}

/** SMS codes at sign-in on or off, asked first (AUTH.md: SMS MFA is set by an administrator). */
export function SmsMfaDialog({ user, onClose, onDone }: ActionDialogProps) {
  const change = useSetUserSmsMfa();
  const turningOn = !user.mfa.sms;
  return (
    <ConfirmDialog
      open
      title={turningOn ? `Turn on SMS codes for ${user.username}?` : `Turn off SMS codes for ${user.username}?`}
      confirmLabel={turningOn ? "Turn on" : "Turn off"}
      destructive={!turningOn}
      pending={change.isPending}
      error={errorBodyOf(change.error)?.message}
      onClose={onClose}
      onConfirm={() =>
        change.mutate(
          { user, enabled: turningOn },
          {
            onSuccess: (updated) =>
              onDone(
                updated.mfa.sms
                  ? `${updated.username} now gets a code by SMS at sign-in.`
                  : `SMS codes are off for ${updated.username}.`,
              ),
          },
        )
      }
    >
      {turningOn
        ? `At each sign-in ${user.name} will also type a 6-digit code texted to ${user.phoneNumber ?? "their phone"}.`
        : `${user.name} will no longer be asked for a texted code at sign-in.`}
    </ConfirmDialog>
  );
}

/** Reset MFA, asked first. */
export function ResetMfaDialog({ user, onClose, onDone }: ActionDialogProps) {
  const reset = useResetUserMfa();
  return (
    <ConfirmDialog
      open
      title={`Reset MFA of ${user.username}?`}
      confirmLabel="Reset MFA"
      destructive
      pending={reset.isPending}
      error={errorBodyOf(reset.error)?.message}
      onClose={onClose}
      onConfirm={() =>
        reset.mutate({ user }, { onSuccess: (updated) => onDone(`MFA of ${updated.username} was reset.`) })
      }
    >
      {`${user.name}'s authenticator app and SMS codes are removed. They sign in with their password alone until they set up MFA again.`}
    </ConfirmDialog>
  );
}
