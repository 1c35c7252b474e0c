import FileDownload from "@mui/icons-material/FileDownload";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import { useId, useRef, useState } from "react";
import { Dialog } from "../feedback/dialog";
import { type CsvColumn, downloadText, toCsv } from "./csv";
import { type FetchPage, fetchAllPages } from "./fetch-all-pages";

export type CsvExportButtonProps<Row> = {
  /** What is exported, for the button and the progress dialog ("clients"). */
  noun: string;
  filename: string;
  columns: readonly CsvColumn<Row>[];
  /** One page of the list under the current filters; called with limit 200 until every row is in. */
  fetchPage: FetchPage<Row>;
  disabled?: boolean;
};

type ExportState =
  | { status: "idle" }
  | { status: "running"; loaded: number; total: number | null }
  | { status: "failed"; message: string };

/**
 * Exports every row of the current filter as CSV: walks the server's pages in the browser with a progress
 * dialog (cancellable), then downloads the file. Nothing is loaded past what the filter selects.
 */
export function CsvExportButton<Row>({ noun, filename, columns, fetchPage, disabled }: CsvExportButtonProps<Row>) {
  const [state, setState] = useState<ExportState>({ status: "idle" });
  const controller = useRef<AbortController | null>(null);
  const titleId = useId();

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ status: "running", loaded: 0, total: null });
    try {
      const rows = await fetchAllPages(fetchPage, {
        signal: abort.signal,
        onProgress: (loaded, total) => setState({ status: "running", loaded, total }),
      });
      if (abort.signal.aborted) return;
      downloadText(filename, toCsv(columns, rows));
      setState({ status: "idle" });
    } catch (error) {
      if (abort.signal.aborted) {
        setState({ status: "idle" });
        return;
      }
      setState({ status: "failed", message: error instanceof Error ? error.message : String(error) });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const cancel = () => {
    controller.current?.abort();
    setState({ status: "idle" });
  };

  const running = state.status === "running";
  const percent = running && state.total ? Math.round((state.loaded / state.total) * 100) : undefined;
  return (
    <>
      <Button
        variant="outlined"
        startIcon={<FileDownload />}
        onClick={() => void start()}
        disabled={disabled || running}
      >
        Export CSV
      </Button>
      <Dialog open={state.status !== "idle"} onClose={cancel} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>Exporting {noun}</DialogTitle>
        <DialogContent>
          {state.status === "failed" ? (
            <Alert severity="error">The export stopped: {state.message}</Alert>
          ) : (
            <>
              <LinearProgress
                variant={percent === undefined ? "indeterminate" : "determinate"}
                value={percent}
                aria-label={`Exporting ${noun}`}
              />
              <Typography role="status" sx={{ mt: 1 }} color="text.secondary">
                {running && state.total !== null
                  ? `${state.loaded} of ${state.total} ${noun} read…`
                  : `Reading ${noun}…`}
              </Typography>
            </>
          )}
        </DialogContent>
        <DialogActions>
          {state.status === "failed" ? (
            <>
              <Button onClick={() => setState({ status: "idle" })}>Close</Button>
              <Button onClick={() => void start()}>Try again</Button>
            </>
          ) : (
            <Button onClick={cancel}>Cancel</Button>
          )}
        </DialogActions>
      </Dialog>
    </>
  );
}
