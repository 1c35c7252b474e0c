import Chip from "@mui/material/Chip";
import type { Client } from "@vigil/contract";
import { clientStatusLabels } from "../client-labels";

export function ClientStatusChip({ client }: { client: Pick<Client, "status" | "archivedAt"> }) {
  if (client.archivedAt) return <Chip label="Archived" size="small" variant="outlined" />;
  return (
    <Chip
      label={clientStatusLabels[client.status]}
      size="small"
      color={client.status === "active" ? "success" : "default"}
      variant={client.status === "active" ? "filled" : "outlined"}
    />
  );
}
