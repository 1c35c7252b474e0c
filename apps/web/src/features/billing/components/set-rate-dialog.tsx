import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type BillingMonthRow,
  type ClientMonthRate,
  clientMonthRateSchema,
  formatInstantInZone,
  monthSchema,
  rateInputSchema,
} from "@vigil/contract";
import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { Dialog } from "../../../components/feedback/dialog";
import { apiErrorOf, currentFromDetails, serverFieldErrors } from "../../../components/forms/field-messages";
import { DialogFormActions } from "../../../components/forms/form-actions";
import { FormTextField } from "../../../components/forms/form-text-field";
import { showServerErrors, useContractForm } from "../../../components/forms/use-contract-form";
import { fetchBillingMonths } from "../api/list-billing-months";
import { useSetBillingRate } from "../api/set-billing-rate";
import { formatMonth, formatRate } from "../billing-format";

type SetRateValues = { month: string; hourlyRate: string; reason: string; reasonRequired: boolean };

/**
 * The contract's rate and month rules, plus the one the server applies to invoiced months: a reason. Whether a
 * reason is needed travels in the form (`reasonRequired`), so a 400 that says so can switch it on.
 */
const setRateFormSchema = z
  .object({
    month: monthSchema,
    hourlyRate: rateInputSchema,
    reason: z.string().trim().max(1000),
    reasonRequired: z.boolean(),
  })
  .refine((values) => !values.reasonRequired || values.reason.trim() !== "", {
    path: ["reason"],
    message: "is required: this month is invoiced",
    // Checked even while the rate is still wrong, so both messages show at once.
    when: (payload) => typeof payload.value === "object" && payload.value !== null,
  });

function authorName(rate: ClientMonthRate): string {
  return rate.setBy.name || rate.setBy.username;
}

function OwnRateLine({ rate, timeZone, currency }: { rate: ClientMonthRate; timeZone: string; currency: string }) {
  return (
    <>
      {formatRate(rate.hourlyRate, currency)}, set by {authorName(rate)} on{" "}
      <time dateTime={rate.setAt}>{formatInstantInZone(rate.setAt, timeZone)}</time>
      {rate.reason ? ` (reason: ${rate.reason})` : ""}
    </>
  );
}

/** What the month is billed at now, in words. */
function CurrentRate({ row, timeZone, currency }: { row: BillingMonthRow; timeZone: string; currency: string }) {
  if (row.ownRate) {
    return (
      <Typography>
        Current rate (this month's own): <OwnRateLine rate={row.ownRate} timeZone={timeZone} currency={currency} />.
      </Typography>
    );
  }
  if (row.rate) {
    return (
      <Typography>
        This month has no rate of its own: it inherits {formatRate(row.rate.hourlyRate, currency)} from{" "}
        {formatMonth(row.rate.fromMonth)}.
      </Typography>
    );
  }
  return <Typography>No rate applies to this month yet, and no earlier month has one.</Typography>;
}

export type SetRateDialogProps = {
  clientId: string;
  clientName: string;
  /** The client's zone, for when a rate was set. */
  timeZone: string;
  /** The ISO 4217 code rates are in (the overview's `currency`). */
  currency: string;
  /** The month's row as the table shows it; null to pick any month (one without hours yet). */
  row: BillingMonthRow | null;
  onSaved: (rate: ClientMonthRate) => void;
  onClose: () => void;
};

type Conflict = { theirs: ClientMonthRate | null };

/**
 * Sets a month's own hourly rate. The rate is checked as it is typed with the contract's words; the request names
 * the version of the own rate the user saw. If someone changed it first (409) nothing is saved: their rate is
 * shown and the user can save theirs on top of it, knowingly. An invoiced month needs a reason.
 */
export function SetRateDialog({ clientId, clientName, timeZone, currency, row, onSaved, onClose }: SetRateDialogProps) {
  const titleId = useId();
  const setRate = useSetBillingRate();
  const [baseVersion, setBaseVersion] = useState<number | null>(row?.ownRate?.version ?? null);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useContractForm({
    schema: setRateFormSchema,
    defaultValues: {
      month: row?.month ?? "",
      hourlyRate: row?.ownRate?.hourlyRate ?? "",
      reason: "",
      reasonRequired: row?.invoiced ?? false,
    } satisfies SetRateValues,
  });
  const { control } = form;
  const reasonRequired = useWatch({ control, name: "reasonRequired" });
  const pending = setRate.isPending;

  /** Their rate when a 409 did not carry it: the month's row read again. */
  const readTheirs = async (month: string): Promise<ClientMonthRate | null> => {
    const page = await fetchBillingMonths({ clientId, from: month, to: month, limit: 1, offset: 0 });
    return page.items[0]?.ownRate ?? null;
  };

  const save = (version: number | null) =>
    form.handleSubmit((values) => {
      setFailure(null);
      setRate.mutate(
        {
          clientId,
          month: values.month,
          input: { hourlyRate: values.hourlyRate, baseVersion: version, reason: values.reason || null },
        },
        {
          onSuccess: (saved) => {
            form.reset(form.getValues());
            onSaved(saved);
          },
          onError: async (error) => {
            const body = apiErrorOf(error);
            if (body?.status === 409) {
              const current = clientMonthRateSchema.safeParse(currentFromDetails(error));
              const theirs = current.success ? current.data : await readTheirs(values.month).catch(() => null);
              if (theirs) setBaseVersion(theirs.version);
              setConflict({ theirs });
              return;
            }
            const fields = serverFieldErrors(error);
            if (fields.reason) form.setValue("reasonRequired", true);
            if (!showServerErrors(form.setError, fields)) setFailure(body?.message ?? String(error));
          },
        },
      );
    });

  const theirs = conflict?.theirs ?? null;
  const title = row ? `Set the rate for ${formatMonth(row.month)}` : "Set a month's rate";
  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box component="form" noValidate onSubmit={save(baseVersion)}>
        <DialogContent dividers>
          <Stack spacing={2}>
            <Typography color="text.secondary">
              {clientName}. Later months without a rate of their own inherit this one.
            </Typography>
            {row ? <CurrentRate row={row} timeZone={timeZone} currency={currency} /> : null}
            {conflict ? (
              <Alert severity="warning" role="alert">
                <AlertTitle>Someone changed this month's rate first</AlertTitle>
                {theirs ? (
                  <Box component="p" sx={{ mt: 0 }}>
                    It is now <OwnRateLine rate={theirs} timeZone={timeZone} currency={currency} />.
                  </Box>
                ) : (
                  <Box component="p" sx={{ mt: 0 }}>
                    Their rate could not be read. Close this dialog and open it again to see it.
                  </Box>
                )}
                <Box component="p" sx={{ my: 0 }}>
                  Nothing of yours was saved, and your rate is still in the form.
                </Box>
                {theirs ? (
                  <Stack direction="row" sx={{ mt: 1, gap: 1, flexWrap: "wrap" }}>
                    <Button variant="outlined" color="inherit" size="small" onClick={save(theirs.version)}>
                      Save my rate on top of theirs
                    </Button>
                    <Button variant="outlined" color="inherit" size="small" onClick={onClose}>
                      Keep their rate
                    </Button>
                  </Stack>
                ) : null}
              </Alert>
            ) : null}
            {reasonRequired ? (
              <Alert severity="info">
                This month is invoiced: its statement has been issued. A new rate does not change the issued statement;
                the difference is carried to the next one. Give a reason; it is kept with the rate.
              </Alert>
            ) : null}
            {failure ? <Alert severity="error">The rate was not saved: {failure}</Alert> : null}
            {row ? null : (
              <FormTextField
                control={control}
                name="month"
                label="Month"
                type="month"
                required
                placeholder="YYYY-MM"
                slotProps={{ inputLabel: { shrink: true } }}
              />
            )}
            <FormTextField
              control={control}
              name="hourlyRate"
              label="Hourly rate"
              required
              autoFocus
              help="An amount such as 125 or 125.50"
              slotProps={{ htmlInput: { inputMode: "decimal", autoComplete: "off" } }}
            />
            <FormTextField
              control={control}
              name="reason"
              label="Reason"
              required={reasonRequired}
              multiline
              minRows={2}
              help={reasonRequired ? "Required for an invoiced month" : "Optional"}
            />
          </Stack>
        </DialogContent>
        <DialogFormActions submitLabel={pending ? "Saving…" : "Save rate"} pending={pending} onCancel={onClose} />
      </Box>
    </Dialog>
  );
}
