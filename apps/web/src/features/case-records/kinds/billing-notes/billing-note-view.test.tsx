import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { BillingCheck, BillingNoteItem } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope, errorEnvelope } from "../../../../test/fake-server";
import { RecordTab } from "../../components/record-tab";
import { caseId, itemFields, jsonBody, listOf, recordApi, renderRecords, testCase } from "../../testing/render-records";
import { billingNoteView } from "./billing-note-view";

const billingNotes = recordApi("billing-notes", "reviewed");
const billingCheckPath = `/api/continuous-monitoring/cases/${caseId}/billing-check`;
const noteId = "5e1e2d3c-3333-4a2b-9c3d-0000000000b1";

function billingCheck(overrides: Partial<BillingCheck> = {}): BillingCheck {
  return {
    caseId,
    passed: true,
    checks: [
      { id: "no-running-time-log", label: "No time log is running", passed: true, message: null },
      { id: "rate-known", label: "Every month billed has a rate", passed: true, message: null },
      { id: "cpt-warnings-acknowledged", label: "CPT warnings are acknowledged", passed: true, message: null },
    ],
    months: [
      { month: "2026-11", hours: "40.00", rate: { hourlyRate: "125.00", fromMonth: "2026-11", inherited: false } },
    ],
    cpt: {
      recordingHours: "40.00",
      videoPercent: 100,
      lines: [
        {
          code: "95720",
          units: 1,
          component: "professional",
          description: "EEG with video, 24 h or more, interpretation",
          basis: "40.00 h continuous, 100% video",
        },
      ],
      warnings: [],
    },
    acknowledgedWarnings: [],
    ...overrides,
  };
}

const failingCheck = billingCheck({
  passed: false,
  checks: [
    { id: "no-running-time-log", label: "No time log is running", passed: true, message: null },
    {
      id: "rate-known",
      label: "Every month billed has a rate",
      passed: false,
      message: "October 2026 has billable hours but no rate",
    },
    {
      id: "cpt-warnings-acknowledged",
      label: "CPT warnings are acknowledged",
      passed: false,
      message: "1 CPT warning is not acknowledged in a billing note",
    },
  ],
  months: [
    { month: "2026-10", hours: "6.50", rate: null },
    { month: "2026-11", hours: "33.50", rate: { hourlyRate: "125.00", fromMonth: "2026-09", inherited: true } },
  ],
  cpt: {
    recordingHours: "40.00",
    videoPercent: 70,
    lines: [
      {
        code: "95700",
        units: 1,
        component: "technical",
        description: "EEG setup by a technologist",
        basis: "Setup, 21 channels",
      },
      {
        code: "95719",
        units: 1,
        component: "professional",
        description: "EEG without video, 12 h or more, interpretation",
        basis: "40.00 h, 70% video (under 80%)",
      },
    ],
    warnings: [{ id: "review-check-gap", message: "3 h 10 min between review checks on Nov 3" }],
  },
});

function billingNote(data: Partial<BillingNoteItem["data"]> = {}): BillingNoteItem {
  return {
    ...itemFields(noteId),
    kind: "billing-note",
    data: {
      body: "Two full days of video cEEG.",
      cptCodes: [{ code: "95720", units: 2, modifiers: ["26"] }],
      adjustments: "",
      acknowledgedWarnings: [],
      ...data,
    },
  };
}

describe("billing notes", () => {
  it("shows the note with its CPT code lines", async () => {
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "reviewed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () =>
          listOf([billingNote({ adjustments: "Day 2 shortened by 3 h." })], { stage: "reviewed" }),
        [`GET ${billingCheckPath}`]: () => envelope(billingCheck()),
      },
    });
    const table = await screen.findByRole("table", { name: "CPT codes" });
    const [, row] = within(table).getAllByRole("row");
    expect(row?.textContent).toBe("95720226");
    expect(screen.getByText("Adjustments: Day 2 shortened by 3 h.")).toBeTruthy();
  });

  it("adds CPT code lines with units and modifiers, checked with the contract's messages (no check: no warnings)", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: Record<string, unknown>[] = [];
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "reviewed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () => listOf([], { stage: "reviewed" }),
        [`POST ${billingNotes}`]: async (request) => {
          posted.push(await jsonBody(request));
          return envelope(billingNote(), { status: 201 });
        },
        [`GET ${billingCheckPath}`]: () => errorEnvelope(403, "forbidden", "Access denied"),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Add billing note" }));
    const dialog = screen.getByRole("dialog", { name: "Add billing note" });
    await user.type(within(dialog).getByRole("textbox", { name: "Note" }), "Two days.");
    await user.click(within(dialog).getByRole("button", { name: "Add CPT code" }));
    await user.type(within(dialog).getByRole("textbox", { name: "CPT code 1" }), "9572");
    await user.type(within(dialog).getByRole("textbox", { name: "Modifiers 1" }), "26 5");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("CPT code 1 must be a five-digit CPT code")).toBeTruthy();
    expect(within(dialog).getByText("Modifiers 1 must be a two-character modifier such as 52")).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.type(within(dialog).getByRole("textbox", { name: "CPT code 1" }), "0");
    await user.type(within(dialog).getByRole("textbox", { name: "Modifiers 1" }), "9");
    const units = within(dialog).getByRole("spinbutton", { name: "Units 1" });
    await user.clear(units);
    await user.type(units, "2");
    await user.click(within(dialog).getByRole("button", { name: "Add CPT code" }));
    await user.type(within(dialog).getByRole("textbox", { name: "CPT code 2" }), "95700");
    await user.type(within(dialog).getByRole("textbox", { name: "Adjustments" }), "None.");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      body: "Two days.",
      cptCodes: [
        { code: "95720", units: 2, modifiers: ["26", "59"] },
        { code: "95700", units: 1, modifiers: [] },
      ],
      adjustments: "None.",
      acknowledgedWarnings: [],
    });
    expect(screen.queryByRole("heading", { name: "Billing check" })).toBeNull();
    expect(screen.queryByRole("group", { name: "Acknowledge CPT warnings" })).toBeNull();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps billing notes read-only outside the reviewed stage, saying why", async () => {
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "closed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () =>
          listOf([billingNote()], {
            stage: "closed",
            write: {
              allowed: false,
              reason: "This case is closed; its records are read-only until it is re-opened.",
              reasonRequired: false,
            },
          }),
        [`GET ${billingCheckPath}`]: () => envelope(billingCheck()),
      },
    });
    expect(await screen.findByText(/This case is closed/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add billing note" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
  });

  it("shows the billing check above the notes, saying in words what fails", async () => {
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "reviewed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () => listOf([], { stage: "reviewed" }),
        [`GET ${billingCheckPath}`]: () => envelope(failingCheck),
      },
    });
    const panel = (await screen.findByRole("heading", { name: "Billing check" })).closest("section") as HTMLElement;
    expect(await within(panel).findByText("Not passed")).toBeTruthy();
    expect(within(panel).getByText(/2 of 3 checks fail/)).toBeTruthy();
    const checks = within(within(panel).getByRole("list", { name: "Checks" })).getAllByRole("listitem");
    expect(checks.map((item) => item.textContent)).toEqual([
      "PassedNo time log is running",
      "FailedEvery month billed has a rateOctober 2026 has billable hours but no rate",
      "FailedCPT warnings are acknowledged1 CPT warning is not acknowledged in a billing note",
    ]);
    const months = within(within(panel).getByRole("table", { name: "Months billed" })).getAllByRole("row");
    expect(months[1]?.textContent).toBe("October 20266.50No rate— set one in billing before closing");
    expect(months[2]?.textContent).toBe("November 202633.50125.00 per hour (inherited from September 2026)");
    const lines = within(within(panel).getByRole("table", { name: "Suggested CPT codes" })).getAllByRole("row");
    expect(lines[1]?.textContent).toBe("95700 × 1TechnicalEEG setup by a technologistSetup, 21 channels");
    expect(lines[2]?.textContent).toContain("95719 × 1Professional");
    expect(within(panel).getByText("Recording time 40.00 hours, 70% with video.")).toBeTruthy();
    const warning = within(within(panel).getByRole("list", { name: "CPT warnings" })).getByRole("listitem");
    expect(warning.textContent).toContain("Intermittent monitoring with more than 2 hours between review checks");
    expect(warning.textContent).toContain("3 h 10 min between review checks on Nov 3");
    expect(warning.textContent).toContain("Not acknowledged yet");
  });

  it("acknowledges the case's CPT warnings in a new note and reads the check again once it is saved", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: Record<string, unknown>[] = [];
    let checkReads = 0;
    const { queryClient } = renderRecords(
      <RecordTab view={billingNoteView} caseItem={testCase({ stage: "reviewed" })} />,
      {
        groups: ["billing"],
        routes: {
          [`GET ${billingNotes}`]: () =>
            listOf(posted.length ? [billingNote({ acknowledgedWarnings: ["review-check-gap"] })] : [], {
              stage: "reviewed",
            }),
          [`POST ${billingNotes}`]: async (request) => {
            posted.push(await jsonBody(request));
            return envelope(billingNote({ acknowledgedWarnings: ["review-check-gap"] }), { status: 201 });
          },
          [`GET ${billingCheckPath}`]: () => {
            checkReads += 1;
            return envelope(
              posted.length ? { ...failingCheck, acknowledgedWarnings: ["review-check-gap"] } : failingCheck,
            );
          },
        },
      },
    );
    await screen.findByText("Not acknowledged yet: a billing note must acknowledge it before the case closes");
    await user.click(screen.getByRole("button", { name: "Add billing note" }));
    const dialog = screen.getByRole("dialog", { name: "Add billing note" });
    const group = await within(dialog).findByRole("group", { name: "Acknowledge CPT warnings" });
    const box = within(group).getByRole("checkbox", {
      name: "Intermittent monitoring with more than 2 hours between review checks",
    });
    expect(within(group).getByText("3 h 10 min between review checks on Nov 3")).toBeTruthy();
    await user.click(within(dialog).getByRole("textbox", { name: "Note" }));
    await user.paste("Review gap on Nov 3 accepted by the reviewer.");
    await user.click(box);
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const readsBeforeSave = checkReads;
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({
      body: "Review gap on Nov 3 accepted by the reviewer.",
      acknowledgedWarnings: ["review-check-gap"],
    });
    expect(await screen.findByText("Acknowledged in a billing note")).toBeTruthy();
    expect(checkReads).toBeGreaterThan(readsBeforeSave);
  });

  it("lists the warnings a note acknowledges", async () => {
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "closed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () =>
          listOf([billingNote({ acknowledgedWarnings: ["under-2-hours", "technologist-cap-exceeded"] })], {
            stage: "closed",
          }),
        [`GET ${billingCheckPath}`]: () => envelope(billingCheck()),
      },
    });
    const list = await screen.findByRole("list", { name: "Acknowledged CPT warnings" });
    expect(
      within(list)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Recording under 2 hours: long-term EEG codes do not apply",
      "A technologist had more concurrent patients than the cap allows",
    ]);
  });
});
