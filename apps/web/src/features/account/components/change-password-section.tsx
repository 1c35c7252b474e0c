import CheckCircle from "@mui/icons-material/CheckCircle";
import RadioButtonUnchecked from "@mui/icons-material/RadioButtonUnchecked";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import type { PasswordPolicy } from "@vigil/contract";
import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { visuallyHidden } from "../../../components/visually-hidden";
import { accountErrorMessage, accountErrorName, changePassword } from "../../../lib/auth-account";
import { changePasswordSchema, passwordRules } from "../password-rules";
import { AccountSection } from "./account-section";

type Values = { currentPassword: string; newPassword: string; confirmPassword: string };
const emptyValues: Values = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** The policy's rules, each ticked off as the new password meets it (announced politely, not on every key). */
function PasswordRuleList({ id, policy, password }: { id: string; policy: PasswordPolicy; password: string }) {
  return (
    <Box component="ul" id={id} aria-label="Password rules" sx={{ listStyle: "none", p: 0, m: 0 }}>
      {passwordRules(policy).map((rule) => {
        const met = rule.met(password);
        return (
          <Box component="li" key={rule.id} sx={{ display: "flex", alignItems: "center", gap: 1 }}>
            {met ? (
              <CheckCircle fontSize="small" color="success" aria-hidden="true" />
            ) : (
              <RadioButtonUnchecked fontSize="small" color="disabled" aria-hidden="true" />
            )}
            <Typography variant="body2" color={met ? "text.primary" : "text.secondary"}>
              {rule.label}
              <Box component="span" sx={visuallyHidden}>
                {met ? " (met)" : " (not met yet)"}
              </Box>
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}

/**
 * Change password (ChangePassword): the current one proves it is the user; the new one is checked against the
 * server's policy as it is typed. The user's other sign-ins end; this one stays.
 */
export function ChangePasswordSection({ policy }: { policy: PasswordPolicy }) {
  const rulesId = useId();
  const newPasswordId = useId();
  const [schema] = useState(() => changePasswordSchema(policy));
  const form = useContractForm({ schema, defaultValues: emptyValues });
  const { control } = form;
  const newPassword = useWatch({ control, name: "newPassword" });
  const change = useMutation({
    mutationFn: (values: Values) => changePassword(values.currentPassword, values.newPassword),
  });

  const submit = form.handleSubmit((values) =>
    change.mutate(values, {
      onSuccess: () => form.reset(emptyValues),
      onError: (error) => {
        // The service's refusals that belong to one field are shown under it; the rest above the button.
        const name = accountErrorName(error);
        if (name === "NotAuthorizedException") {
          showServerErrors(form.setError, { currentPassword: "Current password is not right" });
        } else if (name === "InvalidPasswordException") {
          showServerErrors(form.setError, { newPassword: accountErrorMessage(error) });
        }
      },
    }),
  );
  const failureName = accountErrorName(change.error);
  const generalError =
    change.error && failureName !== "NotAuthorizedException" && failureName !== "InvalidPasswordException"
      ? accountErrorMessage(change.error)
      : null;

  return (
    <AccountSection title="Password" description="Changing it signs you out on your other devices.">
      <form onSubmit={submit} noValidate>
        <Stack spacing={2} sx={{ maxWidth: 420 }}>
          <FormTextField
            control={control}
            name="currentPassword"
            label="Current password"
            type="password"
            autoComplete="current-password"
            required
          />
          <FormTextField
            control={control}
            name="newPassword"
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            id={newPasswordId}
            // MUI ties the message to the input by this id; the rules are described beside it.
            slotProps={{
              htmlInput: {
                "aria-describedby": form.formState.errors.newPassword
                  ? `${newPasswordId}-helper-text ${rulesId}`
                  : rulesId,
              },
            }}
          />
          <PasswordRuleList id={rulesId} policy={policy} password={newPassword} />
          <FormTextField
            control={control}
            name="confirmPassword"
            label="Confirm new password"
            type="password"
            autoComplete="new-password"
            required
          />
          {generalError ? <Alert severity="error">{generalError}</Alert> : null}
          {change.isSuccess ? (
            <Alert severity="success" role="status">
              Your password was changed. Your other sign-ins have ended.
            </Alert>
          ) : null}
          <Box>
            <Button
              type="submit"
              variant="contained"
              disabled={change.isPending}
              startIcon={change.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
            >
              Change password
            </Button>
          </Box>
        </Stack>
      </form>
    </AccountSection>
  );
}
