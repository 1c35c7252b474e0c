import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import type { AuditEvent } from "@vigil/contract";
import { useId, useState } from "react";
import { summariseDetails } from "../audit-labels";

/** An event's details in one line, expandable to the full JSON (and the caller's user agent). */
export function AuditDetails({ event }: { event: AuditEvent }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const summary = summariseDetails(event.details);
  if (!summary && !event.userAgent) return <Typography variant="body2">—</Typography>;
  return (
    <Box sx={{ maxWidth: 420 }}>
      <Typography variant="body2" sx={{ wordBreak: "break-word" }}>
        {summary || "No details"}
      </Typography>
      <Button
        size="small"
        onClick={() => setOpen((value) => !value)}
        aria-expanded={open}
        aria-controls={panelId}
        sx={{ px: 0, minWidth: 0 }}
      >
        {open ? "Hide full details" : "Show full details"}
      </Button>
      <Box id={panelId} hidden={!open}>
        {event.userAgent ? (
          <Typography variant="caption" component="p" color="text.secondary" sx={{ wordBreak: "break-word" }}>
            User agent: {event.userAgent}
          </Typography>
        ) : null}
        {event.details ? (
          <Box
            component="pre"
            sx={{
              m: 0,
              mt: 0.5,
              p: 1,
              bgcolor: "action.hover",
              borderRadius: 1,
              fontSize: "0.75rem",
              whiteSpace: "pre-wrap",
              wordBreak: "break-all",
              maxHeight: 320,
              overflow: "auto",
            }}
          >
            {JSON.stringify(event.details, null, 2)}
          </Box>
        ) : null}
      </Box>
    </Box>
  );
}
