import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { DialogFormActions } from "./form-actions";

const isDisabled = (name: string) => (screen.getByRole("button", { name }) as HTMLButtonElement).disabled;

describe("a dialog's Cancel and submit row", () => {
  it("submits the form around it, and cancels without submitting", async () => {
    const user = userEvent.setup();
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const cancelled = vi.fn();
    render(
      <form onSubmit={submitted}>
        <DialogFormActions submitLabel="Save groups" pending={false} onCancel={cancelled} />
      </form>,
    );

    await user.click(screen.getByRole("button", { name: "Cancel" }));
    expect(cancelled).toHaveBeenCalledTimes(1);
    expect(submitted).not.toHaveBeenCalled();
    await user.click(screen.getByRole("button", { name: "Save groups" }));
    expect(submitted).toHaveBeenCalledTimes(1);
  });

  it("runs onSubmit instead when the dialog has no form, without submitting one around it", async () => {
    const user = userEvent.setup();
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const onSubmit = vi.fn();
    render(
      <form onSubmit={submitted}>
        <DialogFormActions submitLabel="Save groups" pending={false} onCancel={() => {}} onSubmit={onSubmit} />
      </form>,
    );

    await user.click(screen.getByRole("button", { name: "Save groups" }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(submitted).not.toHaveBeenCalled();
  });

  it("disables both buttons while sending, with a spinner in the submit button, and holds back only the submit when told", () => {
    const { rerender } = render(<DialogFormActions submitLabel="Send report" pending onCancel={() => {}} />);
    expect(isDisabled("Cancel")).toBe(true);
    expect(isDisabled("Send report")).toBe(true);
    expect(screen.getByRole("progressbar", { hidden: true })).toBeTruthy();

    rerender(<DialogFormActions submitLabel="Send report" pending={false} disabled onCancel={() => {}} />);
    expect(isDisabled("Cancel")).toBe(false);
    expect(isDisabled("Send report")).toBe(true);
    expect(screen.queryByRole("progressbar", { hidden: true })).toBeNull();
  });
});
