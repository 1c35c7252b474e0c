import DataObject from "@mui/icons-material/DataObject";
import PictureAsPdf from "@mui/icons-material/PictureAsPdf";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import type { ReportVersion } from "@vigil/contract";
import { useState } from "react";
import { apiErrorOf } from "../../../components/forms/field-messages";
import { saveFile } from "../../../lib/save-file";
import { fetchReportFhir, fetchReportPdf } from "../api/get-report-files";
import { reportFileName } from "../report-labels";

type FileKind = "pdf" | "fhir";

const fileNouns: Record<FileKind, string> = { pdf: "The PDF", fhir: "The FHIR DiagnosticReport" };

/**
 * The version's PDF (also what staff print: the same document the recipients got) and its FHIR R4 DiagnosticReport,
 * each fetched with the user's token into memory and saved as a file. Each fetch is a disclosure the server
 * records, so nothing is fetched before the click.
 */
export function ReportFileButtons({
  caseId,
  caseNumber,
  version,
}: {
  caseId: string;
  caseNumber: string;
  version: ReportVersion;
}) {
  const [pending, setPending] = useState<FileKind | null>(null);
  const [failure, setFailure] = useState<{ kind: FileKind; message: string } | null>(null);

  const save = async (kind: FileKind) => {
    setPending(kind);
    setFailure(null);
    try {
      const file =
        kind === "pdf" ? await fetchReportPdf(caseId, version.id) : await fetchReportFhir(caseId, version.id);
      saveFile(reportFileName(caseNumber, version.version, kind === "pdf" ? "pdf" : "fhir.json"), file);
    } catch (error) {
      setFailure({ kind, message: apiErrorOf(error)?.message ?? String(error) });
    } finally {
      setPending(null);
    }
  };

  const spinner = <CircularProgress size={16} color="inherit" aria-hidden="true" />;
  return (
    <Stack spacing={1}>
      <Stack direction="row" sx={{ gap: 1, flexWrap: "wrap" }}>
        <Button
          variant="outlined"
          size="small"
          startIcon={pending === "pdf" ? spinner : <PictureAsPdf />}
          disabled={pending !== null}
          onClick={() => void save("pdf")}
          aria-label={`Download PDF of version ${version.version}`}
        >
          Download PDF
        </Button>
        <Button
          variant="outlined"
          size="small"
          startIcon={pending === "fhir" ? spinner : <DataObject />}
          disabled={pending !== null}
          onClick={() => void save("fhir")}
          aria-label={`Download FHIR of version ${version.version}`}
        >
          Download FHIR
        </Button>
      </Stack>
      {failure ? (
        <Alert severity="error" onClose={() => setFailure(null)}>
          {fileNouns[failure.kind]} was not downloaded: {failure.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
