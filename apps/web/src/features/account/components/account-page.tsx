import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import { useQueryClient } from "@tanstack/react-query";
import type { User } from "@vigil/contract";
import { useCallback } from "react";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { PageHeading } from "../../../components/layouts/page-heading";
import { getAccountRules } from "../../../lib/auth";
import { accountErrorMessage } from "../../../lib/auth-account";
import { accountSecurityQueryKey, useAccountSecurity } from "../api/account-security";
import { AuthenticatorAppSection } from "./authenticator-app-section";
import { ChangePasswordSection } from "./change-password-section";
import { ClockAlertEmailSection } from "./clock-alert-email-section";
import { ContactSection } from "./contact-section";
import { MfaPreferenceSection } from "./mfa-preference-section";
import { ProfessionalSection } from "./professional-section";
import { SignOutEverywhereSection } from "./sign-out-everywhere-section";

export type AccountPageProps = {
  /** The signed-in user's username: the account name authenticator apps show. */
  username: string;
  /** After a change the identity service made: the app layer refreshes what it shows of the user (the menu). */
  onAccountChanged?: () => void;
  /** The user's own details (their professional identity); the section waits until they are read. */
  user?: User | undefined;
};

/**
 * `/account`: the signed-in user's own password, second factors, contact details and sessions, each changed
 * through the identity service with the user's access token (and audited there).
 */
export function AccountPage({ username, onAccountChanged, user }: AccountPageProps) {
  const queryClient = useQueryClient();
  const security = useAccountSecurity();
  const { passwordPolicy, mfa } = getAccountRules();
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: accountSecurityQueryKey });
    onAccountChanged?.();
  }, [queryClient, onAccountChanged]);

  return (
    <>
      <PageHeading>Account</PageHeading>
      {security.isPending ? (
        <LoadingScreen label="Loading your account…" />
      ) : security.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void security.refetch()}>
              Try again
            </Button>
          }
        >
          Your account details could not be loaded: {accountErrorMessage(security.error)}
        </Alert>
      ) : (
        <Stack spacing={3} sx={{ maxWidth: 760 }}>
          <ChangePasswordSection policy={passwordPolicy} />
          {mfa === "OFF" ? null : (
            <>
              <AuthenticatorAppSection
                security={security.data}
                accountName={username}
                mfaRequired={mfa === "ON"}
                onChanged={refresh}
              />
              <MfaPreferenceSection security={security.data} onChanged={refresh} />
            </>
          )}
          <ContactSection security={security.data} onChanged={refresh} />
          {user ? <ProfessionalSection user={user} /> : null}
          <ClockAlertEmailSection emailVerified={security.data.emailVerified} />
          <SignOutEverywhereSection />
        </Stack>
      )}
    </>
  );
}
