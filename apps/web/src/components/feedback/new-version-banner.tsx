import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useNewVersionAvailable } from "../../lib/enoch-tracker";
import { pageReloader } from "../../lib/reload-guard";

/** Shown while the server's `enoch` differs from the one this page started with (held back during edits). */
export function NewVersionBanner() {
  const available = useNewVersionAvailable();
  if (!available) return null;
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2, displayPrint: "none" }}
      action={
        <Button color="inherit" size="small" onClick={() => pageReloader.reload()}>
          Reload
        </Button>
      }
    >
      A new version of Vigil is available — reload to use it.
    </Alert>
  );
}
