import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useMutation } from "@tanstack/react-query";
import { emailSchema, phoneSchema } from "@vigil/contract";
import { type ReactNode, useState } from "react";
import { z } from "zod";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import {
  type AccountSecurity,
  accountErrorMessage,
  accountErrorName,
  type ContactAttribute,
  changeContact,
  confirmContact,
  resendContactCode,
} from "../../../lib/auth-account";
import { AccountSection } from "./account-section";

const valueSchemas = {
  email: z.object({ value: emailSchema }),
  phone_number: z.object({ value: phoneSchema }),
} as const;

const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "must be the 6 digits that were sent"),
});

const wording: Record<ContactAttribute, { label: string; newLabel: string; help: string; type: string }> = {
  email: {
    label: "Email",
    newLabel: "New email",
    help: "Password-reset codes are sent here.",
    type: "email",
  },
  phone_number: {
    label: "Phone number",
    newLabel: "New phone number",
    help: "International form, e.g. +15555550100; text-message sign-in codes are sent here.",
    type: "tel",
  },
};

/** Refusals of the address itself (malformed, taken), shown under the field rather than above the buttons. */
function isAboutTheValue(error: unknown): boolean {
  const name = accountErrorName(error);
  return name === "InvalidParameterException" || name === "AliasExistsException";
}

/** UpdateUserAttributes: the new address, kept unverified; a code goes to it. */
function ChangeForm({
  attribute,
  onSent,
  onCancel,
}: {
  attribute: ContactAttribute;
  onSent: (destination: string | null) => void;
  onCancel: () => void;
}) {
  const form = useContractForm({ schema: valueSchemas[attribute], defaultValues: { value: "" } });
  const change = useMutation({ mutationFn: (value: string) => changeContact(attribute, value) });
  const submit = form.handleSubmit(({ value }) =>
    change.mutate(value, {
      onSuccess: (destination) => {
        form.reset({ value: "" });
        onSent(destination);
      },
      onError: (error) => {
        if (isAboutTheValue(error)) showServerErrors(form.setError, { value: accountErrorMessage(error) });
      },
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2} sx={{ maxWidth: 420, mt: 1 }}>
        <FormTextField
          control={form.control}
          name="value"
          label={wording[attribute].newLabel}
          type={wording[attribute].type}
          help={wording[attribute].help}
          required
          autoFocus
          autoComplete={attribute === "email" ? "email" : "tel"}
        />
        {change.error && !isAboutTheValue(change.error) ? (
          <Alert severity="error">{accountErrorMessage(change.error)}</Alert>
        ) : null}
        <Stack direction="row" spacing={1}>
          <Button
            type="submit"
            variant="contained"
            disabled={change.isPending}
            startIcon={change.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
          >
            Send code
          </Button>
          <Button onClick={onCancel} disabled={change.isPending}>
            Cancel
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

/** VerifyUserAttribute with the code sent to the address; GetUserAttributeVerificationCode for another one. */
function ConfirmForm({
  attribute,
  destination,
  onVerified,
  onCancel,
}: {
  attribute: ContactAttribute;
  destination: string;
  onVerified: () => void;
  onCancel: () => void;
}) {
  const [sentTo, setSentTo] = useState(destination);
  const form = useContractForm({ schema: codeSchema, defaultValues: { code: "" } });
  const confirm = useMutation({ mutationFn: (code: string) => confirmContact(attribute, code) });
  const resend = useMutation({ mutationFn: () => resendContactCode(attribute), onSuccess: setSentTo });
  const codeRefused = (name: string | undefined) => name === "CodeMismatchException" || name === "ExpiredCodeException";
  const submit = form.handleSubmit(({ code }) =>
    confirm.mutate(code, {
      onSuccess: () => {
        form.reset({ code: "" });
        onVerified();
      },
      onError: (error) => {
        if (codeRefused(accountErrorName(error))) {
          showServerErrors(form.setError, { code: accountErrorMessage(error) });
        }
      },
    }),
  );
  const error = (confirm.error && !codeRefused(accountErrorName(confirm.error)) ? confirm.error : null) ?? resend.error;
  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2} sx={{ maxWidth: 420, mt: 1 }}>
        <Typography role="status">
          {sentTo ? `A code was sent to ${sentTo}.` : "A code was sent to the new address."} Type it here to verify the
          address.
        </Typography>
        <FormTextField
          control={form.control}
          name="code"
          label="Verification code"
          required
          autoFocus
          autoComplete="one-time-code"
          slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 6 } }}
        />
        {error ? <Alert severity="error">{accountErrorMessage(error)}</Alert> : null}
        <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
          <Button
            type="submit"
            variant="contained"
            disabled={confirm.isPending}
            startIcon={confirm.isPending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : null}
          >
            Verify
          </Button>
          <Button onClick={() => resend.mutate()} disabled={resend.isPending || confirm.isPending}>
            Send a new code
          </Button>
          <Button onClick={onCancel} disabled={confirm.isPending}>
            Later
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

type Mode = { kind: "view" } | { kind: "change" } | { kind: "confirm"; destination: string };

function ContactRow({
  attribute,
  value,
  verified,
  onChanged,
}: {
  attribute: ContactAttribute;
  value: string | null;
  verified: boolean;
  onChanged: () => void;
}) {
  const [mode, setMode] = useState<Mode>({ kind: "view" });
  const [notice, setNotice] = useState<ReactNode>(null);
  const resend = useMutation({
    mutationFn: () => resendContactCode(attribute),
    onSuccess: (destination) => setMode({ kind: "confirm", destination }),
  });
  const { label } = wording[attribute];
  return (
    <Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography sx={{ fontWeight: 600 }}>{label}</Typography>
        <Typography>{value || "None"}</Typography>
        {value ? (
          <Chip size="small" color={verified ? "success" : "warning"} label={verified ? "Verified" : "Not verified"} />
        ) : null}
      </Stack>
      {notice ? (
        <Alert severity="success" role="status" sx={{ mt: 1 }} onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      ) : null}
      {mode.kind === "view" ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
          <Button
            variant="outlined"
            onClick={() => {
              setNotice(null);
              setMode({ kind: "change" });
            }}
          >
            {value ? `Change ${label.toLowerCase()}` : `Add ${label.toLowerCase()}`}
          </Button>
          {value && !verified ? (
            <Button onClick={() => resend.mutate()} disabled={resend.isPending}>
              Verify {label.toLowerCase()}
            </Button>
          ) : null}
        </Stack>
      ) : null}
      {resend.error && mode.kind === "view" ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {accountErrorMessage(resend.error)}
        </Alert>
      ) : null}
      {mode.kind === "change" ? (
        <ChangeForm
          attribute={attribute}
          onCancel={() => setMode({ kind: "view" })}
          onSent={(destination) => {
            onChanged();
            if (destination === null) {
              setNotice(`Your ${label.toLowerCase()} was changed.`);
              setMode({ kind: "view" });
            } else setMode({ kind: "confirm", destination });
          }}
        />
      ) : null}
      {mode.kind === "confirm" ? (
        <ConfirmForm
          attribute={attribute}
          destination={mode.destination}
          onCancel={() => setMode({ kind: "view" })}
          onVerified={() => {
            setNotice(`Your ${label.toLowerCase()} is verified.`);
            setMode({ kind: "view" });
            onChanged();
          }}
        />
      ) : null}
    </Box>
  );
}

/**
 * Email and phone number: a new one is kept unverified until the code sent to it comes back, so sign-in codes
 * and password resets never go to an address nobody has shown they receive.
 */
export function ContactSection({ security, onChanged }: { security: AccountSecurity; onChanged: () => void }) {
  return (
    <AccountSection
      title="Contact details"
      description="A new email or phone number is verified with a code sent to it; until then sign-in asks you to verify it."
    >
      <Stack spacing={2} divider={<Divider flexItem />}>
        <ContactRow attribute="email" value={security.email} verified={security.emailVerified} onChanged={onChanged} />
        <ContactRow
          attribute="phone_number"
          value={security.phoneNumber}
          verified={security.phoneNumberVerified}
          onChanged={onChanged}
        />
      </Stack>
    </AccountSection>
  );
}
