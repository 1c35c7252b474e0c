import Replay from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import { type Hl7MessageDetail, pages } from "@vigil/contract";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { ApiRequestError } from "../../../lib/api-client";
import { useReplayHl7Message } from "../api/message-log-replay";
import { statusLabels } from "../message-log-labels";

/** What a replay does, said before it is confirmed. */
function consequence(message: Hl7MessageDetail): string {
  if (message.direction === "inbound") {
    return (
      "The message is processed again as if it had just arrived, and logged as a new message that names this one. " +
      "An order already made into a case is found by its order number, so no second case is created."
    );
  }
  return (
    "The message is sent to the hospital again with the same control id (MSH-10), so the hospital's system can " +
    "recognise it as the same message."
  );
}

/**
 * Replay (administrators): asks first, then shows what came of it — the new log row with its status, or why the
 * server refused. Audited on the server.
 */
export function MessageLogReplay({ message }: { message: Hl7MessageDetail }) {
  const replay = useReplayHl7Message();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Hl7MessageDetail | null>(null);

  const close = () => {
    setAsking(false);
    replay.reset();
  };
  const confirm = () =>
    replay.mutate(message.id, {
      onSuccess: (row) => {
        setOutcome(row);
        setAsking(false);
      },
    });
  const failure =
    replay.error instanceof ApiRequestError
      ? replay.error.body.message
      : replay.error
        ? "The replay could not be sent; try again."
        : null;
  const verb = message.direction === "inbound" ? "Process again" : "Send again";

  return (
    <>
      <Button
        variant="outlined"
        startIcon={<Replay />}
        onClick={() => {
          setOutcome(null);
          setAsking(true);
        }}
      >
        Replay
      </Button>
      {outcome ? (
        <Alert
          severity={statusLabels[outcome.status].color === "error" ? "warning" : "success"}
          role="status"
          onClose={() => setOutcome(null)}
          sx={{ mt: 2 }}
        >
          Replayed: {statusLabels[outcome.status].label}
          {outcome.ackCode ? `, acknowledged ${outcome.ackCode}` : ""}
          {outcome.error ? ` — ${outcome.error}` : ""}.{" "}
          {outcome.id !== message.id ? (
            <Link component={RouterLink} to={pages["interface-message-detail"].href({ messageId: outcome.id })}>
              Open the replay
            </Link>
          ) : null}
        </Alert>
      ) : null}
      <ConfirmDialog
        open={asking}
        title={`Replay ${message.messageType} ${message.controlId}?`}
        confirmLabel={verb}
        pending={replay.isPending}
        error={failure}
        onConfirm={confirm}
        onClose={close}
      >
        {consequence(message)} The replay is recorded in the audit log.
      </ConfirmDialog>
    </>
  );
}
