import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { PatientDetailsRevision, RecordWriteState } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseId, jsonBody, nora, renderRecords, taylor, testCase, writable } from "../testing/render-records";
import { PatientDetailsTab } from "./patient-details-tab";

const api = `/api/continuous-monitoring/cases/monitoring/${caseId}/patient-details`;

function revision(number: number, overrides: Partial<PatientDetailsRevision> = {}): PatientDetailsRevision {
  return {
    id: `6e1e2d3c-3333-4a2b-9c3d-00000000000${number}`,
    caseId,
    revision: number,
    mrn: "MRN-0042",
    firstName: "Jamie",
    lastName: "Rivera",
    dateOfBirth: "1961-04-02",
    sex: "female",
    location: { unit: "Neuro ICU", room: "12", bed: "A" },
    referringPhysician: "Dr. Lee",
    indication: "Altered mental status",
    medications: null,
    notes: null,
    author: number === 1 ? taylor : nora,
    createdAt: number === 1 ? "2026-11-22T14:14:00.000Z" : "2026-11-22T15:30:00.000Z",
    reason: null,
    ...overrides,
  };
}

function detailsView(current: PatientDetailsRevision, write: RecordWriteState = writable, stage = "monitoring") {
  return envelope({ caseId, stage, current, write });
}

describe("patient details", () => {
  it("shows the current revision read-only, with the reason when the caller may not change it", async () => {
    renderRecords(<PatientDetailsTab caseItem={testCase({ stage: "closed" })} />, {
      groups: ["reviewer"],
      routes: {
        [`GET ${api}`]: () =>
          detailsView(
            revision(2, { reason: "MRN corrected" }),
            {
              allowed: false,
              reason: "This case is closed; its records are read-only until it is re-opened.",
              reasonRequired: false,
            },
            "closed",
          ),
      },
    });
    expect(await screen.findByText(/This case is closed/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
    expect(screen.getByText("Altered mental status")).toBeTruthy();
    expect(screen.getByText(/Revision 2 · last changed/).textContent).toContain(
      "Nov 22, 2026, 10:30 EST (America/New_York) by Nora Night · Reason: MRN corrected",
    );
  });

  it("saves a new revision with If-Match, checked with the contract's messages as the user types", async () => {
    const user = userEvent.setup({ delay: null });
    const puts: { ifMatch: string | null; body: Record<string, unknown> }[] = [];
    renderRecords(<PatientDetailsTab caseItem={testCase()} />, {
      routes: {
        [`GET ${api}`]: () =>
          detailsView(
            puts.length ? revision(2, { location: { unit: "Neuro ICU", room: "14", bed: "A" } }) : revision(1),
          ),
        [`PUT ${api}`]: async (request) => {
          puts.push({ ifMatch: request.headers.get("if-match"), body: await jsonBody(request) });
          return envelope(revision(2, { location: { unit: "Neuro ICU", room: "14", bed: "A" } }));
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByRole("form", { name: "Edit patient details" });
    await user.clear(within(form).getByRole("textbox", { name: "MRN" }));
    expect(await within(form).findByText("MRN is required")).toBeTruthy();
    // The cleared field keeps the focus.
    await user.paste("MRN-0043");
    const room = within(form).getByRole("textbox", { name: "Room" });
    await user.clear(room);
    await user.type(room, "14");
    await user.click(within(form).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.ifMatch).toBe('"1"');
    expect(puts[0]?.body).toEqual({
      mrn: "MRN-0043",
      firstName: "Jamie",
      lastName: "Rivera",
      dateOfBirth: "1961-04-02",
      sex: "female",
      location: { unit: "Neuro ICU", room: "14", bed: "A" },
      referringPhysician: "Dr. Lee",
      indication: "Altered mental status",
      medications: null,
      notes: null,
      reason: null,
    });
    expect(await screen.findByRole("button", { name: "Edit" })).toBeTruthy();
  });

  it("requires a reason for a correction after monitoring", async () => {
    const user = userEvent.setup({ delay: null });
    const puts: Record<string, unknown>[] = [];
    renderRecords(<PatientDetailsTab caseItem={testCase({ stage: "preview" })} />, {
      routes: {
        [`GET ${api}`]: () =>
          detailsView(revision(1), { allowed: true, reason: null, reasonRequired: true }, "preview"),
        [`PUT ${api}`]: async (request) => {
          puts.push(await jsonBody(request));
          return envelope(revision(2));
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByRole("form", { name: "Edit patient details" });
    await user.click(within(form).getByRole("textbox", { name: "Medications" }));
    await user.paste("Levetiracetam 500 mg bid");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(form).findByText("Reason for the change is required")).toBeTruthy();
    expect(puts).toHaveLength(0);
    await user.click(within(form).getByRole("textbox", { name: /Reason for the change/ }));
    await user.paste("Medication list from pharmacy");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ medications: "Levetiracetam 500 mg bid", reason: "Medication list from pharmacy" });
  });

  it("keeps the edits beside their version when someone saved first, and saves over it only when asked", async () => {
    const user = userEvent.setup({ delay: null });
    const theirs = revision(2, { firstName: "Jaime" });
    const puts: string[] = [];
    renderRecords(<PatientDetailsTab caseItem={testCase()} />, {
      routes: {
        [`GET ${api}`]: () => detailsView(revision(1)),
        [`PUT ${api}`]: (request) => {
          puts.push(request.headers.get("if-match") ?? "");
          if (puts.length === 1) {
            return Response.json(
              {
                enoch: "release-1",
                error: {
                  status: 412,
                  code: "precondition_failed",
                  message: "Changed meanwhile",
                  details: { current: theirs },
                },
              },
              { status: 412 },
            );
          }
          return envelope(revision(3, { notes: "Family at bedside" }));
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const form = screen.getByRole("form", { name: "Edit patient details" });
    await user.click(within(form).getByRole("textbox", { name: "Notes" }));
    await user.paste("Family at bedside");
    await user.click(within(form).getByRole("button", { name: "Save" }));
    expect(await within(form).findByText("Someone else changed the patient details first")).toBeTruthy();
    expect(within(form).getByText(/Revision 2 was saved by Nora Night/)).toBeTruthy();
    await user.click(within(form).getByRole("button", { name: "Compare" }));
    const compare = within(form).getByRole("table");
    const row = within(compare)
      .getByRole("rowheader", { name: /First name/ })
      .closest("tr") as HTMLElement;
    expect(within(row).getByText("Jaime")).toBeTruthy();
    expect(within(row).getByText("Jamie")).toBeTruthy();
    // The edits are still in the form.
    expect((within(form).getByRole("textbox", { name: "Notes" }) as HTMLTextAreaElement).value).toBe(
      "Family at bedside",
    );
    await user.click(within(form).getByRole("button", { name: "Save my edits over theirs" }));
    await waitFor(() => expect(puts).toEqual(['"1"', '"2"']));
  });

  it("lists every revision with its author, reason and what changed", async () => {
    const user = userEvent.setup({ delay: null });
    renderRecords(<PatientDetailsTab caseItem={testCase()} />, {
      routes: {
        [`GET ${api}`]: () => detailsView(revision(2, { mrn: "MRN-0043", reason: "Wrong MRN" })),
        [`GET ${api}/revisions`]: () =>
          envelope({ caseId, revisions: [revision(1), revision(2, { mrn: "MRN-0043", reason: "Wrong MRN" })] }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "History" }));
    const dialog = await screen.findByRole("dialog", { name: "History of the patient details" });
    const diff = await within(dialog).findByRole("table", { name: "Revision 1 compared with revision 2" });
    const row = within(diff).getByRole("rowheader", { name: /MRN/ }).closest("tr") as HTMLElement;
    expect(within(row).getByText("MRN-0042")).toBeTruthy();
    expect(within(row).getByText("MRN-0043")).toBeTruthy();
    expect(within(dialog).getByText("Reason: Wrong MRN")).toBeTruthy();
    expect(within(dialog).getByText("Created")).toBeTruthy();
    expect(within(dialog).getByText("Edited")).toBeTruthy();
  });
});
