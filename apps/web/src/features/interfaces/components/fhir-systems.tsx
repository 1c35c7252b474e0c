import Add from "@mui/icons-material/Add";
import Edit from "@mui/icons-material/Edit";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Client, SmartClient } from "@vigil/contract";
import { useState } from "react";
import { QueryError } from "../../../components/feedback/query-error";
import { useSmartClients } from "../api/smart-clients";
import { FhirSystemEditor } from "./fhir-system-editor";

function keysOf(system: SmartClient): string {
  if (system.jwksUrl) return system.jwksUrl;
  const count = system.jwks?.keys.length ?? 0;
  return `${count} pasted key${count === 1 ? "" : "s"}`;
}

/**
 * The client's hospital systems registered for FHIR (SMART Backend Services): who may connect, with which keys and
 * scopes, and where they connect. Administrators register and change them; coordinators read.
 */
export function FhirSystems({ client, canManage }: { client: Client; canManage: boolean }) {
  const systems = useSmartClients(client.id);
  const [editing, setEditing] = useState<SmartClient | "new" | null>(null);
  const origin = window.location.origin;

  if (editing !== null) {
    return (
      <FhirSystemEditor client={client} system={editing === "new" ? null : editing} onDone={() => setEditing(null)} />
    );
  }
  return (
    <Stack component="section" spacing={2} aria-labelledby="fhir-systems-heading">
      <Typography id="fhir-systems-heading" variant="h6" component="h2">
        FHIR hospital systems
      </Typography>
      <Typography color="text.secondary">
        Token endpoint {`${origin}/fhir/auth/token`}, FHIR base {`${origin}/fhir/R4`}.
      </Typography>
      {canManage ? (
        <div>
          <Button variant="outlined" startIcon={<Add />} onClick={() => setEditing("new")}>
            Register a hospital system
          </Button>
        </div>
      ) : null}
      {systems.isPending ? <Typography>Loading the hospital systems…</Typography> : null}
      {systems.isError ? (
        <QueryError what="The hospital systems" error={systems.error} onRetry={() => void systems.refetch()} />
      ) : null}
      {systems.data && systems.data.items.length === 0 ? (
        <Typography color="text.secondary">No hospital system is registered to reach this client over FHIR.</Typography>
      ) : null}
      {systems.data && systems.data.items.length > 0 ? (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label="FHIR hospital systems">
            <TableHead>
              <TableRow>
                <TableCell>Name</TableCell>
                <TableCell>Client id</TableCell>
                <TableCell>Public keys</TableCell>
                <TableCell>Allowed scopes</TableCell>
                <TableCell>State</TableCell>
                {canManage ? <TableCell>Actions</TableCell> : null}
              </TableRow>
            </TableHead>
            <TableBody>
              {systems.data.items.map((system) => (
                <TableRow key={system.id}>
                  <TableCell>{system.name}</TableCell>
                  <TableCell sx={{ fontFamily: "monospace", wordBreak: "break-all" }}>
                    {system.systemClientId}
                  </TableCell>
                  <TableCell sx={{ wordBreak: "break-all" }}>{keysOf(system)}</TableCell>
                  <TableCell sx={{ fontFamily: "monospace" }}>{system.scopes.join(" ")}</TableCell>
                  <TableCell>{system.enabled ? "May connect" : "Off"}</TableCell>
                  {canManage ? (
                    <TableCell>
                      <Button
                        size="small"
                        startIcon={<Edit />}
                        aria-label={`Change ${system.name}`}
                        onClick={() => setEditing(system)}
                      >
                        Change
                      </Button>
                    </TableCell>
                  ) : null}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Stack>
  );
}
