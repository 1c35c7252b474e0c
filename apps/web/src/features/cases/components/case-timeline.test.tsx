import { screen, within } from "@testing-library/react";
import type { TimelineEntry } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseId, renderCaseScreen, testCase } from "../testing/render-case-screen";

const caseApi = `/api/continuous-monitoring/cases/${caseId}`;
const reviewer = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000012", username: "reviewer", name: "Dr. Riley Reviewer" };
const at = "2026-11-23T17:30:00.000Z";

/** What the server records when a reviewer returns a case to monitoring: the move, then the end it cleared. */
const returned: TimelineEntry[] = [
  {
    kind: "transition",
    id: "7d1e2d3c-3333-4a2b-9c3d-000000000001",
    at,
    actor: reviewer,
    transition: {
      id: "7d1e2d3c-3333-4a2b-9c3d-000000000001",
      caseId,
      ruleId: "return-to-monitoring",
      from: "preview",
      to: "monitoring",
      status: "completed",
      reason: "Electrode artefact",
      requestedBy: reviewer,
      requestedAt: at,
      decidedBy: reviewer,
      decidedAt: at,
    },
  },
  {
    kind: "action",
    id: "7d1e2d3c-3333-4a2b-9c3d-000000000002",
    at,
    actor: reviewer,
    action: "update",
    details: {
      version: 9,
      cause: "Return to monitoring",
      changes: { recordingEndedAt: { from: "2026-11-23T16:04:00.000Z", to: null } },
    },
  },
];

describe("case timeline", () => {
  it("shows the recording end a return to monitoring cleared, in the client's zone, after the move", async () => {
    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/timeline`, {
      routes: {
        [`GET ${caseApi}`]: () => envelope(testCase({ stage: "monitoring", recordingEndedAt: null })),
        [`GET ${caseApi}/timeline`]: () => envelope({ caseId, items: returned }),
      },
    });
    const timeline = await screen.findByRole("list", { name: "Case timeline" });
    const entries = within(timeline).getAllByRole("listitem");
    expect(entries).toHaveLength(2);
    expect(entries[0]?.textContent).toContain("Preview → Monitoring");
    expect(entries[0]?.textContent).toContain("Reason: Electrode artefact");
    expect(entries[1]?.textContent).toContain("Changed the case");
    expect(entries[1]?.textContent).toContain("Cause: Return to monitoring");
    expect(entries[1]?.textContent).toContain("Recording ended: Nov 23, 2026, 08:04 PST (America/Los_Angeles) → none");
  });

  it("words each recorded detail as people read it, never the stored key", async () => {
    const entries: TimelineEntry[] = [
      {
        kind: "action",
        id: "7d1e2d3c-3333-4a2b-9c3d-000000000003",
        at,
        actor: reviewer,
        action: "acknowledge",
        details: { becameReviewer: false },
      },
      {
        kind: "action",
        id: "7d1e2d3c-3333-4a2b-9c3d-000000000004",
        at,
        actor: reviewer,
        action: "raise-critical-finding",
        details: {
          findingId: "7d1e2d3c-3333-4a2b-9c3d-000000000009",
          finding: "Electrographic seizure",
          windowMinutes: 10,
          notified: "Nurse Joy",
        },
      },
      {
        kind: "action",
        id: "7d1e2d3c-3333-4a2b-9c3d-000000000005",
        at,
        actor: reviewer,
        action: "set-priority",
        details: { from: "routine", to: "stat" },
      },
    ];
    renderCaseScreen(`/continuous-monitoring/cases/monitoring/${caseId}/timeline`, {
      routes: {
        [`GET ${caseApi}`]: () => envelope(testCase({ stage: "monitoring" })),
        [`GET ${caseApi}/timeline`]: () => envelope({ caseId, items: entries }),
      },
    });
    const timeline = await screen.findByRole("list", { name: "Case timeline" });
    const [acknowledged, raised, priority] = within(timeline)
      .getAllByRole("listitem")
      .map((entry) => entry.textContent ?? "");
    expect(acknowledged).toContain("Also became the case's reviewer: no");
    expect(raised).toContain("Finding: Electrographic seizure · Acknowledgement window: 10 min · Told: Nurse Joy");
    expect(priority).toContain("From: Routine · To: STAT");
    for (const text of [acknowledged, raised, priority]) {
      expect(text).not.toMatch(/became reviewer|window minutes|finding id/);
    }
  });
});
