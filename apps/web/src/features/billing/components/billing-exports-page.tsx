import Download from "@mui/icons-material/Download";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  type BillingExport,
  type BillingExportAccounts,
  type BillingExportFormat,
  billingExportAccountsContentSchema,
  billingExportAccountsSchema,
  billingExportFormats,
  calendarDateSchema,
} from "@vigil/contract";
import { useState } from "react";
import type { z } from "zod";
import { useAccess } from "../../../components/access/access-context";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { apiErrorOf, currentFromDetails } from "../../../components/forms/field-messages";
import { FormTextField } from "../../../components/forms/form-text-field";
import { useContractForm } from "../../../components/forms/use-contract-form";
import { PageHeading } from "../../../components/layouts/page-heading";
import { saveFile } from "../../../lib/save-file";
import {
  useBillingExports,
  useCreateBillingExport,
  useExportAccounts,
  useSetExportAccounts,
} from "../api/billing-exports";

const formatLabels: Record<BillingExportFormat, string> = {
  iif: "QuickBooks Desktop (IIF)",
  "quickbooks-online-csv": "QuickBooks Online (CSV)",
  "xero-csv": "Xero (CSV)",
};

const accountFields: { name: keyof z.input<typeof billingExportAccountsContentSchema>; label: string; help: string }[] =
  [
    {
      name: "serviceItem",
      label: "Monitoring service item",
      help: "The product or service the monitoring lines sell.",
    },
    { name: "incomeAccount", label: "Monitoring income account", help: "Where invoice lines post." },
    { name: "creditNotesAccount", label: "Credit notes account", help: "Where credit note lines post." },
    { name: "receivablesAccount", label: "Accounts receivable", help: "What clients owe." },
    { name: "undepositedFundsAccount", label: "Payments (undeposited funds)", help: "Where payments received post." },
    { name: "taxAccount", label: "Sales tax account", help: "Where invoice tax posts." },
    { name: "taxType", label: "Xero tax type", help: "As Xero names it, such as Tax Exempt." },
  ];

type AccountValues = z.input<typeof billingExportAccountsContentSchema>;

function valuesOf(accounts: BillingExportAccounts): AccountValues {
  const { version: _version, ...content } = accounts;
  return content;
}

/** Vigil's items → the company's account names; a stale save (409) keeps the edits and offers theirs. */
function AccountsForm({ accounts, canWrite }: { accounts: BillingExportAccounts; canWrite: boolean }) {
  const save = useSetExportAccounts();
  const [version, setVersion] = useState(accounts.version);
  const [message, setMessage] = useState<{ severity: "success" | "warning" | "error"; text: string } | null>(null);
  const form = useContractForm({ schema: billingExportAccountsContentSchema, defaultValues: valuesOf(accounts) });
  const submit = (baseVersion: number | null) =>
    form.handleSubmit((values) => {
      setMessage(null);
      save.mutate(
        { ...values, baseVersion },
        {
          onSuccess: (saved) => {
            form.reset(valuesOf(saved));
            setVersion(saved.version);
            setMessage({ severity: "success", text: "The account names are saved. Exports from now on use them." });
          },
          onError: (error) => {
            const body = apiErrorOf(error);
            const theirs = billingExportAccountsSchema.safeParse(currentFromDetails(error));
            if (body?.status === 409 && theirs.success) {
              setVersion(theirs.data.version);
              setMessage({
                severity: "warning",
                text: "Someone else saved the account names first. Nothing of yours was saved; save again to put yours over theirs.",
              });
              return;
            }
            setMessage({ severity: "error", text: body?.message ?? String(error) });
          },
        },
      );
    });
  return (
    <Box component="form" noValidate aria-label="Account names" onSubmit={submit(version)} sx={{ maxWidth: 640 }}>
      {message ? (
        <Alert severity={message.severity} role={message.severity === "success" ? "status" : "alert"} sx={{ mb: 2 }}>
          {message.text}
        </Alert>
      ) : null}
      <fieldset disabled={!canWrite || save.isPending} style={{ border: 0, margin: 0, padding: 0 }}>
        <Stack spacing={2}>
          {accountFields.map((field) => (
            <FormTextField
              key={field.name}
              control={form.control}
              name={field.name}
              label={field.label}
              help={field.help}
            />
          ))}
          {canWrite ? (
            <Box>
              <Button type="submit" variant="contained">
                Save account names
              </Button>
            </Box>
          ) : null}
        </Stack>
      </fieldset>
    </Box>
  );
}

function changesText(entry: BillingExport): string {
  if (!entry.changes) return "First export of this period";
  const { added, changed, removed } = entry.changes;
  if (added.length + changed.length + removed.length === 0) return "Nothing changed since the last export";
  return [
    added.length ? `New: ${added.join(", ")}` : "",
    changed.length ? `Changed: ${changed.join(", ")}` : "",
    removed.length ? `Removed: ${removed.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join(". ");
}

/** A period and a format; the file downloads and the history says what it held and what changed. */
function ExportForm({ canWrite }: { canWrite: boolean }) {
  const create = useCreateBillingExport();
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [format, setFormat] = useState<BillingExportFormat>("iif");
  const [problem, setProblem] = useState<string | null>(null);
  const run = () => {
    const wrong = !calendarDateSchema.safeParse(from).success
      ? "Choose the first day of the period."
      : !calendarDateSchema.safeParse(to).success
        ? "Choose the last day of the period."
        : from > to
          ? "The period must end on or after its first day."
          : null;
    setProblem(wrong);
    if (wrong) return;
    create.mutate(
      { from, to, format },
      {
        onSuccess: (file) => saveFile(file.fileName, new Blob([file.content], { type: file.contentType })),
        onError: (error) => setProblem(apiErrorOf(error)?.message ?? String(error)),
      },
    );
  };
  return (
    <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}>
      <TextField
        type="date"
        label="From (issue date)"
        value={from}
        onChange={(event) => setFrom(event.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="date"
        label="To (issue date)"
        value={to}
        onChange={(event) => setTo(event.target.value)}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        select
        label="Format"
        value={format}
        onChange={(event) => setFormat(event.target.value as BillingExportFormat)}
        sx={{ minWidth: 240 }}
      >
        {billingExportFormats.map((value) => (
          <MenuItem key={value} value={value}>
            {formatLabels[value]}
          </MenuItem>
        ))}
      </TextField>
      {canWrite ? (
        <Button variant="contained" startIcon={<Download />} onClick={run} disabled={create.isPending} sx={{ mt: 1 }}>
          Export
        </Button>
      ) : null}
      {problem ? (
        <Alert severity="error" sx={{ width: "100%" }}>
          {problem}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** `/billing/exports`: the account mapping, a new export, and the history of exports. */
export function BillingExportsPage() {
  const { can } = useAccess();
  const canWrite = can("billing:write");
  const accounts = useExportAccounts();
  const history = useBillingExports();
  return (
    <>
      <PageHeading>Exports for the accountant</PageHeading>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        A period's invoices, credit notes and payments as QuickBooks Desktop IIF, or as the CSV that QuickBooks Online
        (invoices only) and Xero import, posted to the account names below.
      </Typography>
      <Typography variant="h6" component="h2" sx={{ mt: 2, mb: 1 }}>
        Export a period
      </Typography>
      <ExportForm canWrite={canWrite} />
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        Exports so far
      </Typography>
      {history.isError ? (
        <QueryError what="The exports" error={history.error} onRetry={() => void history.refetch()} />
      ) : history.isPending ? (
        <LoadingScreen label="Loading the exports…" />
      ) : history.data.items.length === 0 ? (
        <Typography color="text.secondary">No exports yet.</Typography>
      ) : (
        <Table size="small" aria-label="Exports so far">
          <TableHead>
            <TableRow>
              <TableCell>Made</TableCell>
              <TableCell>Period</TableCell>
              <TableCell>Format</TableCell>
              <TableCell align="right">Documents</TableCell>
              <TableCell>Since the period's last export</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.data.items.map((entry) => (
              <TableRow key={entry.id}>
                <TableCell>
                  {new Date(entry.createdAt).toLocaleString()} by {entry.createdBy}
                </TableCell>
                <TableCell>
                  {entry.from} – {entry.to}
                </TableCell>
                <TableCell>{formatLabels[entry.format]}</TableCell>
                <TableCell align="right">{entry.documents.length}</TableCell>
                <TableCell>{changesText(entry)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Typography variant="h6" component="h2" sx={{ mt: 3, mb: 1 }}>
        Account names
      </Typography>
      {accounts.isError ? (
        <QueryError what="The account names" error={accounts.error} onRetry={() => void accounts.refetch()} />
      ) : accounts.isPending ? (
        <LoadingScreen label="Loading the account names…" />
      ) : (
        <AccountsForm accounts={accounts.data} canWrite={canWrite} />
      )}
    </>
  );
}
