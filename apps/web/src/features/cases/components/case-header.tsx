import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { Case } from "@vigil/contract";
import type { ReactNode } from "react";
import { ZonedDateTime } from "../../../components/dates/zoned-date-time";
import { PageHeading } from "../../../components/layouts/page-heading";
import { locationOf, patientName, personName, sexLabels, stageLabel, studyTypeLabels } from "../case-labels";
import { PriorityChip } from "./priority-chip";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box>
      <Typography component="dt" variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

/** Who and what the case is about, on every tab: number, client, patient, stage, priority, assignees. */
export function CaseHeader({ item }: { item: Case }) {
  const zone = item.client.timezone;
  const patient = item.patient;
  return (
    <Box component="header" sx={{ mb: 2 }} className="vigil-no-print">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <PageHeading>{item.caseNumber}</PageHeading>
        <Chip color="primary" label={`Stage: ${stageLabel(item.stage)}`} />
        <PriorityChip priority={item.priority} showRoutine />
        {item.archivedAt ? <Chip color="default" label="Archived" /> : null}
      </Stack>
      <Box
        component="dl"
        sx={{ m: 0, display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(5, minmax(0, 1fr))" } }}
      >
        <Fact label="Client">
          {item.client.name} ({item.client.code})
        </Fact>
        <Fact label="Patient">
          {patient ? (
            <>
              {patientName(patient)}
              <Typography component="span" variant="body2" color="text.secondary" sx={{ display: "block" }}>
                MRN {patient.mrn}
                {patient.dateOfBirth ? ` · born ${patient.dateOfBirth}` : ""} · {sexLabels[patient.sex]}
                {locationOf(patient.location) ? ` · ${locationOf(patient.location)}` : ""}
              </Typography>
            </>
          ) : (
            "—"
          )}
        </Fact>
        <Fact label="Study">
          {studyTypeLabels[item.studyType]}
          {item.hasVideo ? " with video" : ""}
        </Fact>
        <Fact label="Technologists">
          {item.technologists.length ? item.technologists.map((a) => personName(a.technologist)).join(", ") : "None"}
        </Fact>
        <Fact label="Reviewer">
          {item.reviewer ? personName(item.reviewer) : "None"}
          {item.acknowledgedAt ? (
            <Typography component="span" variant="body2" color="text.secondary" sx={{ display: "block" }}>
              STAT acknowledged by {personName(item.acknowledgedBy)},{" "}
              <ZonedDateTime value={item.acknowledgedAt} timeZone={zone} />
            </Typography>
          ) : null}
        </Fact>
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Times in {zone}
      </Typography>
    </Box>
  );
}
