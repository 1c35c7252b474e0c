import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { Client, InterfaceProfileRevision } from "@vigil/contract";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { describeDestination } from "../profile-model";
import { profileAuthorName } from "./interface-profile-view";

/** Every revision, newest first, like the protocol's history: who saved it, when, why, and the identity it named. */
export function InterfaceProfileHistory({
  client,
  history,
}: {
  client: Client;
  history: readonly InterfaceProfileRevision[];
}) {
  return (
    <Box component="section" aria-labelledby="interface-profile-history">
      <Typography id="interface-profile-history" variant="h6" component="h2" sx={{ mb: 1 }}>
        History
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Interface profile revisions">
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>Revision</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Saved</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>By</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Identity (MSH-3 / MSH-4)</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Destination</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>Change note</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {history.map((revision) => (
              <TableRow key={revision.id}>
                <TableCell component="th" scope="row">
                  {revision.revision}
                </TableCell>
                <TableCell>
                  <ZonedDateTime value={revision.createdAt} timeZone={client.timezone} />
                </TableCell>
                <TableCell>{profileAuthorName(revision.author)}</TableCell>
                <TableCell>{`${revision.sendingApplication} / ${revision.sendingFacility}`}</TableCell>
                <TableCell>{describeDestination(revision.destination)}</TableCell>
                <TableCell>{revision.changeNote}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
