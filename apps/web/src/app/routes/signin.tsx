import "@aws-amplify/ui-react/styles.css";
import { Authenticator, ThemeProvider } from "@aws-amplify/ui-react";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import type { signIn } from "aws-amplify/auth";
import { useEffect } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { LoadingScreen } from "../../components/feedback/loading-screen";
import { authenticatorTheme } from "../../config/authenticator-theme";
import { appName } from "../../config/constants";
import { signInWithPassword } from "../../lib/auth";
import { authQueryOptions, safeRedirect } from "../session";

// Vigil's identity service implements USER_PASSWORD_AUTH, not SRP (AUTH.md); every other step stays Amplify's.
// The Authenticator only calls the one-argument form of `signIn`, so the narrower function stands in for both.
const services = { handleSignIn: signInWithPassword as typeof signIn };

/** Once Amplify holds tokens: refresh who is signed in, then go where the user was heading. */
function SignedInRedirect({ to }: { to: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    void queryClient.fetchQuery({ ...authQueryOptions(), staleTime: 0 }).then(() => {
      if (active) void navigate(to, { replace: true });
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
      <Box sx={{ pt: { xs: 2, sm: 6 } }}>
        <Typography variant="h4" component="h1" align="center" color="primary" gutterBottom sx={{ fontWeight: 700 }}>
          {appName}
        </Typography>
        <Typography align="center" color="text.secondary" sx={{ mb: 3 }}>
          Continuous EEG monitoring back-office
        </Typography>
        <Authenticator hideSignUp services={services}>
          {() => <SignedInRedirect to={redirect} />}
        </Authenticator>
      </Box>
    </ThemeProvider>
  );
}
