import Add from "@mui/icons-material/Add";
import DeleteOutlined from "@mui/icons-material/DeleteOutlined";
import Edit from "@mui/icons-material/Edit";
import History from "@mui/icons-material/History";
import RestoreFromTrash from "@mui/icons-material/RestoreFromTrash";
import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Author, Case, RecordWriteState } from "@vigil/contract";
import { useId, useRef, useState } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { ConfirmDialog } from "../../../components/feedback/confirm-dialog";
import { Dialog } from "../../../components/feedback/dialog";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { QueryError } from "../../../components/feedback/query-error";
import { ReasonDialog } from "../../../components/feedback/reason-dialog";
import { useSearchState, wholeNumber } from "../../../components/tables/use-search-state";
import { useCreateRecord } from "../api/create-record";
import { useRecordHistory } from "../api/get-record-history";
import { useRecordList } from "../api/list-records";
import type { ReapplyResult } from "../reapply-changes";
import { RecordConflictPanel } from "./record-conflict";
import { HistoryDialog, type HistoryRevision } from "./record-history-dialog";
import { authorName, describeRecordFailure, fieldWords, type RecordFailure } from "./record-labels";
import type { RecordView } from "./record-view";
import { useItemRevise } from "./use-record-revise";

/** What every item of every kind carries (the contract's item fields). */
export type TabItem<Data> = {
  id: string;
  revision: number;
  deleted: boolean;
  data: Data;
  updatedAt: string;
  updatedBy: Author;
};

type TabList<Item> = { items: Item[]; total: number; limit: number; offset: number; write: RecordWriteState };

type Body<Data> = { change: "edit"; data: Data; reason?: string } | { change: "delete" | "restore"; reason?: string };

export const recordPageSize = 50;

export function FailureAlert({ failure, what }: { failure: RecordFailure; what: string }) {
  return (
    <Alert severity="error" sx={{ mb: 2 }}>
      <AlertTitle>
        {what}: {failure.message}
      </AlertTitle>
      {failure.issues.length > 0 ? (
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {failure.issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </Box>
      ) : null}
    </Alert>
  );
}

type Editing<Item, Data> =
  | { mode: "add"; key: number }
  | {
      mode: "edit";
      key: number;
      /** The revision the edit builds on (after a re-apply: their newer one). */
      base: Item;
      initial: Data;
      reapplied?: ReapplyResult<Data> & { revision: number };
    };

function ReapplySummary<Data>({ reapplied }: { reapplied: ReapplyResult<Data> & { revision: number } }) {
  const words = (keys: string[]) => keys.map(fieldWords).join(", ");
  return (
    <Alert severity={reapplied.overlapping.length > 0 ? "warning" : "info"} role="status" sx={{ mb: 2 }}>
      <AlertTitle>Your changes are re-applied on top of revision {reapplied.revision}</AlertTitle>
      {reapplied.changed.length > 0
        ? `Yours: ${words(reapplied.changed)}. Everything else is their version. `
        : "You had changed nothing that differs from their version. "}
      {reapplied.overlapping.length > 0
        ? `You both changed ${words(reapplied.overlapping)}; your words are kept — check them before saving.`
        : "Check and save."}
    </Alert>
  );
}

/**
 * One record kind's tab on a case: the summary and toolbar of the kind, its items (current state, last change,
 * revision, deleted mark), and — when the server says the caller may write now — add, edit, delete (asks first)
 * and restore. Every item has its history with a diff between revisions. A stale edit shows both versions and
 * can be re-applied on top of the newer one; nothing typed is lost.
 */
export function RecordTab<Item extends TabItem<Data>, Data extends object, List = unknown>({
  view,
  caseItem,
}: {
  view: RecordView<Item, Data, List>;
  caseItem: Case;
}) {
  const [search, setSearch] = useSearchState({ deleted: "", offset: "0" });
  const includeDeleted = search.deleted === "true";
  const offset = wholeNumber(search.offset, 0);
  const query = useRecordList(view.kind, caseItem.id, { includeDeleted, limit: recordPageSize, offset });
  const create = useCreateRecord(view.kind, caseItem.id);
  const editRevise = useItemRevise<Item, Data, Body<Data>>(view.kind, caseItem.id);
  const itemRevise = useItemRevise<Item, Data, Body<Data>>(view.kind, caseItem.id);
  const [editing, setEditing] = useState<Editing<Item, Data> | null>(null);
  const [createFailure, setCreateFailure] = useState<RecordFailure | null>(null);
  const [reason, setReason] = useState("");
  const [reasonProblem, setReasonProblem] = useState<string | null>(null);
  const reasonRef = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState<{ change: "delete" | "restore"; itemId: string } | null>(null);
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const editorTitleId = useId();
  const zone = caseItem.client.timezone;

  if (query.isPending) return <LoadingScreen label={`Loading ${view.title.toLowerCase()}…`} />;
  if (query.isError) return <QueryError what={view.title} error={query.error} onRetry={() => void query.refetch()} />;

  const list = query.data as unknown as TabList<Item>;
  const kindList = query.data as unknown as List;
  const write = list.write;
  const editable = (item: Item) => view.editable?.(item) ?? true;
  const findItem = (itemId: string) => list.items.find((item) => item.id === itemId);

  const closeEditor = () => {
    setEditing(null);
    setCreateFailure(null);
    setReason("");
    setReasonProblem(null);
    editRevise.dismiss();
    create.reset();
  };

  const submit = async (data: Data) => {
    if (!editing) return;
    if (editing.mode === "add") {
      setCreateFailure(null);
      try {
        await create.mutateAsync(data as never);
        closeEditor();
      } catch (error) {
        setCreateFailure(describeRecordFailure(error));
      }
      return;
    }
    const trimmed = reason.trim();
    if (write.reasonRequired && trimmed === "") {
      setReasonProblem("Reason for the change is required");
      reasonRef.current?.focus();
      return;
    }
    const saved = await editRevise.revise(editing.base, {
      change: "edit",
      data,
      ...(trimmed ? { reason: trimmed } : {}),
    });
    if (saved) closeEditor();
  };

  const reapplyOnTop = () => {
    const conflict = editRevise.conflict;
    const merged = editRevise.reapplied();
    if (!conflict || !merged || !editing) return;
    setEditing({
      mode: "edit",
      key: editing.key + 1,
      base: conflict.theirs,
      initial: merged.data,
      reapplied: { ...merged, revision: conflict.theirs.revision },
    });
    editRevise.dismiss();
  };

  const confirmingItem = confirming ? findItem(confirming.itemId) : undefined;
  const runItemChange = async (change: "delete" | "restore", item: Item, text?: string) => {
    const saved = await itemRevise.revise(item, { change, ...(text ? { reason: text } : {}) });
    if (saved) setConfirming(null);
  };
  const closeConfirm = () => {
    setConfirming(null);
    itemRevise.dismiss();
  };
  const itemChangeError = itemRevise.conflict
    ? `Someone else changed this ${view.noun} first (revision ${itemRevise.conflict.theirs.revision} by ${authorName(
        itemRevise.conflict.theirs.updatedBy,
      )}). Nothing was changed; look at their version, then try again.`
    : itemRevise.failure
      ? `Not done: ${itemRevise.failure.message}`
      : null;

  const firstShown = list.total === 0 ? 0 : list.offset + 1;
  const lastShown = list.offset + list.items.length;
  const historyItem = historyOf ? findItem(historyOf) : undefined;

  return (
    <Stack spacing={2}>
      {view.Summary ? <view.Summary list={kindList} caseItem={caseItem} /> : null}
      {view.Toolbar ? <view.Toolbar list={kindList} caseItem={caseItem} /> : null}
      <Stack direction="row" sx={{ alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        {write.allowed ? (
          <Button variant="contained" startIcon={<Add />} onClick={() => setEditing({ mode: "add", key: 1 })}>
            Add {view.noun}
          </Button>
        ) : write.reason ? (
          <Typography color="text.secondary" variant="body2">
            {write.reason}
          </Typography>
        ) : null}
        <Box sx={{ flexGrow: 1 }} />
        <FormControlLabel
          control={
            <Switch
              checked={includeDeleted}
              onChange={(event) =>
                setSearch({ deleted: event.target.checked ? "true" : null, offset: null }, { replace: true })
              }
            />
          }
          label="Show deleted"
        />
      </Stack>
      {query.isFetching ? <LinearProgress aria-label={`Refreshing ${view.title.toLowerCase()}`} /> : null}
      {!confirming && itemChangeError ? (
        <Alert severity="warning" onClose={() => itemRevise.dismiss()}>
          {itemChangeError}
        </Alert>
      ) : null}
      {list.items.length === 0 ? (
        <Typography color="text.secondary">{view.emptyText}</Typography>
      ) : (
        <Stack component="ul" spacing={2} aria-label={view.title} sx={{ listStyle: "none", p: 0, m: 0 }}>
          {list.items.map((item) => (
            <Paper
              component="li"
              variant="outlined"
              key={item.id}
              sx={{ p: 2, ...(item.deleted ? { borderStyle: "dashed", bgcolor: "action.hover" } : {}) }}
            >
              <Stack direction="row" sx={{ alignItems: "center", gap: 1, flexWrap: "wrap", mb: 1 }}>
                {item.deleted ? <Chip size="small" label="Deleted" color="default" variant="outlined" /> : null}
                <Typography variant="body2" color="text.secondary">
                  Revision {item.revision} · last changed <ZonedDateTime value={item.updatedAt} timeZone={zone} /> by{" "}
                  {authorName(item.updatedBy)}
                </Typography>
              </Stack>
              <view.ItemBody item={item} caseItem={caseItem} />
              <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap", mt: 1.5 }}>
                {view.ItemActions && !item.deleted ? (
                  <view.ItemActions item={item} caseItem={caseItem} list={kindList} />
                ) : null}
                {write.allowed && !item.deleted && editable(item) ? (
                  <>
                    <Button
                      size="small"
                      startIcon={<Edit />}
                      onClick={() => setEditing({ mode: "edit", key: 1, base: item, initial: item.data })}
                    >
                      Edit
                    </Button>
                    <Button
                      size="small"
                      color="error"
                      startIcon={<DeleteOutlined />}
                      onClick={() => setConfirming({ change: "delete", itemId: item.id })}
                    >
                      Delete
                    </Button>
                  </>
                ) : null}
                {write.allowed && item.deleted ? (
                  <Button
                    size="small"
                    startIcon={<RestoreFromTrash />}
                    disabled={itemRevise.pending}
                    onClick={() =>
                      write.reasonRequired
                        ? setConfirming({ change: "restore", itemId: item.id })
                        : void runItemChange("restore", item)
                    }
                  >
                    Restore
                  </Button>
                ) : null}
                <Button size="small" startIcon={<History />} onClick={() => setHistoryOf(item.id)}>
                  History
                </Button>
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      {list.total > list.limit ? (
        <Stack direction="row" sx={{ alignItems: "center", gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {firstShown}–{lastShown} of {list.total}
          </Typography>
          <Button
            size="small"
            disabled={list.offset === 0}
            onClick={() => setSearch({ offset: Math.max(0, list.offset - list.limit) })}
          >
            Newer
          </Button>
          <Button
            size="small"
            disabled={lastShown >= list.total}
            onClick={() => setSearch({ offset: list.offset + list.limit })}
          >
            Older
          </Button>
        </Stack>
      ) : null}

      {editing ? (
        <Dialog
          open
          onClose={create.isPending || editRevise.pending ? undefined : closeEditor}
          aria-labelledby={editorTitleId}
          maxWidth="md"
          fullWidth
          scroll="paper"
        >
          <DialogTitle id={editorTitleId}>
            {editing.mode === "add" ? `Add ${view.noun}` : `Edit ${view.noun}`}
          </DialogTitle>
          <DialogContent dividers>
            {editRevise.conflict ? (
              <RecordConflictPanel
                noun={view.noun}
                caseItem={caseItem}
                theirs={editRevise.conflict.theirs}
                mine={"data" in editRevise.conflict.request ? editRevise.conflict.request.data : undefined}
                flatten={view.flatten}
                onReapply={reapplyOnTop}
                onDiscard={closeEditor}
              />
            ) : (
              <>
                {editing.mode === "edit" && editing.reapplied ? <ReapplySummary reapplied={editing.reapplied} /> : null}
                {createFailure ? (
                  <FailureAlert failure={createFailure} what={`The ${view.noun} was not added`} />
                ) : null}
                {editRevise.failure ? (
                  <FailureAlert failure={editRevise.failure} what={`The ${view.noun} was not saved`} />
                ) : null}
                {editing.mode === "edit" && write.reasonRequired ? (
                  <TextField
                    inputRef={reasonRef}
                    label="Reason for the change"
                    value={reason}
                    onChange={(event) => {
                      setReason(event.target.value);
                      if (event.target.value.trim()) setReasonProblem(null);
                    }}
                    required
                    fullWidth
                    multiline
                    minRows={2}
                    error={Boolean(reasonProblem)}
                    helperText={reasonProblem ?? "Required at this stage; kept in the history"}
                    slotProps={{ htmlInput: { maxLength: 2000 } }}
                    sx={{ mb: 2 }}
                  />
                ) : null}
                <view.Editor
                  key={editing.key}
                  caseItem={caseItem}
                  initial={editing.mode === "edit" ? editing.initial : undefined}
                  submitLabel="Save"
                  busy={create.isPending || editRevise.pending}
                  onSubmit={submit}
                  onCancel={closeEditor}
                />
              </>
            )}
          </DialogContent>
        </Dialog>
      ) : null}

      {confirming && confirmingItem && (confirming.change === "restore" || write.reasonRequired) ? (
        <ReasonDialog
          open
          title={confirming.change === "delete" ? `Delete this ${view.noun}?` : `Restore this ${view.noun}?`}
          confirmLabel={confirming.change === "delete" ? "Delete" : "Restore"}
          label="Reason for the change"
          required={write.reasonRequired}
          destructive={confirming.change === "delete"}
          pending={itemRevise.pending}
          error={itemChangeError}
          onConfirm={(text) => void runItemChange(confirming.change, confirmingItem, text)}
          onClose={closeConfirm}
        >
          {confirming.change === "delete"
            ? `The ${view.noun} is marked deleted; it stays in the history and can be restored.`
            : `The ${view.noun} comes back as it was before it was deleted.`}
        </ReasonDialog>
      ) : confirming && confirmingItem ? (
        <ConfirmDialog
          open
          title={`Delete this ${view.noun}?`}
          confirmLabel="Delete"
          destructive
          pending={itemRevise.pending}
          error={itemChangeError}
          onConfirm={() => void runItemChange("delete", confirmingItem)}
          onClose={closeConfirm}
        >
          The {view.noun} is marked deleted; it stays in the history and can be restored.
        </ConfirmDialog>
      ) : null}

      {historyOf ? (
        <ItemHistory
          view={view}
          caseItem={caseItem}
          itemId={historyOf}
          deleted={historyItem?.deleted ?? false}
          onClose={() => setHistoryOf(null)}
        />
      ) : null}
    </Stack>
  );
}

function ItemHistory<Item extends TabItem<Data>, Data extends object, List>({
  view,
  caseItem,
  itemId,
  deleted,
  onClose,
}: {
  view: RecordView<Item, Data, List>;
  caseItem: Case;
  itemId: string;
  deleted: boolean;
  onClose: () => void;
}) {
  const query = useRecordHistory(view.kind, caseItem.id, itemId);
  const title = `History of this ${view.noun}${deleted ? " (deleted)" : ""}`;
  return (
    <HistoryDialog
      title={title}
      caseItem={caseItem}
      flatten={view.flatten}
      query={{
        isPending: query.isPending,
        isError: query.isError,
        error: query.error,
        data: query.data as unknown as { revisions: HistoryRevision<Data>[] } | undefined,
        refetch: query.refetch,
      }}
      onClose={onClose}
    />
  );
}
