import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { coordinatorsOwner, pages } from "@vigil/contract";
import { useId } from "react";
import { Link as RouterLink } from "react-router";
import { useWatchBoard, type WatchBoardParams } from "../../../api/get-watch-board";
import { useAccess } from "../../../components/access/access-context";
import { useNow } from "../../../components/clocks/use-now";
import { BoardTable } from "./board-table";
import { ownsClocks } from "./owns-clocks";

/** How many rows the home page leads with. */
export const homeLeadRows = 5;

/**
 * Whose part of the board the home page leads with: a technologist's or reviewer's own clocks; a coordinator's
 * desk (the clocks nobody is assigned to, plus every open critical finding and every clock due soon or overdue).
 * Others: none. Open critical findings come first either way (the server's order).
 */
export function homeLeadOf(
  groups: readonly string[] | undefined,
): { params: WatchBoardParams; title: string; boardQuery: Record<string, string> } | undefined {
  if (ownsClocks(groups)) {
    return {
      params: { mine: true, limit: homeLeadRows, offset: 0 },
      title: "What is due next for you",
      boardQuery: { mine: "true" },
    };
  }
  if (groups?.includes("coordinator")) {
    return {
      params: { owner: coordinatorsOwner, alsoDueSoon: true, limit: homeLeadRows, offset: 0 },
      title: "What is due next: critical findings, unassigned, due soon and overdue",
      boardQuery: {},
    };
  }
  return undefined;
}

/** The home page's lead for those who work cases: the first rows of their part of the board, and the way to it. */
export function WatchHomeLead() {
  const { groups } = useAccess();
  const lead = homeLeadOf(groups);
  if (!lead) return null;
  return <Lead lead={lead} />;
}

function Lead({ lead }: { lead: NonNullable<ReturnType<typeof homeLeadOf>> }) {
  const id = useId();
  const board = useWatchBoard(lead.params);
  // Every second: under an hour a countdown shows seconds.
  const now = useNow(1_000);
  const total = board.data?.total ?? 0;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ mb: 3 }}>
      <Stack
        direction="row"
        sx={{ px: 2, pt: 2, pb: 1, gap: 2, flexWrap: "wrap", alignItems: "baseline", justifyContent: "space-between" }}
      >
        <Typography id={id} variant="h6" component="h2">
          {lead.title}
        </Typography>
        <Link component={RouterLink} to={pages["watch-board"].href(undefined, lead.boardQuery)}>
          {total > homeLeadRows ? `All ${total} on the watch board` : "Open the watch board"}
        </Link>
      </Stack>
      <BoardTable
        label={lead.title}
        rows={board.data?.items}
        now={now}
        loading={board.isPending}
        error={board.error}
        onRetry={() => void board.refetch()}
        emptyMessage="Nothing is due for you now."
        compact
      />
    </Paper>
  );
}
