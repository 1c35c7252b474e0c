import Alert from "@mui/material/Alert";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ClockState, ServiceClock } from "@vigil/contract";
import {
  clockKindLabels,
  clockStateColors,
  clockStateLabels,
  runningClockStateAt,
} from "../../../components/clocks/clock-labels";
import { countdownText, formatDuration } from "../../../components/clocks/format-duration";
import { useNow } from "../../../components/clocks/use-now";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ScrollRegion } from "../../../components/tables/scroll-region";
import { useCaseClocks } from "../api/get-case-clocks";
import { personName } from "../case-labels";

/** The state a clock has reached by `now`: the server's answer ages while the screen stays open. */
export function clockStateNow(clock: ServiceClock, now: number): ClockState {
  // Stopped, or lapsed (a STAT case reviewed untaken): the server's verdict stands.
  if (clock.stoppedAt || clock.state === "missed") return clock.state;
  return runningClockStateAt(clock, now);
}

/** "took 1 min 15 s, late by 15 s": a stopped clock's measure, by the watch's one duration format. */
function stoppedText(clock: ServiceClock & { stoppedAt: string }): string {
  const stopped = Date.parse(clock.stoppedAt);
  const taken = `took ${formatDuration((stopped - Date.parse(clock.startedAt)) / 1000)}`;
  const late = stopped - Date.parse(clock.dueAt);
  return late > 0 ? `${taken}, late by ${formatDuration(late / 1000)}` : taken;
}

function ownerText(clock: ServiceClock): string {
  return clock.owner.kind === "user" ? personName(clock.owner.user) : "Coordinators";
}

/** What the case owes its client and by when (PRODUCT.md §10), counting down while the page is open. */
export function CaseClocksCard({ caseId, timeZone }: { caseId: string; timeZone: string }) {
  const { data, isPending, isError } = useCaseClocks(caseId);
  // Every second: under an hour the countdown shows seconds.
  const now = useNow(1_000);
  return (
    <Paper variant="outlined" sx={{ px: { xs: 2, sm: 3 }, py: 1 }}>
      <Typography variant="h6" component="h2" sx={{ pt: 1 }}>
        Service clocks
      </Typography>
      {isPending ? (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          Loading the clocks…
        </Typography>
      ) : isError ? (
        <Alert severity="error" sx={{ my: 1 }}>
          The service clocks could not be loaded.
        </Alert>
      ) : data.clocks.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 1 }}>
          No clock runs for this case in its stage.
        </Typography>
      ) : (
        // A phone is narrower than the four columns: the table scrolls in its own box, not the page.
        <ScrollRegion label="Service clocks">
          <Table size="small" aria-label="Service clocks">
            <TableHead>
              <TableRow>
                <TableCell>Promise</TableCell>
                <TableCell>State</TableCell>
                <TableCell>Due</TableCell>
                <TableCell>Next step</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.clocks.map((clock) => {
                const state = clockStateNow(clock, now);
                return (
                  <TableRow key={`${clock.kind}:${clock.startedAt}`}>
                    <TableCell>{clockKindLabels[clock.kind]}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        variant="outlined"
                        color={clockStateColors[state]}
                        label={clockStateLabels[state]}
                      />
                    </TableCell>
                    <TableCell>
                      <ZonedDateTime value={clock.dueAt} timeZone={timeZone} />
                      {clock.stoppedAt ? (
                        <Typography variant="body2" color="text.secondary">
                          done <ZonedDateTime value={clock.stoppedAt} timeZone={timeZone} />;{" "}
                          {stoppedText({ ...clock, stoppedAt: clock.stoppedAt })}
                        </Typography>
                      ) : state === "missed" ? null : (
                        <Typography variant="body2" color={state === "ok" ? "text.secondary" : "inherit"}>
                          {countdownText(clock.dueAt, now)}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell>{clock.stoppedAt || state === "missed" ? "—" : ownerText(clock)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </ScrollRegion>
      )}
    </Paper>
  );
}
