import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation, useQuery } from "@tanstack/react-query";
import QRCode from "qrcode";
import { useId, useState } from "react";
import { z } from "zod";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { Dialog } from "../../../components/feedback/dialog";
import { AuthenticatorKey } from "../../../components/forms/authenticator-key";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import {
  type AccountSecurity,
  accountErrorMessage,
  accountErrorName,
  finishAuthenticatorSetup,
  removeAuthenticator,
  startAuthenticatorSetup,
} from "../../../lib/auth-account";
import { AccountSection } from "./account-section";

const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be the 6 digits the app shows"),
});

/**
 * The otpauth:// address as a QR code, drawn as SVG by the library the Authenticator's own setup screen uses
 * (`qrcode`): SVG needs no canvas, and a data: image is what the CSP allows.
 */
function QrCodeImage({ uri }: { uri: string }) {
  const image = useQuery({
    queryKey: ["account", "totp-qr", uri],
    queryFn: () => QRCode.toString(uri, { type: "svg", margin: 2 }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!image.data) return <CircularProgress aria-label="Drawing the QR code" />;
  return (
    <Box
      component="img"
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(image.data)}`}
      alt="QR code to scan with your authenticator app"
      width={200}
      height={200}
    />
  );
}

function isCodeRefused(error: unknown): boolean {
  const name = accountErrorName(error);
  return name === "EnableSoftwareTokenMFAException" || name === "CodeMismatchException";
}

/** AssociateSoftwareToken when it opens; VerifySoftwareToken and SetUserMFAPreference with the first code. */
function SetupDialog({
  accountName,
  preferred,
  onClose,
  onDone,
}: {
  accountName: string;
  preferred: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const titleId = useId();
  const setup = useQuery({
    queryKey: ["account", "totp-setup"],
    queryFn: () => startAuthenticatorSetup(accountName),
    // Each opening asks for a fresh secret; a cached one would already be replaced on the server.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const form = useContractForm({ schema: codeSchema, defaultValues: { code: "" } });
  const verify = useMutation({ mutationFn: (code: string) => finishAuthenticatorSetup(code, preferred) });
  const submit = form.handleSubmit(({ code }) =>
    verify.mutate(code, {
      onSuccess: () => {
        form.reset({ code: "" });
        onDone();
      },
      onError: (error) => {
        if (isCodeRefused(error)) {
          showServerErrors(form.setError, { code: "That code is not right: type the one the app shows now" });
        }
      },
    }),
  );

  return (
    <Dialog open onClose={verify.isPending ? undefined : onClose} aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>Set up an authenticator app</DialogTitle>
      <form onSubmit={submit} noValidate>
        <DialogContent>
          {setup.isError ? (
            <Alert severity="error">{accountErrorMessage(setup.error)}</Alert>
          ) : !setup.data ? (
            <CircularProgress aria-label="Preparing the setup" />
          ) : (
            <Stack spacing={2}>
              <Typography>
                Scan the QR code with your authenticator app, or type the key in, then enter the 6-digit code the app
                shows.
              </Typography>
              <Box sx={{ display: "flex", justifyContent: "center" }}>
                <QrCodeImage uri={setup.data.uri} />
              </Box>
              <AuthenticatorKey secret={setup.data.secret} />
              <FormTextField
                control={form.control}
                name="code"
                label="Code"
                required
                autoFocus
                autoComplete="one-time-code"
                slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 6 } }}
              />
              {verify.error && !isCodeRefused(verify.error) ? (
                <Alert severity="error">{accountErrorMessage(verify.error)}</Alert>
              ) : null}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={verify.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={!setup.data || verify.isPending}
            startIcon={verify.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
          >
            Verify and turn on
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * The authenticator app as a second factor: set up (QR code and a first code, as at sign-in) or removed after a
 * confirmation. With MFA required for everyone, removing the only factor means setting one up at next sign-in.
 */
export function AuthenticatorAppSection({
  security,
  accountName,
  mfaRequired,
  onChanged,
}: {
  security: AccountSecurity;
  accountName: string;
  mfaRequired: boolean;
  onChanged: () => void;
}) {
  const [settingUp, setSettingUp] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const on = security.mfa.enabled.includes("TOTP");
  const remove = useMutation({ mutationFn: removeAuthenticator });
  const onlyFactor = on && security.mfa.enabled.length === 1;

  return (
    <AccountSection
      title="Authenticator app"
      description="Codes from an app such as Google Authenticator or Microsoft Authenticator at sign-in."
    >
      <Stack spacing={2} sx={{ alignItems: "flex-start" }}>
        <Typography>{on ? "An authenticator app is on." : "No authenticator app is set up."}</Typography>
        {notice ? (
          <Alert severity="success" role="status" onClose={() => setNotice(null)}>
            {notice}
          </Alert>
        ) : null}
        {on ? (
          <Button variant="outlined" color="error" onClick={() => setRemoving(true)}>
            Remove authenticator app
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={() => {
              setNotice(null);
              setSettingUp(true);
            }}
          >
            Set up authenticator app
          </Button>
        )}
      </Stack>
      {settingUp ? (
        <SetupDialog
          accountName={accountName}
          preferred={security.mfa.enabled.length === 0}
          onClose={() => setSettingUp(false)}
          onDone={() => {
            setSettingUp(false);
            setNotice("The authenticator app is on: sign-in will ask for its code.");
            onChanged();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={removing}
        title="Remove the authenticator app?"
        confirmLabel="Remove"
        destructive
        pending={remove.isPending}
        error={remove.error ? accountErrorMessage(remove.error) : null}
        onClose={() => {
          setRemoving(false);
          remove.reset();
        }}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setRemoving(false);
              setNotice("The authenticator app was removed.");
              onChanged();
            },
          })
        }
      >
        Sign-in will no longer ask for its codes.
        {onlyFactor && mfaRequired
          ? " A second factor is required here, so you will be asked to set one up at your next sign-in."
          : ""}
      </ConfirmDialog>
    </AccountSection>
  );
}
