import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hasUnsavedChanges } from "../../lib/unsaved-changes";
import { FormTextField } from "../forms/form-text-field";
import { useContractForm } from "../forms/use-contract-form";
import { Dialog } from "./dialog";

const noteSchema = z.object({ body: z.string().min(1) });

function NoteForm() {
  const form = useContractForm({ schema: noteSchema, defaultValues: { body: "" } });
  return (
    <form noValidate aria-label="Case note">
      <FormTextField control={form.control} name="body" label="Note" multiline />
    </form>
  );
}

/** A screen with a button that opens a dialog holding a contract form, as the record tabs do. */
function NoteScreen() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Add note
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="note-title">
        <DialogTitle id="note-title">Add a case note</DialogTitle>
        <DialogContent>
          <NoteForm />
        </DialogContent>
      </Dialog>
    </>
  );
}

/**
 * The other way dialogs are written: the component holds the form and renders the dialog around it (the users,
 * rates and client dialogs), next to a form of the page that may already hold edits when the dialog opens.
 */
function RateScreen() {
  const page = useContractForm({ schema: noteSchema, defaultValues: { body: "" } });
  const rate = useContractForm({ schema: noteSchema, defaultValues: { body: "" } });
  const [open, setOpen] = useState(false);
  return (
    <>
      <FormTextField control={page.control} name="body" label="Page notes" />
      <button type="button" onClick={() => setOpen(true)}>
        Set rate
      </button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="rate-title">
        <DialogTitle id="rate-title">Set the rate</DialogTitle>
        <DialogContent>
          <FormTextField control={rate.control} name="body" label="Rate" />
        </DialogContent>
      </Dialog>
    </>
  );
}

const noteDialog = () => screen.queryByRole("dialog", { name: "Add a case note" });
const discardQuestion = () => screen.findByRole("dialog", { name: "Discard your changes?" });

function backdropOf(dialog: HTMLElement): HTMLElement {
  // MUI closes on a click on the container around the paper (the backdrop's area), not inside the paper.
  const container = dialog.parentElement;
  if (!container) throw new Error("The dialog has no container.");
  return container;
}

describe("dialogs with unsaved edits", () => {
  it("closes on Escape at once while nothing was typed", async () => {
    const user = userEvent.setup();
    render(<NoteScreen />);
    await user.click(screen.getByRole("button", { name: "Add note" }));
    expect(noteDialog()).not.toBeNull();
    await user.keyboard("{Escape}");
    await waitFor(() => expect(noteDialog()).toBeNull());
  });

  it("asks before Escape throws a typed note away, and keeps it when the user keeps editing", async () => {
    const user = userEvent.setup();
    render(<NoteScreen />);
    await user.click(screen.getByRole("button", { name: "Add note" }));
    await user.type(screen.getByLabelText("Note"), "Seizure at 14:02");
    await user.keyboard("{Escape}");

    const question = await discardQuestion();
    await user.click(within(question).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Discard your changes?" })).toBeNull());
    await waitFor(() => expect(noteDialog()).not.toBeNull());
    expect(screen.getByLabelText("Note")).toHaveProperty("value", "Seizure at 14:02");
  });

  it("closes after the user confirms the discard, and the page no longer counts the edits", async () => {
    const user = userEvent.setup();
    render(<NoteScreen />);
    await user.click(screen.getByRole("button", { name: "Add note" }));
    await user.type(screen.getByLabelText("Note"), "Draft");
    expect(hasUnsavedChanges()).toBe(true);

    await user.keyboard("{Escape}");
    await user.click(within(await discardQuestion()).getByRole("button", { name: "Discard changes" }));
    await waitFor(() => expect(noteDialog()).toBeNull());
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("asks before a click beside the dialog throws the edits away", async () => {
    const user = userEvent.setup();
    render(<NoteScreen />);
    await user.click(screen.getByRole("button", { name: "Add note" }));
    await user.type(screen.getByLabelText("Note"), "Draft");
    const dialog = noteDialog();
    if (!dialog) throw new Error("The note dialog did not open.");
    await user.click(backdropOf(dialog));
    await user.click(within(await discardQuestion()).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(noteDialog()).not.toBeNull());
    expect(screen.getByLabelText("Note")).toHaveProperty("value", "Draft");
  });

  it("asks for a form its component holds around it, but not for edits the page already had", async () => {
    const user = userEvent.setup();
    render(<RateScreen />);
    const rateDialog = () => screen.queryByRole("dialog", { name: "Set the rate" });
    await user.type(screen.getByLabelText("Page notes"), "kept on the page");

    await user.click(screen.getByRole("button", { name: "Set rate" }));
    await user.keyboard("{Escape}");
    await waitFor(() => expect(rateDialog()).toBeNull());
    expect(screen.queryByRole("dialog", { name: "Discard your changes?" })).toBeNull();

    await user.click(screen.getByRole("button", { name: "Set rate" }));
    await user.type(screen.getByLabelText("Rate"), "125.00");
    await user.keyboard("{Escape}");
    await user.click(within(await discardQuestion()).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(rateDialog()).not.toBeNull());
    expect(screen.getByLabelText("Rate")).toHaveProperty("value", "125.00");
  });
});
