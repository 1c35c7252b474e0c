import Science from "@mui/icons-material/Science";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { UnitTestPage } from "@vigil/contract";
import { formatInstantInZone } from "@vigil/contract";
import { useId } from "react";
import type { TestStatus } from "../api/operator-query-keys";
import { testSuiteLabels, UnitTestStatusIcon } from "./unit-test-status";

/** The viewer's own zone, named: the run is not tied to any client's zone. */
function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

function TotalTile({ count, word, status }: { count: number; word: string; status?: TestStatus }) {
  return (
    <Paper variant="outlined" sx={{ px: 2, py: 1, minWidth: 120, display: "flex", alignItems: "center", gap: 1 }}>
      {status ? (
        <UnitTestStatusIcon status={status} />
      ) : (
        <Science fontSize="small" color="primary" aria-hidden="true" />
      )}
      <Typography component="span">
        <Box component="span" sx={{ fontSize: "1.25rem", fontWeight: 600, mr: 0.5 }}>
          {count}
        </Box>
        {word}
      </Typography>
    </Paper>
  );
}

/** A count that matters (failures) stands out by weight and icon as well as colour. */
function FailedCount({ count }: { count: number }) {
  if (count === 0) return <>0</>;
  return (
    <Box
      component="span"
      sx={{ display: "inline-flex", alignItems: "center", gap: 0.5, color: "error.main", fontWeight: 600 }}
    >
      <UnitTestStatusIcon status="failed" />
      {count}
    </Box>
  );
}

/** When the last run ran, on which revision, its totals and each suite's. */
export function UnitTestRunSummary({ page }: { page: UnitTestPage }) {
  const headingId = useId();
  const { totals } = page;
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 3 }}>
      <Typography id={headingId} variant="h6" component="h2">
        Last test run
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 1.5 }}>
        {page.ranAt ? (
          <>
            Ran <time dateTime={page.ranAt}>{formatInstantInZone(page.ranAt, viewerTimeZone())}</time>
          </>
        ) : (
          "When it ran is not known"
        )}
        {" · "}
        {page.revision ? (
          <>
            revision{" "}
            <Box component="code" sx={{ fontFamily: "monospace" }}>
              {page.revision}
            </Box>
          </>
        ) : (
          "revision not known"
        )}
      </Typography>
      <Stack
        direction="row"
        sx={{ gap: 1.5, flexWrap: "wrap", mb: 2 }}
        aria-label="Totals of the last run"
        role="group"
      >
        <TotalTile count={totals.total} word={totals.total === 1 ? "test" : "tests"} />
        <TotalTile count={totals.passed} word="passed" status="passed" />
        <TotalTile count={totals.failed} word="failed" status="failed" />
        <TotalTile count={totals.skipped} word="skipped" status="skipped" />
      </Stack>
      {page.suites.length > 0 ? (
        <TableContainer component={Paper} variant="outlined" sx={{ maxWidth: 640 }}>
          <Table size="small" aria-label="Results by suite">
            <TableHead>
              <TableRow>
                <TableCell sx={{ fontWeight: 600 }}>Suite</TableCell>
                <TableCell sx={{ fontWeight: 600 }} align="right">
                  Tests
                </TableCell>
                <TableCell sx={{ fontWeight: 600 }} align="right">
                  Passed
                </TableCell>
                <TableCell sx={{ fontWeight: 600 }} align="right">
                  Failed
                </TableCell>
                <TableCell sx={{ fontWeight: 600 }} align="right">
                  Skipped
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {page.suites.map((suite) => (
                <TableRow key={suite.suite}>
                  <TableCell component="th" scope="row">
                    {testSuiteLabels[suite.suite]}
                  </TableCell>
                  <TableCell align="right">{suite.total}</TableCell>
                  <TableCell align="right">{suite.passed}</TableCell>
                  <TableCell align="right">
                    <FailedCount count={suite.failed} />
                  </TableCell>
                  <TableCell align="right">{suite.skipped}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
    </Box>
  );
}
