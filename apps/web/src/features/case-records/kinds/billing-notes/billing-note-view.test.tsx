import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { BillingNoteItem } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../../test/fake-server";
import { RecordTab } from "../../components/record-tab";
import { itemFields, jsonBody, listOf, recordApi, renderRecords, testCase } from "../../testing/render-records";
import { billingNoteView } from "./billing-note-view";

const billingNotes = recordApi("billing-notes", "reviewed");
const noteId = "5e1e2d3c-3333-4a2b-9c3d-0000000000b1";

function billingNote(data: Partial<BillingNoteItem["data"]> = {}): BillingNoteItem {
  return {
    ...itemFields(noteId),
    kind: "billing-note",
    data: {
      body: "Two full days of video cEEG.",
      cptCodes: [{ code: "95720", units: 2, modifiers: ["26"] }],
      adjustments: "",
      ...data,
    },
  };
}

describe("billing notes", { timeout: 20_000 }, () => {
  it("shows the note with its CPT code lines", async () => {
    renderRecords(<RecordTab view={billingNoteView} caseItem={testCase({ stage: "reviewed" })} />, {
      groups: ["billing"],
      routes: {
        [`GET ${billingNotes}`]: () =>
          listOf([billingNote({ adjustments: "Day 2 shortened by 3 h." })], { stage: "reviewed" }),
      },
    });
    const table = await screen.findByRole("table", { name: "CPT codes" });
    const [, row] = within(table).getAllByRole("row");
    expect(row?.textContent).toBe("95720226");
    expect(screen.getByText("Adjustments: Day 2 shortened by 3 h.")).toBeTruthy();
  });

  it("adds CPT code lines with units and modifiers, checked with the contract's messages", async () => {
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
    });
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
      },
    });
    expect(await screen.findByText(/This case is closed/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add billing note" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
  });
});
