import Alert from "@mui/material/Alert";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import { useAccess } from "../../../components/access/access-context";
import { receivesClockAlerts } from "../../../components/clocks/clock-alert-recipients";
import { useNotificationPreferences, useSetNotificationPreferences } from "../api/notification-preferences";
import { AccountSection } from "./account-section";

/**
 * The e-mail copy of clock alerts (PRODUCT.md §10): off until the user turns it on. The copy names the case by number
 * and links to it, never the patient, and goes to the account's verified address only.
 */
export function ClockAlertEmailSection({ emailVerified }: { emailVerified: boolean }) {
  const { groups } = useAccess();
  if (!receivesClockAlerts(groups)) {
    // Nothing to switch on: an e-mail copy of alerts that can never come would only mislead.
    return (
      <AccountSection
        title="Clock alerts"
        description="Clock alerts go to the technologists and reviewers who own a case's service clocks, and to the coordinators for the clocks nobody owns. Your access groups own none, so there is nothing to alert you of or to e-mail."
      >
        {null}
      </AccountSection>
    );
  }
  return <ClockAlertEmailSwitch emailVerified={emailVerified} />;
}

function ClockAlertEmailSwitch({ emailVerified }: { emailVerified: boolean }) {
  const preferences = useNotificationPreferences();
  const save = useSetNotificationPreferences();
  const checked = save.isPending
    ? Boolean(save.variables?.emailClockAlerts)
    : Boolean(preferences.data?.emailClockAlerts);
  return (
    <AccountSection
      title="Clock alerts"
      description="When a service clock you own turns due soon or overdue, the bell in the top bar tells you. You can also get each alert by e-mail: the case number, what is due and a link, never the patient's name."
    >
      {preferences.isError ? (
        <Alert severity="error">Your notification settings could not be loaded.</Alert>
      ) : (
        <FormControlLabel
          control={
            <Switch
              checked={checked}
              disabled={preferences.isPending || save.isPending}
              onChange={(event) => save.mutate({ emailClockAlerts: event.target.checked })}
            />
          }
          label="E-mail me my clock alerts"
        />
      )}
      {checked && !emailVerified ? (
        <Typography variant="body2" color="warning.main" sx={{ mt: 1 }}>
          Alerts are e-mailed to a verified address only: verify your email address above to receive them.
        </Typography>
      ) : null}
    </AccountSection>
  );
}
