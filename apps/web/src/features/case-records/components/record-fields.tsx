import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { Case } from "@vigil/contract";
import { displayValue } from "./record-labels";

/** One version's printable fields as a definition list (times in the client's zone). */
export function RecordFields({
  title,
  fields,
  caseItem,
}: {
  title?: string;
  fields: Record<string, string>;
  caseItem: Case;
}) {
  const zone = caseItem.client.timezone;
  return (
    <Box>
      {title ? (
        <Typography variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
          {title}
        </Typography>
      ) : null}
      <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: { xs: "1fr", sm: "200px 1fr" }, gap: 0.5 }}>
        {Object.entries(fields).map(([label, value]) => (
          <Box key={label} sx={{ display: "contents" }}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0, whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {value ? displayValue(value, zone) : "—"}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
