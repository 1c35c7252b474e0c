import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Author, Case, InterpretationItem, InterpretationList } from "@vigil/contract";
import type { ReactNode } from "react";
import { ZonedDateTime } from "../../../../components/dates/zoned-date-time";
import { backgroundSelects, describeFinding, reportTypeLabels, seizureClassificationLabels } from "./acns-terms";

function personName(author: Author): string {
  return author.name || author.username;
}

function ReportSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="subtitle2" component="h3">
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Text({ children }: { children: string }) {
  return <Typography sx={{ whiteSpace: "pre-wrap" }}>{children}</Typography>;
}

function Pairs({ rows }: { rows: [string, string][] }) {
  return (
    <Box component="dl" sx={{ m: 0, display: "grid", gridTemplateColumns: { xs: "1fr", sm: "220px 1fr" }, gap: 0.25 }}>
      {rows.map(([label, value]) => (
        <Box key={label} sx={{ display: "contents" }}>
          <Typography component="dt" color="text.secondary">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0 }}>
            {value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** The report as a neurologist reads it: status, period, then the ACNS sections; addenda under the signed text. */
export function InterpretationItemBody({ item, caseItem }: { item: InterpretationItem; caseItem: Case }) {
  const zone = caseItem.client.timezone;
  const { data } = item;
  const background = data.background;
  const backgroundRows: [string, string][] = [
    ...backgroundSelects.flatMap((select): [string, string][] => {
      const value = background[select.key];
      return value === null ? [] : [[select.label, (select.options as Record<string, string>)[value] ?? value]];
    }),
    ...(background.pdrHz === null ? [] : [["Posterior dominant rhythm", `${background.pdrHz} Hz`] as [string, string]]),
  ];
  const seizures = data.seizures;
  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
        {item.status === "final" ? (
          <Chip size="small" color="success" label="Final" />
        ) : (
          <Chip size="small" variant="outlined" label="Draft" />
        )}
        <Typography sx={{ fontWeight: 600 }}>{reportTypeLabels[data.reportType]}</Typography>
        <Typography>
          <ZonedDateTime value={data.periodFrom} timeZone={zone} /> –{" "}
          <ZonedDateTime value={data.periodTo} timeZone={zone} />
        </Typography>
      </Stack>
      {item.status === "final" && item.signedBy && item.signedAt ? (
        <Typography>
          Signed by {personName(item.signedBy)} on <ZonedDateTime value={item.signedAt} timeZone={zone} />
        </Typography>
      ) : null}
      {data.history ? (
        <ReportSection title="History">
          <Text>{data.history}</Text>
        </ReportSection>
      ) : null}
      {data.technicalDescription ? (
        <ReportSection title="Technical description">
          <Text>{data.technicalDescription}</Text>
        </ReportSection>
      ) : null}
      {backgroundRows.length > 0 || background.notes ? (
        <ReportSection title="Background">
          {backgroundRows.length > 0 ? <Pairs rows={backgroundRows} /> : null}
          {background.notes ? <Text>{background.notes}</Text> : null}
        </ReportSection>
      ) : null}
      <ReportSection title="Findings">
        {data.findings.length === 0 ? (
          <Typography>No rhythmic or periodic patterns.</Typography>
        ) : (
          <Box component="ol" sx={{ my: 0, pl: 3 }}>
            {data.findings.map((finding, index) => (
              // Findings have no identity of their own beyond their place in the report.
              // biome-ignore lint/suspicious/noArrayIndexKey: the list is read-only here
              <li key={index}>
                <Typography component="span">{describeFinding(finding)}</Typography>
                {finding.notes ? (
                  <Typography component="span" color="text.secondary">
                    {" "}
                    — {finding.notes}
                  </Typography>
                ) : null}
              </li>
            ))}
          </Box>
        )}
      </ReportSection>
      <ReportSection title="Seizures">
        <Typography>
          {seizureClassificationLabels[seizures.classification]}
          {seizures.count === null ? "" : ` · ${seizures.count} counted`}
        </Typography>
        {seizures.description ? <Text>{seizures.description}</Text> : null}
      </ReportSection>
      {data.impression ? (
        <ReportSection title="Impression">
          <Text>{data.impression}</Text>
        </ReportSection>
      ) : null}
      {data.clinicalCorrelation ? (
        <ReportSection title="Clinical correlation">
          <Text>{data.clinicalCorrelation}</Text>
        </ReportSection>
      ) : null}
      {item.addenda.length > 0 ? (
        <ReportSection title={`Addenda (${item.addenda.length})`}>
          <Stack component="ol" spacing={1} sx={{ listStyle: "none", p: 0, m: 0 }}>
            {item.addenda.map((addendum) => (
              <Paper component="li" key={addendum.revision} variant="outlined" sx={{ p: 1.5 }}>
                <Typography variant="body2" color="text.secondary">
                  Addendum by {personName(addendum.author)} on{" "}
                  <ZonedDateTime value={addendum.createdAt} timeZone={zone} />
                </Typography>
                <Text>{addendum.text}</Text>
              </Paper>
            ))}
          </Stack>
        </ReportSection>
      ) : null}
    </Stack>
  );
}

/** Whether the precondition of "Mark reviewed" holds: a signed final interpretation. */
export function InterpretationSummary({ list }: { list: InterpretationList; caseItem: Case }) {
  const { signed, canSign } = list.summary;
  if (signed) {
    return (
      <Alert severity="success">
        A final interpretation is signed, so the case can be marked reviewed. Later changes are addenda.
      </Alert>
    );
  }
  return (
    <Alert severity="info">
      No final interpretation is signed yet; "Mark reviewed" needs one.{" "}
      {canSign && list.write.allowed
        ? "Sign a draft as final when it is complete."
        : "A reviewer signs the final interpretation while the case is in preview."}
    </Alert>
  );
}
