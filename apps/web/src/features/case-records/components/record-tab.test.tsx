import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { CaseNoteItem } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseNoteView } from "../kinds/case-notes/case-note-view";
import {
  itemFields,
  jsonBody,
  listOf,
  nora,
  recordApi,
  renderRecords,
  staleBase,
  testCase,
} from "../testing/render-records";
import { RecordTab } from "./record-tab";

const notes = recordApi("case-notes");
const noteId = "1e1e2d3c-3333-4a2b-9c3d-0000000000a1";
const deletedId = "1e1e2d3c-3333-4a2b-9c3d-0000000000a2";

function note(overrides: Partial<CaseNoteItem> = {}, data: Partial<CaseNoteItem["data"]> = {}): CaseNoteItem {
  return {
    ...itemFields(noteId),
    kind: "case-note",
    data: { category: "general", body: "Leads checked at 03:00.", ...data },
    ...overrides,
  };
}

function renderNotes(routes: Parameters<typeof renderRecords>[1] extends infer O ? O : never) {
  return renderRecords(<RecordTab view={caseNoteView} caseItem={testCase()} />, routes);
}

describe("record tab", () => {
  it("lists the items with their revision and last change in the client's zone, and deleted ones on request", async () => {
    const user = userEvent.setup({ delay: null });
    const removed = note({ ...itemFields(deletedId, 2, nora), deleted: true }, { body: "Wrong patient." });
    const { calls } = renderNotes({
      routes: {
        [`GET ${notes}`]: ({ url }) =>
          url.searchParams.get("includeDeleted") === "true" ? listOf([note(), removed]) : listOf([note()]),
      },
    });

    const list = await screen.findByRole("list", { name: "Case notes" });
    const [first] = within(list).getAllByRole("listitem");
    expect(within(first as HTMLElement).getByText("Leads checked at 03:00.")).toBeTruthy();
    expect(first?.textContent).toContain(
      "Revision 1 · last changed Nov 22, 2026, 09:14 EST (America/New_York) by Taylor Technologist",
    );
    expect(calls.at(-1)?.path).toContain("includeDeleted=false");
    expect(screen.queryByText("Wrong patient.")).toBeNull();

    await user.click(screen.getByRole("switch", { name: "Show deleted" }));
    const deleted = (await screen.findByText("Wrong patient.")).closest("li") as HTMLElement;
    expect(within(deleted).getByText("Deleted")).toBeTruthy();
    expect(deleted.textContent).toContain("by Nora Night");
    expect(within(deleted).getByRole("button", { name: "Restore" })).toBeTruthy();
    expect(within(deleted).queryByRole("button", { name: "Edit" })).toBeNull();
  });

  it("hides add, edit, delete and restore when the caller may not write, and says why", async () => {
    renderNotes({
      groups: ["billing"],
      routes: {
        [`GET ${notes}`]: () =>
          listOf([note(), note({ ...itemFields(deletedId), deleted: true })], {
            write: { allowed: false, reason: "Case notes are not yours to change.", reasonRequired: false },
          }),
      },
    });
    expect(await screen.findByText("Case notes are not yours to change.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Add case note" })).toBeNull();
    for (const name of ["Edit", "Delete", "Restore"]) expect(screen.queryByRole("button", { name })).toBeNull();
    // Reading the history is for everyone who may read the case.
    expect(screen.getAllByRole("button", { name: "History" })).toHaveLength(2);
  });

  it("adds an item, checking the fields with the contract's messages first", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: Record<string, unknown>[] = [];
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf(posted.length ? [note({}, { body: "Handoff to day shift." })] : []),
        [`POST ${notes}`]: async (request) => {
          posted.push(await jsonBody(request));
          return envelope(note({}, { body: "Handoff to day shift." }), { status: 201 });
        },
      },
    });
    expect(await screen.findByText("No case notes yet.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Add case note" }));
    const dialog = screen.getByRole("dialog", { name: "Add case note" });
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Note is required")).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Category" }), "handoff");
    await user.click(within(dialog).getByRole("textbox", { name: "Note" }));
    await user.paste("Handoff to day shift.");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(posted).toEqual([{ category: "handoff", body: "Handoff to day shift." }]);
    expect(await screen.findByText("Handoff to day shift.")).toBeTruthy();
  });

  it("asks before deleting, then sends a delete revision naming the item's revision", async () => {
    const user = userEvent.setup({ delay: null });
    const revisions: Record<string, unknown>[] = [];
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf(revisions.length ? [] : [note({ revision: 3 })]),
        [`POST ${notes}/${noteId}/revisions`]: async (request) => {
          revisions.push(await jsonBody(request));
          return envelope(note({ revision: 4, deleted: true }), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete this case note?" });
    expect(within(dialog).getByText(/stays in the history and can be restored/)).toBeTruthy();
    expect(revisions).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(revisions).toEqual([{ change: "delete", baseRevision: 3 }]);
    expect(await screen.findByText("No case notes yet.")).toBeTruthy();
  });

  it("asks for a reason when the stage requires one, for edits and deletes", async () => {
    const user = userEvent.setup({ delay: null });
    const revisions: Record<string, unknown>[] = [];
    renderNotes({
      routes: {
        [`GET ${notes}`]: () =>
          listOf([note()], { write: { allowed: true, reason: null, reasonRequired: true }, stage: "preview" }),
        [`POST ${notes}/${noteId}/revisions`]: async (request) => {
          revisions.push(await jsonBody(request));
          return envelope(note({ revision: 2 }), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const dialog = screen.getByRole("dialog", { name: "Edit case note" });
    // A click leaves the caret after the current text, so the paste appends.
    await user.click(within(dialog).getByRole("textbox", { name: "Note" }));
    await user.paste(" Corrected.");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Reason for the change is required")).toBeTruthy();
    expect(revisions).toHaveLength(0);
    await user.click(within(dialog).getByRole("textbox", { name: /Reason for the change/ }));
    await user.paste("Typo in the time");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(revisions).toHaveLength(1));
    expect(revisions[0]).toEqual({
      change: "edit",
      baseRevision: 1,
      data: { category: "general", body: "Leads checked at 03:00. Corrected." },
      reason: "Typo in the time",
    });

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await user.click(screen.getByRole("button", { name: "Delete" }));
    const confirm = screen.getByRole("dialog", { name: "Delete this case note?" });
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    expect(within(confirm).getByText("Reason for the change is required")).toBeTruthy();
    await user.click(within(confirm).getByRole("textbox", { name: /Reason for the change/ }));
    await user.paste("Duplicate");
    await user.click(within(confirm).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(revisions).toHaveLength(2));
    expect(revisions[1]).toEqual({ change: "delete", baseRevision: 1, reason: "Duplicate" });
  });

  it("shows every revision oldest first with author, change and reason, and a diff from the one before", async () => {
    const user = userEvent.setup({ delay: null });
    const revision = (number: number, change: string, body: string, reason: string | null = null) => ({
      id: `2e1e2d3c-3333-4a2b-9c3d-00000000000${number}`,
      itemId: noteId,
      revision: number,
      change,
      deleted: change === "delete",
      reason,
      data: { category: "general", body },
      author: number === 1 ? itemFields(noteId).createdBy : nora,
      createdAt: number === 1 ? "2026-11-22T14:14:00.000Z" : "2026-11-22T15:30:00.000Z",
    });
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf([note({ revision: 3 }, { body: "Leads re-gelled." })]),
        [`GET ${notes}/${noteId}/revisions`]: () =>
          envelope({
            item: note({ revision: 3 }),
            // Out of order on purpose: the dialog shows them oldest first.
            revisions: [
              revision(2, "edit", "Leads re-gelled.", "Wrong lead named"),
              revision(1, "create", "Leads checked."),
              revision(3, "delete", "Leads re-gelled."),
            ],
          }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "History" }));
    const dialog = await screen.findByRole("dialog", { name: "History of this case note" });
    const revisions = within(await within(dialog).findByRole("list", { name: "Revisions" })).getAllByRole("listitem");
    expect(revisions.map((item) => within(item).getByRole("heading").textContent)).toEqual([
      "Revision 1",
      "Revision 2",
      "Revision 3",
    ]);
    const [first, second, third] = revisions as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText("Created")).toBeTruthy();
    expect(first.textContent).toContain("Nov 22, 2026, 09:14 EST (America/New_York) by Taylor Technologist");
    expect(within(second).getByText("Edited")).toBeTruthy();
    expect(within(second).getByText("Reason: Wrong lead named")).toBeTruthy();
    const diff = within(second).getByRole("table", { name: "Revision 1 compared with revision 2" });
    const row = within(diff).getByRole("rowheader", { name: /Note/ }).closest("tr") as HTMLElement;
    expect(within(row).getByText("Leads checked.")).toBeTruthy();
    expect(within(row).getByText("Leads re-gelled.")).toBeTruthy();
    expect(within(row).getByText("Changed")).toBeTruthy();
    expect(within(third).getByText("Deleted")).toBeTruthy();
  });

  it("on a stale edit shows both versions and re-applies the user's changes on top of theirs, losing nothing", async () => {
    const user = userEvent.setup({ delay: null });
    const theirs = note({ ...itemFields(noteId, 2, nora) }, { category: "issue", body: "Leads checked at 03:00." });
    const revisions: Record<string, unknown>[] = [];
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf([revisions.length ? theirs : note()]),
        [`POST ${notes}/${noteId}/revisions`]: async (request) => {
          const body = await jsonBody(request);
          revisions.push(body);
          if (body.baseRevision === 1) return staleBase(theirs);
          return envelope(note({ revision: 3 }, body.data as CaseNoteItem["data"]), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const dialog = screen.getByRole("dialog", { name: "Edit case note" });
    const body = within(dialog).getByRole("textbox", { name: "Note" });
    await user.clear(body);
    await user.paste("Leads checked at 03:00; Fp1 re-gelled.");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    expect(await within(dialog).findByText("Someone else changed this case note first")).toBeTruthy();
    expect(within(dialog).getByText(/Revision 2 was saved by Nora Night/)).toBeTruthy();
    const compare = within(dialog).getByRole("table", { name: "Their version compared with yours" });
    const noteRow = within(compare).getByRole("rowheader", { name: /Note/ }).closest("tr") as HTMLElement;
    expect(within(noteRow).getByText("Leads checked at 03:00.")).toBeTruthy();
    expect(within(noteRow).getByText("Leads checked at 03:00; Fp1 re-gelled.")).toBeTruthy();
    const categoryRow = within(compare)
      .getByRole("rowheader", { name: /Category/ })
      .closest("tr") as HTMLElement;
    expect(within(categoryRow).getByText("Issue")).toBeTruthy();

    await user.click(within(dialog).getByRole("button", { name: "Re-apply my changes on top" }));
    expect(within(dialog).getByText(/re-applied on top of revision 2/)).toBeTruthy();
    // Their category, the user's words.
    expect((within(dialog).getByRole("combobox", { name: "Category" }) as HTMLSelectElement).value).toBe("issue");
    expect((within(dialog).getByRole("textbox", { name: "Note" }) as HTMLTextAreaElement).value).toBe(
      "Leads checked at 03:00; Fp1 re-gelled.",
    );
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(revisions.at(-1)).toEqual({
      change: "edit",
      baseRevision: 2,
      data: { category: "issue", body: "Leads checked at 03:00; Fp1 re-gelled." },
    });
  });

  it("discards the user's version on request and keeps theirs", async () => {
    const user = userEvent.setup({ delay: null });
    const theirs = note({ ...itemFields(noteId, 2, nora) }, { body: "Their words." });
    let posted = 0;
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf([posted ? theirs : note()]),
        [`POST ${notes}/${noteId}/revisions`]: () => {
          posted += 1;
          return staleBase(theirs);
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit" }));
    const dialog = screen.getByRole("dialog", { name: "Edit case note" });
    // A click leaves the caret after the current text, so the paste appends.
    await user.click(within(dialog).getByRole("textbox", { name: "Note" }));
    await user.paste(" Mine.");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await user.click(await within(dialog).findByRole("button", { name: "Discard mine, keep theirs" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByText("Their words.")).toBeTruthy();
    expect(posted).toBe(1);
  });

  it("restores a deleted item with a restore revision", async () => {
    const user = userEvent.setup({ delay: null });
    const revisions: Record<string, unknown>[] = [];
    renderNotes({
      routes: {
        [`GET ${notes}`]: () => listOf([note({ revision: 2, deleted: !revisions.length })]),
        [`POST ${notes}/${noteId}/revisions`]: async (request) => {
          revisions.push(await jsonBody(request));
          return envelope(note({ revision: 3 }), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Restore" }));
    await waitFor(() => expect(revisions).toEqual([{ change: "restore", baseRevision: 2 }]));
    await waitFor(() => expect(screen.queryByText("Deleted")).toBeNull());
  });
});
