import Print from "@mui/icons-material/Print";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import GlobalStyles from "@mui/material/GlobalStyles";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { fhirBasePath, fhirConformance, hl7Conformance } from "@vigil/contract";
import type { ReactNode } from "react";
import { PageHeading } from "../../../components/layouts/page-heading";
import { fhirResourcesOf } from "../conformance-model";

const rootClass = "vigil-conformance";

/** Paper rules: black on white, each table's header repeated on a new page, no row cut across pages. */
const printStyles = {
  "@page": { margin: "15mm" },
  "@media print": {
    [`.${rootClass} *`]: { color: "#000 !important", backgroundColor: "transparent !important" },
    [`.${rootClass} th, .${rootClass} td`]: { borderBottom: "1px solid #000 !important", fontSize: "9pt" },
    [`.${rootClass} thead`]: { display: "table-header-group" },
    [`.${rootClass} tr`]: { breakInside: "avoid", pageBreakInside: "avoid" },
    [`.${rootClass} h2`]: { breakBefore: "page" },
    [`.${rootClass} h2:first-of-type`]: { breakBefore: "auto" },
  },
} as const;

/** A table named by the heading above it; header cells are `th scope="col"`. */
function ConformanceTable({
  id,
  title,
  headers,
  rows,
}: {
  id: string;
  title: string;
  headers: string[];
  rows: ReactNode[][];
}) {
  return (
    <Box component="section" aria-labelledby={id}>
      <Typography id={id} variant="h6" component="h3" sx={{ mt: 2 }}>
        {title}
      </Typography>
      <Table size="small" aria-labelledby={id}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header} component="th" scope="col">
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((cells, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows are fixed data in a fixed order
            <TableRow key={index}>
              {cells.map((cell, cellIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                <TableCell key={cellIndex}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function Paragraphs({ lines }: { lines: readonly string[] }) {
  return (
    <Box component="ul" sx={{ my: 1, pl: 3 }}>
      {lines.map((line) => (
        <Typography key={line} component="li" variant="body2">
          {line}
        </Typography>
      ))}
    </Box>
  );
}

function Hl7Section() {
  const c = hl7Conformance;
  return (
    <Box component="section" aria-labelledby="conformance-hl7">
      <Typography id="conformance-hl7" variant="h5" component="h2" sx={{ mt: 3 }}>
        HL7 v2 over MLLP
      </Typography>
      <Typography variant="body2">
        Versions accepted (MSH-12): {c.versionsAccepted.join(", ")}. Vigil writes {c.defaultOutboundVersion} unless the
        client's interface profile names another.
      </Typography>
      <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
        Framing and transport
      </Typography>
      <Paragraphs lines={c.framing} />
      <ConformanceTable
        id="conformance-hl7-messages"
        title="Supported messages"
        headers={["Direction", "Message (MSH-9)", "Order control (ORC-1)", "What Vigil does"]}
        rows={c.messages.map((message) => [
          message.direction === "inbound" ? "To Vigil" : "From Vigil",
          message.type,
          message.orderControl?.join(", ") ?? "—",
          message.meaning,
        ])}
      />
      <ConformanceTable
        id="conformance-hl7-required"
        title="Required segments and fields"
        headers={["Field", "Meaning", "Required in"]}
        rows={c.requiredFields.map((field) => [field.field, field.meaning, field.when])}
      />
      <Typography variant="h6" component="h3" sx={{ mt: 2 }}>
        Acknowledgements
      </Typography>
      <Paragraphs lines={c.ackModes} />
      <ConformanceTable
        id="conformance-hl7-acks"
        title="ACK codes (MSA-1)"
        headers={["Original mode", "Enhanced mode", "Meaning"]}
        rows={c.ackCodes.map((ack) => [ack.code, ack.enhanced, ack.meaning])}
      />
      <ConformanceTable
        id="conformance-hl7-errors"
        title="Error codes (ERR-3, HL7 table 0357)"
        headers={["Code", "When"]}
        rows={c.errorCodes.map((error) => [error.code, error.meaning])}
      />
    </Box>
  );
}

function FhirSection({ origin }: { origin: string }) {
  const base = `${origin}${fhirBasePath}`;
  const resources = fhirResourcesOf();
  return (
    <Box component="section" aria-labelledby="conformance-fhir">
      <Typography id="conformance-fhir" variant="h5" component="h2" sx={{ mt: 3 }}>
        FHIR R4
      </Typography>
      <Box component="dl" sx={{ "& dt": { fontWeight: 600 }, "& dd": { ml: 0, mb: 1 } }}>
        <dt>Base URL</dt>
        <dd>
          <code>{base}</code> (FHIR {fhirConformance.fhirVersion}, JSON)
        </dd>
        <dt>CapabilityStatement</dt>
        <dd>
          <Link href={`${fhirBasePath}/metadata`}>{`${base}/metadata`}</Link> (live: exactly what the server serves)
        </dd>
        <dt>SMART Backend Services token endpoint</dt>
        <dd>
          <code>{`${origin}${fhirConformance.tokenPath}`}</code>; discovery at{" "}
          <code>{`${origin}${fhirConformance.smartConfigurationPath}`}</code>; tokens last{" "}
          {fhirConformance.tokenLifetimeSeconds / 60} minutes
        </dd>
      </Box>
      <Typography variant="h6" component="h3">
        Token request (form-encoded POST)
      </Typography>
      <Box component="pre" sx={{ whiteSpace: "pre-wrap", fontSize: "0.8rem", my: 1 }}>
        {fhirConformance.tokenRequest.join("\n")}
      </Box>
      <ConformanceTable
        id="conformance-fhir-resources"
        title="Resources, interactions and scopes"
        headers={["Resource", "Interactions", "Scopes needed", "Search parameters"]}
        rows={resources.map((resource) => [
          resource.resourceType,
          resource.interactions.join(", "),
          resource.scopes.join(" "),
          resource.searchParams.length === 0 ? (
            "—"
          ) : (
            <Box key="params" component="ul" sx={{ m: 0, pl: 2 }}>
              {resource.searchParams.map((param) => (
                <li key={param.name}>
                  <code>{param.name}</code> ({param.type}){param.documentation ? `: ${param.documentation}` : ""}
                </li>
              ))}
            </Box>
          ),
        ])}
      />
      <ConformanceTable
        id="conformance-us-core"
        title="US Core: met and not met"
        headers={["Resource", "Requirement", "Met", "Why"]}
        rows={fhirConformance.usCore.map((item) => [
          item.resource,
          item.requirement,
          item.met ? "Met" : "Not met",
          item.why,
        ])}
      />
    </Box>
  );
}

/**
 * `/interfaces/conformance`: what a hospital's interface team needs to connect, on screen or on paper. Every row
 * comes from the contract (the HL7 and US Core data, the FHIR route rows), so the page says what the server does.
 */
export function InterfaceConformancePage() {
  return (
    <Box className={rootClass}>
      <GlobalStyles styles={printStyles} />
      <Stack direction="row" sx={{ justifyContent: "space-between", alignItems: "flex-start", gap: 2 }}>
        <PageHeading>Interface conformance</PageHeading>
        <Button className="vigil-no-print" variant="contained" startIcon={<Print />} onClick={() => window.print()}>
          Print
        </Button>
      </Stack>
      <Typography>
        How a hospital's systems exchange orders and results with Vigil: HL7 v2 over MLLP and FHIR R4 with SMART Backend
        Services.
      </Typography>
      <Hl7Section />
      <FhirSection origin={window.location.origin} />
    </Box>
  );
}
