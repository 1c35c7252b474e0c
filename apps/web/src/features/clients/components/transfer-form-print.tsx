import Print from "@mui/icons-material/Print";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { Client, TransferField } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { useTransferForm } from "../api/get-transfer-form";

const blankLine = { borderBottom: "1px solid", borderColor: "text.primary", minHeight: 32 } as const;

function FillIn({ field }: { field: TransferField }) {
  switch (field.type) {
    case "textarea":
      return <Box sx={{ border: "1px solid", borderColor: "text.primary", minHeight: 96, mt: 0.5 }} />;
    case "checkbox":
      return <Typography sx={{ mt: 0.5 }}>☐ Yes</Typography>;
    case "select":
      return (
        <Box component="ul" sx={{ listStyle: "none", pl: 0, my: 0.5, display: "flex", flexWrap: "wrap", gap: 3 }}>
          {(field.options ?? []).map((option) => (
            <li key={option}>☐ {option}</li>
          ))}
        </Box>
      );
    default:
      return <Box sx={blankLine} />;
  }
}

const hints: Partial<Record<TransferField["type"], string>> = {
  date: "Date (YYYY-MM-DD)",
  datetime: "Date and time (YYYY-MM-DD HH:MM, local time)",
  phone: "Phone number with country code",
};

/**
 * The transfer form a referring facility fills in, laid out for paper: the app's chrome, tabs and buttons are
 * hidden when printing (`vigil-no-print`), fields become blank lines and boxes.
 */
export function TransferFormPrint({ client }: { client: Client }) {
  const transfer = useTransferForm(client.id);
  if (transfer.isPending) return <LoadingScreen label="Loading the transfer form…" />;
  if (transfer.isError) {
    if (isNotFound(transfer.error))
      return <Typography>This client has no protocol yet, so there is no transfer form to print.</Typography>;
    return <QueryError what="The transfer form" error={transfer.error} onRetry={() => void transfer.refetch()} />;
  }
  const form = transfer.data;
  return (
    <>
      <Box className="vigil-no-print" sx={{ mb: 2 }}>
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print
        </Button>
      </Box>
      <Box
        component="article"
        aria-label="Printable transfer form"
        sx={{
          maxWidth: 800,
          p: { xs: 2, sm: 4 },
          border: "1px solid",
          borderColor: "divider",
          bgcolor: "background.paper",
          "@media print": { border: 0, p: 0, maxWidth: "none", color: "#000" },
        }}
      >
        <Typography variant="h5" component="h2" gutterBottom>
          {form.title}
        </Typography>
        <Typography sx={{ fontWeight: 600 }}>{form.clientName}</Typography>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          Protocol revision {form.revision}, revised <ZonedDateTime value={form.revisedAt} timeZone={client.timezone} />
        </Typography>
        {form.instructions ? <Typography sx={{ whiteSpace: "pre-wrap", my: 2 }}>{form.instructions}</Typography> : null}
        <Box component="ol" sx={{ pl: 0, listStyle: "none", mt: 3 }}>
          {form.fields.map((field) => (
            <Box component="li" key={field.key} sx={{ mb: 2.5, breakInside: "avoid" }}>
              <Typography sx={{ fontWeight: 600 }}>
                {field.label}
                {field.required ? " (required)" : ""}
              </Typography>
              {field.help || hints[field.type] ? (
                <Typography variant="body2" color="text.secondary">
                  {[field.help, hints[field.type]].filter(Boolean).join(" · ")}
                </Typography>
              ) : null}
              <FillIn field={field} />
            </Box>
          ))}
        </Box>
        <Box sx={{ display: "grid", gridTemplateColumns: "2fr 1fr", gap: 4, mt: 5 }}>
          <Box>
            <Box sx={blankLine} />
            <Typography variant="body2">Completed by (name, signature)</Typography>
          </Box>
          <Box>
            <Box sx={blankLine} />
            <Typography variant="body2">Date and time</Typography>
          </Box>
        </Box>
      </Box>
    </>
  );
}
