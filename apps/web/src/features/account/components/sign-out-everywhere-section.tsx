import Button from "@mui/material/Button";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { accountErrorMessage, signOutEverywhere } from "../../../lib/auth-account";
import { AccountSection } from "./account-section";

/**
 * GlobalSignOut after a confirmation: every sign-in of the user ends, this one too. Amplify then announces the
 * sign-out, and the app's session events take the user to the sign-in screen.
 */
export function SignOutEverywhereSection() {
  const [asking, setAsking] = useState(false);
  const signOut = useMutation({ mutationFn: signOutEverywhere });
  return (
    <AccountSection
      title="Sessions"
      description="Lost a device, or signed in on a shared computer? End every sign-in of your account at once."
    >
      <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      <ConfirmDialog
        open={asking}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        destructive
        pending={signOut.isPending}
        error={signOut.error ? accountErrorMessage(signOut.error) : null}
        onClose={() => {
          setAsking(false);
          signOut.reset();
        }}
        onConfirm={() => signOut.mutate()}
      >
        Every browser and device signed in to your account, this one included, is signed out and must sign in again.
      </ConfirmDialog>
    </AccountSection>
  );
}
