import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type {
  AllowedAction,
  AllowedTransition,
  Case,
  CaseActionName,
  CaseAssignment,
  CaseTransition,
  TransitionActionName,
} from "@vigil/contract";
import { type ReactNode, useId, useState } from "react";
import { useReviewers } from "../../../api/list-reviewers";
import { useTechnologists } from "../../../api/list-technologists";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { ReasonDialog } from "../../../components/feedback/reason-dialog";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { personOptions, SelectField } from "../../../components/forms/select-field";
import { useRequestTransition } from "../api/request-transition";
import { useTakeCaseAction } from "../api/take-case-action";
import { useTakeTransitionAction } from "../api/take-transition-action";
import { personName, priorityLabels, stageLabel } from "../case-labels";

/** Why a move or action cannot be taken now, in the server's words. */
function Reasons({ id, checks }: { id: string; checks: { message: string }[] }) {
  if (checks.length === 0) return null;
  return (
    <Typography id={id} variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
      Not possible yet: {checks.map((check) => check.message).join(" ")}
    </Typography>
  );
}

/** A button that is disabled with its reason under it when a precondition fails. */
function GuardedButton({
  label,
  allowed,
  failedChecks,
  onClick,
  variant = "outlined",
  color = "primary",
}: {
  label: string;
  allowed: boolean;
  failedChecks: { message: string }[];
  onClick: () => void;
  variant?: "outlined" | "contained";
  color?: "primary" | "error" | "warning";
}) {
  const reasonId = useId();
  return (
    <Box>
      <Button
        variant={variant}
        color={color}
        disabled={!allowed}
        onClick={onClick}
        aria-describedby={!allowed && failedChecks.length ? reasonId : undefined}
      >
        {label}
      </Button>
      {allowed ? null : <Reasons id={reasonId} checks={failedChecks} />}
    </Box>
  );
}

function refusal(error: unknown, what: string): string | null {
  const body = apiErrorOf(error);
  return body ? `${what} was refused: ${body.message}` : null;
}

function TransitionButton({ item, move }: { item: Case; move: AllowedTransition }) {
  const transition = useRequestTransition();
  const [asking, setAsking] = useState(false);
  const request = (reason?: string) =>
    transition.mutate(
      { caseId: item.id, request: { to: move.to, reason: reason ?? null, version: item.version } },
      { onSuccess: () => setAsking(false) },
    );
  const error = refusal(transition.error, move.needsApproval ? "The request" : "The move");
  const needsDialog = move.reasonRequired || move.needsApproval;
  return (
    <Box>
      <GuardedButton
        label={transition.isPending && !needsDialog ? `${move.label}…` : move.label}
        allowed={move.allowed && !transition.isPending}
        failedChecks={move.failedChecks}
        variant="contained"
        onClick={() => {
          transition.reset();
          if (needsDialog) setAsking(true);
          else request();
        }}
      />
      {error && !asking ? (
        <Alert severity="error" role="alert" sx={{ mt: 1 }} onClose={() => transition.reset()}>
          {error}
        </Alert>
      ) : null}
      <ReasonDialog
        open={asking}
        title={`${move.label}: ${item.caseNumber}`}
        confirmLabel={move.needsApproval ? "Send request" : move.label}
        required={move.reasonRequired}
        pending={transition.isPending}
        error={error}
        onConfirm={(reason) => request(reason || undefined)}
        onClose={() => {
          setAsking(false);
          transition.reset();
        }}
      >
        {move.needsApproval
          ? `The case moves from ${stageLabel(item.stage)} to ${stageLabel(move.to)} once an administrator approves.`
          : `The case moves from ${stageLabel(item.stage)} to ${stageLabel(move.to)}.`}
        {move.reasonRequired ? " Say why; the reason is kept on the case's timeline." : ""}
      </ReasonDialog>
    </Box>
  );
}

const transitionActionVerbs: Record<TransitionActionName, string> = {
  approve: "Approve",
  reject: "Reject",
  cancel: "Cancel request",
  comment: "Comment",
};

function PendingTransition({ item, pending }: { item: Case; pending: CaseTransition }) {
  const act = useTakeTransitionAction();
  const [asking, setAsking] = useState<TransitionActionName | null>(null);
  const zone = item.client.timezone;
  const run = (action: TransitionActionName, comment?: string) =>
    act.mutate(
      { caseId: item.id, transitionId: pending.id, request: { action, comment: comment || null } },
      { onSuccess: () => setAsking(null) },
    );
  const error = refusal(act.error, "That");
  const actions = pending.allowedActions;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      <AlertTitle>
        Pending: {stageLabel(pending.from)} → {stageLabel(pending.to)}, waiting for an administrator's approval
      </AlertTitle>
      Requested by {personName(pending.requestedBy)}, <ZonedDateTime value={pending.requestedAt} timeZone={zone} />
      {pending.reason ? <Box sx={{ mt: 0.5 }}>Reason: {pending.reason}</Box> : null}
      {actions.length ? (
        <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: "wrap" }}>
          {actions.map((action) => (
            <Button
              key={action}
              size="small"
              variant={action === "approve" ? "contained" : "outlined"}
              color={action === "reject" ? "error" : "primary"}
              onClick={() => {
                act.reset();
                setAsking(action);
              }}
            >
              {transitionActionVerbs[action]}
            </Button>
          ))}
        </Stack>
      ) : null}
      {error && !asking ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ) : null}
      <ReasonDialog
        open={asking !== null}
        title={`${asking ? transitionActionVerbs[asking] : ""}: ${item.caseNumber}`}
        confirmLabel={asking ? transitionActionVerbs[asking] : "OK"}
        label="Comment"
        required={asking === "comment"}
        destructive={asking === "reject" || asking === "cancel"}
        pending={act.isPending}
        error={error}
        onConfirm={(comment) => asking && run(asking, comment)}
        onClose={() => {
          setAsking(null);
          act.reset();
        }}
      >
        {asking === "approve"
          ? `The case moves to ${stageLabel(pending.to)} now.`
          : asking === "reject"
            ? `The case stays in ${stageLabel(pending.from)}; the requester sees your comment.`
            : asking === "cancel"
              ? "The request is withdrawn; the case stays where it is."
              : "Your comment is added to the request's timeline."}
      </ReasonDialog>
    </Alert>
  );
}

function PersonPickerDialog({
  open,
  title,
  label,
  people,
  loading,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  people: { id: string; name: string; username: string }[] | undefined;
  loading: boolean;
  confirmLabel: string;
  pending: boolean;
  error: string | null;
  onConfirm: (id: string) => void;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState("");
  const [touched, setTouched] = useState(false);
  const problem = chosen ? undefined : `${label} is required`;
  return (
    <ConfirmDialog
      open={open}
      title={title}
      confirmLabel={confirmLabel}
      pending={pending}
      error={error}
      onConfirm={() => {
        setTouched(true);
        if (!problem) onConfirm(chosen);
      }}
      onClose={() => {
        setChosen("");
        setTouched(false);
        onClose();
      }}
    >
      <SelectField
        label={label}
        value={chosen}
        onChange={(value) => {
          setChosen(value);
          setTouched(true);
        }}
        fullWidth
        required
        sx={{ mt: 1 }}
        error={touched && Boolean(problem)}
        helperText={touched && problem ? problem : loading ? "Loading…" : undefined}
        emptyLabel="Choose…"
        options={personOptions(people)}
      />
    </ConfirmDialog>
  );
}

function ActionButton({ item, action }: { item: Case; action: AllowedAction }) {
  const take = useTakeCaseAction();
  const [open, setOpen] = useState(false);
  const technologists = useTechnologists({ enabled: open && action.action === "assign-technologist" });
  const reviewers = useReviewers({ enabled: open && action.action === "assign-reviewer" });
  const error = refusal(take.error, action.label);
  const close = () => {
    setOpen(false);
    take.reset();
  };
  const done = { onSuccess: () => setOpen(false) };
  const version = item.version;
  const otherPriority = item.priority === "stat" ? "routine" : "stat";

  let dialog: ReactNode = null;
  if (action.action === "assign-technologist") {
    dialog = (
      <PersonPickerDialog
        open={open}
        title={`Assign a technologist to ${item.caseNumber}`}
        label="Technologist"
        people={technologists.data?.filter(
          (person) => !item.technologists.some((assignment) => assignment.technologist.sub === person.id),
        )}
        loading={technologists.isPending}
        confirmLabel="Assign"
        pending={take.isPending}
        error={error}
        onConfirm={(technologistId) =>
          take.mutate({ caseId: item.id, request: { action: "assign-technologist", technologistId, version } }, done)
        }
        onClose={close}
      />
    );
  } else if (action.action === "assign-reviewer") {
    dialog = (
      <PersonPickerDialog
        open={open}
        title={`Assign a reviewer to ${item.caseNumber}`}
        label="Reviewer"
        people={reviewers.data}
        loading={reviewers.isPending}
        confirmLabel="Assign"
        pending={take.isPending}
        error={error}
        onConfirm={(reviewerId) =>
          take.mutate({ caseId: item.id, request: { action: "assign-reviewer", reviewerId, version } }, done)
        }
        onClose={close}
      />
    );
  } else if (action.action === "set-priority") {
    dialog = (
      <ConfirmDialog
        open={open}
        title={`Make ${item.caseNumber} ${priorityLabels[otherPriority]}?`}
        confirmLabel={`Set ${priorityLabels[otherPriority]}`}
        pending={take.isPending}
        error={error}
        onConfirm={() =>
          take.mutate({ caseId: item.id, request: { action: "set-priority", priority: otherPriority, version } }, done)
        }
        onClose={close}
      >
        {otherPriority === "stat"
          ? "STAT cases come first in every queue and wait for a reviewer to acknowledge them."
          : "The case joins the routine order of its queue."}
      </ConfirmDialog>
    );
  } else if (action.action === "acknowledge") {
    dialog = (
      <ConfirmDialog
        open={open}
        title={`Take STAT case ${item.caseNumber}?`}
        confirmLabel="Acknowledge"
        pending={take.isPending}
        error={error}
        onConfirm={() => take.mutate({ caseId: item.id, request: { action: "acknowledge", version } }, done)}
        onClose={close}
      >
        You become its reviewer and the others see that it is taken.
      </ConfirmDialog>
    );
  }
  const label = action.action === "set-priority" ? `Set priority: ${priorityLabels[otherPriority]}` : action.label;
  return (
    <>
      <GuardedButton
        label={label}
        allowed={action.allowed}
        failedChecks={action.failedChecks}
        onClick={() => {
          take.reset();
          setOpen(true);
        }}
      />
      {dialog}
    </>
  );
}

function EndAssignmentButton({ item, assignment }: { item: Case; assignment: CaseAssignment }) {
  const take = useTakeCaseAction();
  const [open, setOpen] = useState(false);
  const name = personName(assignment.technologist);
  return (
    <>
      <Button size="small" color="error" onClick={() => setOpen(true)} aria-label={`End assignment of ${name}`}>
        End assignment
      </Button>
      <ConfirmDialog
        open={open}
        title={`End ${name}'s assignment?`}
        confirmLabel="End assignment"
        destructive
        pending={take.isPending}
        error={refusal(take.error, "Ending the assignment")}
        onConfirm={() =>
          take.mutate(
            {
              caseId: item.id,
              request: { action: "end-assignment", assignmentId: assignment.id, version: item.version },
            },
            { onSuccess: () => setOpen(false) },
          )
        }
        onClose={() => {
          setOpen(false);
          take.reset();
        }}
      >
        {name} stops working on {item.caseNumber}; the assignment stays on the case's timeline.
      </ConfirmDialog>
    </>
  );
}

const headerActions: readonly CaseActionName[] = [
  "assign-technologist",
  "assign-reviewer",
  "set-priority",
  "acknowledge",
];

/**
 * Acknowledging means something only for a STAT case before review (PRODUCT.md §10): on a routine or reviewed case
 * it would only ever show disabled, so it is not offered there at all. Taken already, it stays, disabled, saying who
 * took it.
 */
function offersAcknowledge(item: Case, action: AllowedAction): boolean {
  return item.priority === "stat" && !action.failedChecks.some((failed) => failed.check === "before-review");
}

/**
 * What this user may do with the case now, exactly as the server computed it (`allowedTransitions`,
 * `allowedActions`): moves and actions whose precondition fails show disabled with the reason; nothing the
 * user's groups do not allow is shown at all.
 */
export function CaseWorkflow({ item }: { item: Case }) {
  const moves = item.allowedTransitions;
  const actions = item.allowedActions.filter(
    (action) =>
      headerActions.includes(action.action) && (action.action !== "acknowledge" || offersAcknowledge(item, action)),
  );
  const endAssignment = item.allowedActions.find((action) => action.action === "end-assignment");
  const zone = item.client.timezone;
  const nothing = moves.length === 0 && actions.length === 0 && !endAssignment;
  return (
    <Box className="vigil-no-print" sx={{ mb: 2 }}>
      {item.pendingTransition ? <PendingTransition item={item} pending={item.pendingTransition} /> : null}
      {nothing ? null : (
        <Paper variant="outlined" component="section" aria-label="What you can do" sx={{ p: 2 }}>
          {moves.length ? (
            <>
              <Typography variant="subtitle2" component="h2" gutterBottom>
                Move the case
              </Typography>
              <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap", alignItems: "flex-start", mb: 1 }} useFlexGap>
                {moves.map((move) => (
                  <TransitionButton key={move.ruleId} item={item} move={move} />
                ))}
              </Stack>
            </>
          ) : null}
          {actions.length ? (
            <>
              <Typography variant="subtitle2" component="h2" gutterBottom sx={{ mt: moves.length ? 1 : 0 }}>
                Case actions
              </Typography>
              <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap", alignItems: "flex-start" }} useFlexGap>
                {actions.map((action) => (
                  <ActionButton key={action.action} item={item} action={action} />
                ))}
              </Stack>
            </>
          ) : null}
          {endAssignment && item.technologists.length ? (
            <>
              <Typography variant="subtitle2" component="h2" sx={{ mt: 1 }}>
                Active assignments
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2 }}>
                {item.technologists.map((assignment) => (
                  <li key={assignment.id}>
                    {personName(assignment.technologist)}, since{" "}
                    <ZonedDateTime value={assignment.startedAt} timeZone={zone} />{" "}
                    {endAssignment.allowed ? <EndAssignmentButton item={item} assignment={assignment} /> : null}
                  </li>
                ))}
              </Box>
            </>
          ) : null}
        </Paper>
      )}
    </Box>
  );
}
