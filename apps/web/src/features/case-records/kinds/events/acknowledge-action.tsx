import TaskAlt from "@mui/icons-material/TaskAlt";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import type { Case, EventItem, EventList } from "@vigil/contract";
import { useId } from "react";
import { Dialog } from "../../../../components/feedback/dialog";
import { RecordConflictPanel } from "../../components/record-conflict";
import { useRecordRevise } from "../../components/use-record-revise";
import { flattenEvent } from "./event-labels";

/**
 * One click when the notified person calls back: a revision with `acknowledgedAt` = now. Someone else's newer
 * revision is shown before anything is re-applied on top of it.
 */
export function AcknowledgeAction({ item, caseItem, list }: { item: EventItem; caseItem: Case; list: EventList }) {
  const revise = useRecordRevise("event", caseItem.id);
  const titleId = useId();
  const notification = item.data.notification;
  if (!list.write.allowed || !notification || notification.acknowledgedAt) return null;

  const acknowledge = () =>
    void revise.revise(item, {
      change: "edit",
      data: { ...item.data, notification: { ...notification, acknowledgedAt: new Date().toISOString() } },
    });
  const conflict = revise.conflict;
  return (
    <>
      <Button size="small" startIcon={<TaskAlt />} onClick={acknowledge} disabled={revise.pending}>
        Mark acknowledged
      </Button>
      {revise.failure ? (
        <Alert severity="error" onClose={revise.dismiss} sx={{ py: 0 }}>
          Not acknowledged: {revise.failure.message}
        </Alert>
      ) : null}
      {conflict ? (
        <Dialog open onClose={revise.dismiss} aria-labelledby={titleId} maxWidth="md" fullWidth>
          <DialogTitle id={titleId}>Acknowledge this notification</DialogTitle>
          <DialogContent dividers>
            <RecordConflictPanel
              noun="event"
              caseItem={caseItem}
              theirs={conflict.theirs}
              mine={"data" in conflict.request ? conflict.request.data : undefined}
              flatten={flattenEvent}
              busy={revise.pending}
              onReapply={() => void revise.retryOnTheirs()}
              onDiscard={revise.dismiss}
            />
          </DialogContent>
        </Dialog>
      ) : null}
    </>
  );
}
