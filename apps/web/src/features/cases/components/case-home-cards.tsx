import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useQueries } from "@tanstack/react-query";
import { type CaseStage, caseStages, pages } from "@vigil/contract";
import { type ReactNode, useId } from "react";
import { Link as RouterLink } from "react-router";
import { useAccess } from "../../../components/access/access-context";
import { useAssignments } from "../api/list-assignments";
import { caseQueueQueryOptions } from "../api/list-case-queue";
import type { CaseQueueParams } from "../api/query-keys";
import { stageLabel } from "../case-labels";
import { PriorityChip } from "./priority-chip";

const countOnly: CaseQueueParams = { sort: "priority", order: "asc", limit: 1, offset: 0 };
const waitingStages = ["intake", "monitoring", "preview"] as const satisfies readonly CaseStage[];

function HomeCard({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: 2 }}>
      <Typography id={id} variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function Count({ value, failed }: { value: number | undefined; failed: boolean }) {
  if (failed) return <span>—</span>;
  if (value === undefined) return <Skeleton variant="text" width={24} sx={{ display: "inline-block" }} />;
  return <strong>{value}</strong>;
}

function CountLinks({
  rows,
}: {
  rows: { key: string; label: string; to: string; value: number | undefined; failed: boolean }[];
}) {
  return (
    <List dense disablePadding>
      {rows.map((row) => (
        <ListItem key={row.key} disableGutters sx={{ justifyContent: "space-between" }}>
          <Link component={RouterLink} to={row.to}>
            {row.label}
          </Link>
          <Count value={row.value} failed={row.failed} />
        </ListItem>
      ))}
    </List>
  );
}

function StageCounts() {
  const results = useQueries({ queries: caseStages.map((stage) => caseQueueQueryOptions(stage, countOnly)) });
  return (
    <HomeCard title="Cases by stage">
      <CountLinks
        rows={caseStages.map((stage, index) => ({
          key: stage,
          label: stageLabel(stage),
          to: pages[`cases-${stage}` as const].href(),
          value: results[index]?.data?.total,
          failed: Boolean(results[index]?.isError),
        }))}
      />
    </HomeCard>
  );
}

function StatWaiting() {
  const results = useQueries({
    queries: waitingStages.map((stage) => caseQueueQueryOptions(stage, { ...countOnly, priority: "stat" })),
  });
  return (
    <HomeCard title="STAT cases waiting">
      <CountLinks
        rows={waitingStages.map((stage, index) => ({
          key: stage,
          label: `STAT in ${stageLabel(stage).toLowerCase()}`,
          to: pages[`cases-${stage}` as const].href({}, { priority: "stat" }),
          value: results[index]?.data?.total,
          failed: Boolean(results[index]?.isError),
        }))}
      />
    </HomeCard>
  );
}

function MyAssignments({ userSub }: { userSub: string }) {
  const mine = useAssignments({ technologistId: userSub, limit: 1, offset: 0 });
  const load = mine.data?.items[0];
  return (
    <HomeCard title="My assignments">
      {mine.isPending ? (
        <Skeleton variant="text" />
      ) : mine.isError ? (
        <Typography color="error">Your assignments could not be loaded.</Typography>
      ) : !load || load.assignments.length === 0 ? (
        <Typography color="text.secondary">No case is assigned to you.</Typography>
      ) : (
        <List dense disablePadding>
          {load.assignments.map((assignment) => (
            <ListItem key={assignment.assignmentId} disableGutters sx={{ gap: 1 }}>
              <Link
                component={RouterLink}
                to={pages[`case-${assignment.stage}-detail` as const].href({
                  caseId: assignment.caseId,
                  tab: "overview",
                })}
              >
                {assignment.caseNumber}
              </Link>
              <PriorityChip priority={assignment.priority} />
              <Typography variant="body2" color="text.secondary">
                {stageLabel(assignment.stage)} · {assignment.patientName ?? "—"}
              </Typography>
            </ListItem>
          ))}
        </List>
      )}
      <Link component={RouterLink} to={pages["cases-assignments"].href({}, { technologist: userSub })}>
        All my assignments
      </Link>
    </HomeCard>
  );
}

/** Re-opening a closed case is the move that waits for an administrator; such cases stay in the closed queue. */
function WaitingForApproval() {
  const [closed] = useQueries({
    queries: [caseQueueQueryOptions("closed", { sort: "updatedAt", order: "desc", limit: 200, offset: 0 })],
  });
  const pending = closed?.data?.items.filter((item) => item.hasPendingTransition);
  return (
    <HomeCard title="Waiting for your approval">
      {closed?.isPending ? (
        <Skeleton variant="text" />
      ) : closed?.isError ? (
        <Typography color="error">The requests could not be loaded.</Typography>
      ) : !pending || pending.length === 0 ? (
        <Typography color="text.secondary">No move is waiting for approval.</Typography>
      ) : (
        <List dense disablePadding>
          {pending.map((item) => (
            <ListItem key={item.id} disableGutters sx={{ gap: 1 }}>
              <Link
                component={RouterLink}
                to={pages[`case-${item.stage}-detail` as const].href({ caseId: item.id, tab: "overview" })}
              >
                {item.caseNumber}
              </Link>
              <Typography variant="body2" color="text.secondary">
                re-opening requested · {item.clientName}
              </Typography>
            </ListItem>
          ))}
        </List>
      )}
    </HomeCard>
  );
}

/** The home page's case cards, each only for users who may see what it counts. */
export function CaseHomeCards({ userSub }: { userSub: string }) {
  const { can } = useAccess();
  if (!can("cases:read")) return null;
  return (
    <Box
      sx={{
        display: "grid",
        gap: 2,
        mb: 3,
        gridTemplateColumns: { xs: "1fr", md: "repeat(2, 1fr)", lg: "repeat(4, 1fr)" },
      }}
    >
      <StageCounts />
      {can("cases:monitor") ? <MyAssignments userSub={userSub} /> : null}
      <StatWaiting />
      {can("cases:approve") ? <WaitingForApproval /> : null}
    </Box>
  );
}
