import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";

/** What `IdentityConnectionNotice` shows while the identity service cannot be reached. */
export function ConnectionLostSnackbar({ open, onTryNow }: { open: boolean; onTryNow: () => void }) {
  return (
    <Snackbar open={open} anchorOrigin={{ vertical: "bottom", horizontal: "center" }}>
      <Alert
        severity="warning"
        variant="filled"
        action={
          <Button color="inherit" size="small" onClick={onTryNow}>
            Try now
          </Button>
        }
      >
        The sign-in service cannot be reached. You are still signed in; Vigil keeps trying to reconnect.
      </Alert>
    </Snackbar>
  );
}
