import "@aws-amplify/ui-react/styles.css";
import { Alert, Authenticator, Button, Divider, Flex, ThemeProvider, useAuthenticator } from "@aws-amplify/ui-react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { signIn } from "aws-amplify/auth";
import { I18n } from "aws-amplify/utils";
import { useEffect, useSyncExternalStore } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { AuthenticatorKey } from "../../components/forms/authenticator-key";
import { requestArrivalFocus } from "../../components/layouts/arrival-focus";
import { authenticatorTheme } from "../../config/authenticator-theme";
import { appName } from "../../config/constants";
import {
  dismissRedirectFailure,
  dismissSessionEnd,
  getFederatedSignInOptions,
  getRedirectFailure,
  getSessionEnd,
  getTotpIssuer,
  subscribeToRedirectFailure,
  subscribeToSessionEnd,
} from "../../lib/auth";
import { signInWithPassword, signInWithProvider } from "../../lib/auth-sign-in";
import { authQueryOptions, safeRedirect } from "../session";

// Vigil's identity service implements USER_PASSWORD_AUTH, not SRP (AUTH.md); every other step stays Amplify's.
// The Authenticator only calls the one-argument form of `signIn`, so the narrower function stands in for both.
const services = { handleSignIn: signInWithPassword as typeof signIn };

/** Said to a user an administrator signed out (account disabled, password reset); nothing more than that. */
export const sessionEndedByAdministratorMessage =
  "Your session ended: an administrator changed your account. Sign in again or ask them.";

/** Said on the other devices of a user who signed out everywhere, or changed their password, somewhere else. */
export const signedOutEverywhereMessage =
  "You were signed out because your account was signed out everywhere, or its password was changed, on another device or browser. Sign in again to go on.";

/**
 * Above the sign-in form: why the session just ended when the user could not know (an administrator changed the
 * account), why the last sign-in through the provider failed (the hosted UI's own words, e.g. "No Vigil account
 * uses this Google address. Ask an administrator."), and a button for a provider the Authenticator has none for
 * (it draws "Sign In with Google" itself, from `socialProviders`).
 */
function SignInHeader() {
  const failure = useSyncExternalStore(subscribeToRedirectFailure, getRedirectFailure);
  const sessionEnd = useSyncExternalStore(subscribeToSessionEnd, getSessionEnd);
  const { customProvider, elsewhere } = getFederatedSignInOptions();
  if (!failure && !customProvider && !sessionEnd && !elsewhere) return null;
  return (
    <Flex direction="column" padding="var(--amplify-components-authenticator-form-padding)" paddingBottom="0">
      {sessionEnd && (
        <Alert variation="warning" heading="Signed out" isDismissible onDismiss={dismissSessionEnd}>
          {sessionEnd === "account-changed" ? sessionEndedByAdministratorMessage : signedOutEverywhereMessage}
        </Alert>
      )}
      {failure && (
        <Alert variation="error" heading="Sign-in failed" isDismissible onDismiss={dismissRedirectFailure}>
          {failure}
        </Alert>
      )}
      {elsewhere && (
        <Alert variation="info" heading={`Sign in with ${elsewhere.providerName}`}>
          Sign-in with {elsewhere.providerName} works only at Vigil's main address, not at this one.{" "}
          <a href={elsewhere.signInUrl}>Open the sign-in page at {new URL(elsewhere.signInUrl).origin}</a> to use it, or
          sign in here with your username and password.
        </Alert>
      )}
      {customProvider && (
        <Flex direction="column">
          <Button className="federated-sign-in-button" onClick={() => void signInWithProvider(customProvider)}>
            Sign in with {customProvider}
          </Button>
          <Divider size="small" label={I18n.get("or")} />
        </Flex>
      )}
    </Flex>
  );
}

/**
 * The MFA-setup step's heading, then the key in groups of four with its own copy button (the Authenticator shows it
 * as one unbroken 32-character string, hidden below by `hideUngroupedKey`), then the Authenticator's QR code.
 */
function SetupTotpHeader() {
  const { totpSecretCode } = useAuthenticator((context) => [context.totpSecretCode]);
  return (
    <>
      <Authenticator.SetupTotp.Header />
      <Typography variant="body2">
        Scan the QR code below with your authenticator app, or type this key into it:
      </Typography>
      {totpSecretCode ? <AuthenticatorKey secret={totpSecretCode} /> : null}
    </>
  );
}

const hideUngroupedKey = { "& [data-amplify-authenticator-setup-totp] [data-amplify-copy]": { display: "none" } };

const components = { SignIn: { Header: SignInHeader }, SetupTotp: { Header: SetupTotpHeader } };

/** Once Amplify holds tokens: refresh who is signed in, then go where the user was heading. */
function SignedInRedirect({ to }: { to: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    void queryClient.fetchQuery({ ...authQueryOptions(), staleTime: 0 }).then(() => {
      if (!active) return;
      requestArrivalFocus();
      void navigate(to, { replace: true });
    });
    return () => {
      active = false;
    };
  }, [queryClient, navigate, to]);
  return <LoadingScreen label="Signing you in…" />;
}

/** `/signin`: the Amplify Authenticator (sign-up hidden: accounts are provisioned by administrators). */
export function SignInPage() {
  const [searchParams] = useSearchParams();
  const redirect = safeRedirect(searchParams.get("redirect"));
  return (
    <ThemeProvider theme={authenticatorTheme} colorMode="light">
      <Box sx={{ pt: { xs: 2, sm: 6 }, ...hideUngroupedKey }}>
        <Typography variant="h4" component="h1" align="center" color="primary" gutterBottom sx={{ fontWeight: 700 }}>
          {appName}
        </Typography>
        <Typography align="center" color="text.secondary" sx={{ mb: 3 }}>
          Continuous EEG monitoring back-office
        </Typography>
        <Authenticator
          hideSignUp
          services={services}
          socialProviders={getFederatedSignInOptions().socialProviders}
          components={components}
          formFields={{ setupTotp: { QR: { totpIssuer: getTotpIssuer() } } }}
        >
          {() => <SignedInRedirect to={redirect} />}
        </Authenticator>
      </Box>
    </ThemeProvider>
  );
}
