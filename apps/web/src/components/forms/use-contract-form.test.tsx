import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hasUnsavedChanges } from "../../lib/unsaved-changes";
import { FormTextField } from "./form-text-field";
import { showServerErrors, useContractForm } from "./use-contract-form";

const schema = z.object({
  name: z.string().trim().min(1, "is required"),
  seats: z.number().int().max(40),
});
type Values = { name: string; seats: string };

/** A form as the screens write one: text in the inputs, converted to the request body the schema checks. */
function SeatsForm({ onSubmit }: { onSubmit: (body: z.output<typeof schema>) => void }) {
  const form = useContractForm({
    schema,
    defaultValues: { name: "", seats: "10" } as Values,
    toInput: (values: Values) => ({ name: values.name, seats: Number(values.seats) }),
  });
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <FormTextField control={form.control} name="name" label="Name" help="Who books" />
      <FormTextField control={form.control} name="seats" label="Seats" />
      <button type="submit">Book</button>
      <button type="button" onClick={() => showServerErrors(form.setError, { name: "is already booked" })}>
        Refuse
      </button>
      <button type="button" onClick={() => form.reset()}>
        Reset
      </button>
    </form>
  );
}

function messageOf(input: HTMLElement): string {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

describe("contract forms", () => {
  it("words zod's own messages like the contract's, after the label", async () => {
    const user = userEvent.setup();
    render(<SeatsForm onSubmit={() => {}} />);
    const seats = screen.getByLabelText("Seats");
    await user.type(seats, "0");
    expect(messageOf(seats)).toBe("Seats must be at most 40");
  });

  it("sends the converted body and focuses the first invalid field when there is one", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    render(<SeatsForm onSubmit={(body) => sent.push(body)} />);
    await user.click(screen.getByRole("button", { name: "Book" }));
    expect(document.activeElement).toBe(screen.getByLabelText("Name"));
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText("Name"), " Ada ");
    await user.click(screen.getByRole("button", { name: "Book" }));
    expect(sent).toEqual([{ name: "Ada", seats: 10 }]);
  });

  it("keeps a server message when the field is left, until its value changes", async () => {
    const user = userEvent.setup();
    render(<SeatsForm onSubmit={() => {}} />);
    const name = screen.getByLabelText("Name");
    await user.type(name, "Ada");
    await user.tab();
    await user.click(screen.getByRole("button", { name: "Refuse" }));
    expect(messageOf(name)).toBe("Name is already booked");
    expect(document.activeElement).toBe(name);
    await user.tab();
    expect(messageOf(name)).toBe("Name is already booked");
    await user.type(name, "m");
    expect(messageOf(name)).toBe("Who books");
  });

  it("counts as unsaved edits while the values differ from the defaults", async () => {
    const user = userEvent.setup();
    render(<SeatsForm onSubmit={() => {}} />);
    expect(hasUnsavedChanges()).toBe(false);
    await user.type(screen.getByLabelText("Name"), "A");
    expect(hasUnsavedChanges()).toBe(true);
    await user.click(screen.getByRole("button", { name: "Reset" }));
    expect(hasUnsavedChanges()).toBe(false);
  });
});
