import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { pages } from "@vigil/contract";
import { Link as RouterLink } from "react-router";
import { PageHeading } from "../../components/layouts/page-heading";
import { useSession, useSignOut } from "../session";

/** Where denied users land (PRODUCT.md §1): say why, and offer to sign in as someone else. */
export function UnauthorizedPage() {
  const session = useSession();
  const signOut = useSignOut();
  const signedIn = session.status === "ready" || session.status === "denied";
  return (
    <Stack spacing={2} sx={{ maxWidth: 640 }}>
      <PageHeading>Unauthorized</PageHeading>
      <Alert severity="warning">You do not have access to this page.</Alert>
      <Typography>
        Access in Vigil comes from access groups. If you need this page, ask an administrator to add you to the right
        group.
      </Typography>
      <div>
        {signedIn ? (
          <Button variant="contained" onClick={() => void signOut()}>
            Sign out
          </Button>
        ) : (
          <Button variant="contained" component={RouterLink} to={pages.signin.href()}>
            Sign in
          </Button>
        )}
      </div>
    </Stack>
  );
}
