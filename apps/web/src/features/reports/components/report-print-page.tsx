import ArrowBack from "@mui/icons-material/ArrowBack";
import Print from "@mui/icons-material/Print";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import {
  type CaseStage,
  caseStages,
  idSchema,
  pages,
  type ReportDocument,
  type ReportDocumentBlock,
} from "@vigil/contract";
import { type ReactNode, useId } from "react";
import { Link as RouterLink, useParams, useSearchParams } from "react-router";
import { LoadingScreen } from "../../../components/feedback/loading-screen";
import { isNotFound, QueryError } from "../../../components/feedback/query-error";
import { PageHeading } from "../../../components/layouts/page-heading";
import { useReportDocument } from "../api/get-report-document";
import { ReportPrintStyles, reportPrintClasses } from "./report-print-styles";

/** The red the PDF marks an addendum with, dark enough to read as text on white. */
const addendumColour = "#8a1c1c";

/**
 * Where "Back to the case" goes: the interpretations tab, under which the Reports section sits. The Reports section
 * passes the case's stage; without it the case page moves a link naming another stage to the case's own.
 */
function caseHref(caseId: string, stage: string | null): string {
  const known = (caseStages as readonly string[]).includes(stage ?? "") ? (stage as CaseStage) : "monitoring";
  return pages[`case-${known}-detail`].href({ caseId, tab: "interpretations" });
}

/** Screen-only: back to the case, and print (the browser's dialog also saves as PDF). */
function Toolbar({ backTo, canPrint }: { backTo: string; canPrint: boolean }) {
  return (
    <Stack
      className="vigil-no-print"
      direction="row"
      sx={{ mb: 2, gap: 2, alignItems: "center", justifyContent: "space-between", flexWrap: "wrap" }}
    >
      <Link component={RouterLink} to={backTo} sx={{ display: "inline-flex", alignItems: "center" }}>
        <ArrowBack fontSize="small" aria-hidden="true" sx={{ mr: 0.5 }} />
        Back to the case
      </Link>
      {canPrint ? (
        <Button variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print
        </Button>
      ) : null}
    </Stack>
  );
}

function Block({ block }: { block: ReportDocumentBlock }) {
  if (block.kind === "fields") {
    return (
      // The label/value lines are kept together on one page: the patient block reads as one.
      <Box
        component="dl"
        className={reportPrintClasses.keep}
        sx={{ display: "grid", gridTemplateColumns: "max-content 1fr", columnGap: 2, rowGap: 0.25, my: 0 }}
      >
        {block.rows.map((row) => (
          <Box key={row.label} sx={{ display: "contents" }}>
            <Typography component="dt" variant="body2" sx={{ fontWeight: 600, color: "text.secondary" }}>
              {row.label}
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {row.value}
            </Typography>
          </Box>
        ))}
      </Box>
    );
  }
  if (block.kind === "paragraph") {
    return <Typography sx={{ whiteSpace: "pre-wrap" }}>{block.text}</Typography>;
  }
  return (
    <Box component="ul" sx={{ pl: 3, my: 0 }}>
      {block.items.map((item) => (
        <Typography
          component="li"
          key={item}
          className={reportPrintClasses.keep}
          sx={{ display: "list-item", mb: 0.5 }}
        >
          {item}
        </Typography>
      ))}
    </Box>
  );
}

function Section({ heading, children, colour }: { heading: string; children: ReactNode; colour?: string }) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mt: 2 }}>
      <Typography
        id={headingId}
        variant="subtitle1"
        component="h2"
        className={reportPrintClasses.heading}
        sx={{ fontWeight: 700, color: colour }}
      >
        {heading}
      </Typography>
      {children}
    </Box>
  );
}

/** The version as its PDF lays it out: header, status, sections, signature, then the addenda. */
function ReportBody({ report }: { report: ReportDocument }) {
  return (
    <Box
      component="article"
      className={reportPrintClasses.root}
      aria-label={`${report.title}: ${report.runningHeader}`}
      sx={{ p: { xs: 2, sm: 4 }, border: "1px solid", borderColor: "divider", bgcolor: "background.paper" }}
    >
      <Box component="header" className={reportPrintClasses.keep}>
        <Typography sx={{ fontWeight: 700, fontSize: "1.25rem" }}>{report.company.name}</Typography>
        {report.company.details ? (
          <Typography variant="body2" color="text.secondary">
            {report.company.details}
          </Typography>
        ) : null}
        <Typography variant="body2" sx={{ mt: 1 }}>
          {report.preparedFor}
        </Typography>
        {report.clientLines.length > 0 ? (
          <Typography variant="body2" color="text.secondary">
            {report.clientLines.join(" · ")}
          </Typography>
        ) : null}
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {report.runningHeader}
        </Typography>
      </Box>
      <Box sx={{ mt: 2 }}>
        <PageHeading>{report.title}</PageHeading>
      </Box>
      {report.kind === "addendum" ? (
        <Typography sx={{ fontWeight: 700, color: addendumColour }}>{report.status}</Typography>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {report.status}
        </Typography>
      )}
      <Box component="hr" sx={{ border: 0, borderTop: "1px solid", borderColor: "divider", my: 2 }} />
      {report.sections.map((section) => (
        <Section key={section.id} heading={section.heading}>
          {section.blocks.map((block, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a section's blocks never move, so their place is their identity
            <Block key={index} block={block} />
          ))}
        </Section>
      ))}
      <Typography
        className={reportPrintClasses.keep}
        sx={{ fontWeight: 700, mt: 3, pt: 1, borderTop: "1px solid", borderColor: "divider" }}
      >
        {report.signature}
      </Typography>
      {(report.signatureDetails ?? []).map((line) => (
        <Typography key={line} className={reportPrintClasses.keep}>
          {line}
        </Typography>
      ))}
      {report.addenda.map((addendum) => (
        <Section key={addendum.heading} heading={addendum.heading} colour={addendumColour}>
          <Typography sx={{ whiteSpace: "pre-wrap" }}>{addendum.text}</Typography>
        </Section>
      ))}
    </Box>
  );
}

function Unavailable({ backTo, children }: { backTo: string; children: ReactNode }) {
  return (
    <>
      <Toolbar backTo={backTo} canPrint={false} />
      <PageHeading>Report not found</PageHeading>
      <Typography>{children}</Typography>
    </>
  );
}

/**
 * `/continuous-monitoring/cases/{caseId}/reports/{reportId}/print` (base layout, no chrome): one version of a signed
 * EEG report as a page to print, with exactly the content of its PDF (the server builds both from the inputs stored
 * when it was signed). Opening it is recorded as a disclosure, like fetching the PDF.
 */
export function ReportPrintPage() {
  const { caseId = "", reportId = "" } = useParams();
  const [search] = useSearchParams();
  const valid = idSchema.safeParse(caseId).success && idSchema.safeParse(reportId).success;
  const report = useReportDocument(caseId, reportId, { enabled: valid });
  const backTo = valid ? caseHref(caseId, search.get("stage")) : pages["cases-monitoring"].href();

  if (!valid) {
    return (
      <Unavailable backTo={backTo}>
        This address does not name a case and a report; it may have been mistyped.
      </Unavailable>
    );
  }
  if (report.isPending) {
    return (
      <>
        <Toolbar backTo={backTo} canPrint={false} />
        <LoadingScreen label="Loading the report…" />
      </>
    );
  }
  if (report.isError) {
    if (isNotFound(report.error)) {
      return <Unavailable backTo={backTo}>This case has no such report; it may have been mistyped.</Unavailable>;
    }
    return (
      <>
        <Toolbar backTo={backTo} canPrint={false} />
        <QueryError what="The report" error={report.error} onRetry={() => void report.refetch()} />
      </>
    );
  }
  return (
    <>
      <ReportPrintStyles runningHeader={report.data.runningHeader} />
      <Toolbar backTo={backTo} canPrint />
      <ReportBody report={report.data} />
    </>
  );
}
