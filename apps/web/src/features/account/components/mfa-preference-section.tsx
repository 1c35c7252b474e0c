import Alert from "@mui/material/Alert";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import { useMutation } from "@tanstack/react-query";
import { useId } from "react";
import {
  type AccountSecurity,
  accountErrorMessage,
  type MfaMethod,
  preferMfa,
  setSmsMfa,
} from "../../../lib/auth-account";
import { AccountSection } from "./account-section";

const methodLabels: Record<MfaMethod, string> = { TOTP: "Authenticator app", SMS: "Text message" };

function smsHint(security: AccountSecurity): string {
  if (!security.phoneNumber) return "Text-message codes need a phone number: add one under Contact details.";
  if (!security.phoneNumberVerified) return "Verify your phone number under Contact details first.";
  return `Codes are sent to ${security.phoneNumber}.`;
}

/**
 * SetUserMFAPreference: text-message codes on or off (to a verified phone number), and with both factors on,
 * which one sign-in asks for.
 */
export function MfaPreferenceSection({ security, onChanged }: { security: AccountSecurity; onChanged: () => void }) {
  const hintId = useId();
  const legendId = useId();
  const smsOn = security.mfa.enabled.includes("SMS");
  const both = smsOn && security.mfa.enabled.includes("TOTP");
  const canTurnSmsOn = Boolean(security.phoneNumber && security.phoneNumberVerified);
  const sms = useMutation({ mutationFn: setSmsMfa, onSuccess: onChanged });
  const prefer = useMutation({ mutationFn: preferMfa, onSuccess: onChanged });
  const error = sms.error ?? prefer.error;

  return (
    <AccountSection title="Sign-in codes" description="A code after your password keeps the account yours.">
      <Stack spacing={2}>
        <FormControl>
          <FormControlLabel
            control={
              <Switch
                checked={smsOn}
                disabled={sms.isPending || (!smsOn && !canTurnSmsOn)}
                onChange={(_event, checked) => {
                  prefer.reset();
                  sms.mutate(checked);
                }}
                slotProps={{ input: { "aria-describedby": hintId } }}
              />
            }
            label="Text-message codes"
          />
          <FormHelperText id={hintId}>{smsHint(security)}</FormHelperText>
        </FormControl>
        {both ? (
          <FormControl disabled={prefer.isPending}>
            <FormLabel id={legendId}>Ask first for</FormLabel>
            <RadioGroup
              aria-labelledby={legendId}
              value={security.mfa.preferred ?? ""}
              onChange={(_event, value) => {
                sms.reset();
                prefer.mutate(value as MfaMethod);
              }}
            >
              {(["TOTP", "SMS"] as const).map((method) => (
                <FormControlLabel key={method} value={method} control={<Radio />} label={methodLabels[method]} />
              ))}
            </RadioGroup>
            {security.mfa.preferred ? null : <FormHelperText>Sign-in asks you to choose each time.</FormHelperText>}
          </FormControl>
        ) : null}
        {error ? <Alert severity="error">{accountErrorMessage(error)}</Alert> : null}
      </Stack>
    </AccountSection>
  );
}
