import PersonAdd from "@mui/icons-material/PersonAdd";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueries } from "@tanstack/react-query";
import { type CaseListItem, caseStages, pages, type TechnologistLoad } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { useTechnologists } from "../../../api/list-technologists";
import { useAccess } from "../../../components/access/access-context";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { ClientFilterField, TechnologistFilterField } from "../../../components/forms/filter-fields";
import { personOptions, SelectField } from "../../../components/forms/select-field";
import { PageHeading } from "../../../components/layouts/page-heading";
import { ServerTable, type ServerTableColumn } from "../../../components/tables/server-table";
import { tableQueryProps, useTableSearch } from "../../../components/tables/use-table-search";
import { useAssignments } from "../api/list-assignments";
import { caseQueueQueryOptions } from "../api/list-case-queue";
import { useTakeCaseAction } from "../api/take-case-action";
import { personName, stageLabel } from "../case-labels";
import { PriorityChip } from "./priority-chip";

/** Technologists are assigned to cases that still need monitoring. */
const assignableStages = ["intake", "monitoring"] as const;

type AssignmentRow = TechnologistLoad["assignments"][number];

function EndAssignmentButton({ assignment, technologist }: { assignment: AssignmentRow; technologist: string }) {
  const take = useTakeCaseAction();
  const [open, setOpen] = useState(false);
  const failure = apiErrorOf(take.error);
  return (
    <>
      <Button
        size="small"
        color="error"
        onClick={() => setOpen(true)}
        aria-label={`End assignment of ${technologist} to ${assignment.caseNumber}`}
      >
        End
      </Button>
      <ConfirmDialog
        open={open}
        title={`End ${technologist}'s assignment to ${assignment.caseNumber}?`}
        confirmLabel="End assignment"
        destructive
        pending={take.isPending}
        error={failure ? `Not ended: ${failure.message}` : null}
        onConfirm={() =>
          take.mutate(
            { caseId: assignment.caseId, request: { action: "end-assignment", assignmentId: assignment.assignmentId } },
            { onSuccess: () => setOpen(false) },
          )
        }
        onClose={() => {
          setOpen(false);
          take.reset();
        }}
      >
        {technologist} stops working on this case; the assignment stays on the case's timeline.
      </ConfirmDialog>
    </>
  );
}

/** Open cases a technologist can be assigned to: the intake and monitoring queues (STAT first), 200 of each. */
function useAssignableCases(enabled: boolean) {
  return useQueries({
    queries: assignableStages.map((stage) => ({
      ...caseQueueQueryOptions(stage, { sort: "priority", order: "asc", limit: 200, offset: 0 }),
      enabled,
    })),
    combine: (results) => ({
      cases: results.flatMap((result) => result.data?.items ?? []) as CaseListItem[],
      pending: results.some((result) => result.isPending),
    }),
  });
}

function AssignDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const technologists = useTechnologists({ enabled: open });
  const assignable = useAssignableCases(open);
  const take = useTakeCaseAction();
  const [technologistId, setTechnologistId] = useState("");
  const [caseId, setCaseId] = useState("");
  const [touched, setTouched] = useState(false);
  const failure = apiErrorOf(take.error);
  const close = () => {
    setTechnologistId("");
    setCaseId("");
    setTouched(false);
    take.reset();
    onClose();
  };
  return (
    <ConfirmDialog
      open={open}
      title="Assign a technologist"
      confirmLabel="Assign"
      pending={take.isPending}
      error={failure ? `Not assigned: ${failure.message}` : null}
      onConfirm={() => {
        setTouched(true);
        if (!technologistId || !caseId) return;
        take.mutate({ caseId, request: { action: "assign-technologist", technologistId } }, { onSuccess: close });
      }}
      onClose={close}
    >
      <Stack spacing={2} sx={{ mt: 1 }}>
        <SelectField
          label="Technologist"
          required
          value={technologistId}
          onChange={setTechnologistId}
          error={touched && !technologistId}
          helperText={touched && !technologistId ? "Technologist is required" : undefined}
          emptyLabel="Choose…"
          options={personOptions(technologists.data)}
        />
        <SelectField
          label="Case"
          required
          value={caseId}
          onChange={setCaseId}
          error={touched && !caseId}
          helperText={
            touched && !caseId ? "Case is required" : assignable.pending ? "Loading cases…" : "Intake and monitoring"
          }
          emptyLabel="Choose…"
          options={assignable.cases.map((row) => ({
            value: row.id,
            label: `${row.priority === "stat" ? "STAT · " : ""}${row.caseNumber} · ${row.patientName ?? "no patient"} · ${row.clientName} (${stageLabel(row.stage)})`,
          }))}
        />
      </Stack>
    </ConfirmDialog>
  );
}

/**
 * `/continuous-monitoring/cases/assignments`: each technologist with active assignments, their load and cases;
 * coordinators assign technologists and end assignments (after a confirmation).
 */
export function CaseAssignmentsPage() {
  const { can } = useAccess();
  const canAssign = can("cases:assign");
  const table = useTableSearch({ technologist: "", client: "", page: "0", size: "25" });
  const { search, setSearch } = table;
  const assignments = useAssignments({
    technologistId: search.technologist || undefined,
    clientId: search.client || undefined,
    ...table.range,
  });
  const [assigning, setAssigning] = useState(false);

  const columns: ServerTableColumn<TechnologistLoad>[] = [
    { id: "technologist", header: "Technologist", cell: (row) => personName(row.technologist) },
    {
      id: "load",
      header: "Load",
      cell: (row) => (
        <>
          {row.load.active} active
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: "block" }}>
            {row.load.monitoring} monitoring · {row.load.stat} STAT
          </Typography>
        </>
      ),
    },
    {
      id: "cases",
      header: "Cases",
      cell: (row) => (
        <Box component="ul" sx={{ m: 0, p: 0, listStyle: "none" }}>
          {row.assignments.map((assignment) => (
            <Stack
              component="li"
              key={assignment.assignmentId}
              direction="row"
              spacing={1}
              sx={{ alignItems: "center" }}
            >
              <Link
                component={RouterLink}
                to={
                  (caseStages as readonly string[]).includes(assignment.stage)
                    ? pages[`case-${assignment.stage}-detail` as const].href({
                        caseId: assignment.caseId,
                        tab: "overview",
                      })
                    : "#"
                }
              >
                {assignment.caseNumber}
              </Link>
              <PriorityChip priority={assignment.priority} />
              <Typography variant="body2" color="text.secondary">
                {stageLabel(assignment.stage)} · {assignment.patientName ?? "—"} · {assignment.clientName}
              </Typography>
              {canAssign ? (
                <EndAssignmentButton assignment={assignment} technologist={personName(row.technologist)} />
              ) : null}
            </Stack>
          ))}
        </Box>
      ),
    },
  ];

  return (
    <>
      <PageHeading>Assignments</PageHeading>
      <Stack direction="row" sx={{ mb: 2, gap: 2, flexWrap: "wrap", alignItems: "center" }}>
        <TechnologistFilterField
          value={search.technologist}
          onChange={(technologist) => setSearch({ technologist, page: null })}
          emptyLabel="Everyone"
          sx={{ minWidth: 200 }}
        />
        <ClientFilterField
          value={search.client}
          onChange={(client) => setSearch({ client, page: null })}
          sx={{ minWidth: 200 }}
        />
        {canAssign ? (
          <Button
            variant="contained"
            startIcon={<PersonAdd />}
            onClick={() => setAssigning(true)}
            sx={{ ml: { md: "auto" } }}
          >
            Assign technologist
          </Button>
        ) : null}
      </Stack>
      <ServerTable
        label="Technologist assignments"
        columns={columns}
        rowKey={(row) => row.technologist.sub ?? row.technologist.username}
        {...table.pager}
        {...tableQueryProps(assignments)}
        errorMessage="The assignments could not be loaded."
        emptyMessage="No technologist has an active assignment."
      />
      {canAssign ? <AssignDialog open={assigning} onClose={() => setAssigning(false)} /> : null}
    </>
  );
}
