import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useContractForm } from "../forms/use-contract-form";
import { zonedInputToIso } from "./zoned-input";
import { ZonedTimeField } from "./zoned-time-field";

const schema = z.object({ startedAt: z.string() });

/** A form as the record editors write one: a wall time typed in the client's zone, sent as an instant. */
function StartForm({ zone, onSubmit }: { zone: string; onSubmit: (body: { startedAt: string }) => void }) {
  const form = useContractForm({
    schema,
    defaultValues: { startedAt: "" },
    toInput: (values: { startedAt: string }) => ({ startedAt: zonedInputToIso(values.startedAt, zone) ?? "" }),
  });
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)}>
      <ZonedTimeField control={form.control} name="startedAt" label="Started at" timeZone={zone} note="or now" />
      <button type="submit">Save</button>
    </form>
  );
}

function type(text: string) {
  fireEvent.change(screen.getByLabelText("Started at"), { target: { value: text } });
}

function hint(): string {
  const input = screen.getByLabelText("Started at");
  return document.getElementById(input.getAttribute("aria-describedby") ?? "")?.textContent ?? "";
}

describe("a time typed in a client's zone", () => {
  it("names the zone as it is on the date typed, not today", () => {
    render(<StartForm zone="America/New_York" onSubmit={() => {}} />);
    type("2026-03-08T06:07");
    expect(hint()).toBe("In the client's time zone, America/New_York (EDT); or now");
    type("2026-03-07T06:07");
    expect(hint()).toBe("In the client's time zone, America/New_York (EST); or now");
  });

  it("gives Berlin's summer offset on the night the clocks go back, before they do", () => {
    render(<StartForm zone="Europe/Berlin" onSubmit={() => {}} />);
    type("2026-10-25T00:00");
    expect(hint()).toBe("In the client's time zone, Europe/Berlin (GMT+2); or now");
    type("2026-10-25T04:00");
    expect(hint()).toBe("In the client's time zone, Europe/Berlin (GMT+1); or now");
  });

  it("says when the time typed does not exist, and saves the instant it names", async () => {
    const sent: { startedAt: string }[] = [];
    render(<StartForm zone="America/New_York" onSubmit={(body) => sent.push(body)} />);
    type("2026-03-08T02:30");
    expect(hint()).toBe(
      "02:30 does not exist on Mar 8, 2026 in America/New_York: the clocks jump forward, so it is saved as 03:30 EDT; or now",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Save" }));
    expect(sent).toEqual([{ startedAt: "2026-03-08T07:30:00.000Z" }]);
  });

  it("says when the time typed happens twice, and saves the first", async () => {
    const sent: { startedAt: string }[] = [];
    render(<StartForm zone="America/New_York" onSubmit={(body) => sent.push(body)} />);
    type("2026-11-01T01:30");
    expect(hint()).toBe(
      "01:30 happens twice on Nov 1, 2026 in America/New_York (the clocks go back): saved as the first, EDT; or now",
    );
    await userEvent.setup().click(screen.getByRole("button", { name: "Save" }));
    expect(sent).toEqual([{ startedAt: "2026-11-01T05:30:00.000Z" }]);
  });
});
