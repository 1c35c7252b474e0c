import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { isoToZonedInput } from "../../../components/dates/zoned-input";
import { envelope } from "../../../test/fake-server";
import { findingsApi, renderPanel, testDelivery, testFinding, testRecipient, zone } from "../testing/finding-fixtures";

function messageOf(input: HTMLElement): string {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

async function openRaiseDialog(routes: Parameters<typeof renderPanel>[0]["routes"]) {
  const user = userEvent.setup();
  renderPanel({
    groups: ["technologist"],
    routes: { [`GET ${findingsApi}`]: () => envelope({ items: [] }), ...routes },
  });
  await user.click(await screen.findByRole("button", { name: "Raise critical finding" }));
  const dialog = await screen.findByRole("dialog", { name: "Raise critical finding" });
  return { user, dialog };
}

function badRequest(issues: { path: string; message: string }[]): Response {
  return Response.json(
    {
      enoch: "release-1",
      error: { status: 400, code: "bad_request", message: "Invalid request", details: { issues } },
    },
    { status: 400 },
  );
}

/** Text arrives in one input event, as a paste or a dictation would: each keystroke re-validates the whole form. */
async function paste(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

describe("raising a critical finding", () => {
  it("opens with the focus on the kinds and the EEG onset at now in the client's zone", async () => {
    const { dialog } = await openRaiseDialog({});
    const kinds = within(dialog).getByRole("radiogroup", { name: "Kind of finding" });
    expect(
      within(kinds)
        .getAllByRole("radio")
        .map((radio) => radio.closest("label")?.textContent),
    ).toEqual([
      "Electrographic seizure (ESz)",
      "Electrographic status epilepticus (ESE)",
      "Electroclinical seizure (ECSz)",
      "Other urgent finding",
    ]);
    await waitFor(() => expect(document.activeElement).toBe(within(kinds).getAllByRole("radio")[0]));
    const onset = within(dialog).getByLabelText(/EEG onset/) as HTMLInputElement;
    const now = Date.now();
    expect([
      isoToZonedInput(new Date(now - 60_000).toISOString(), zone),
      isoToZonedInput(new Date(now).toISOString(), zone),
    ]).toContain(onset.value);
    expect(messageOf(onset)).toMatch(
      /^In the client's time zone, America\/Los_Angeles \(P[SD]T\); may be earlier than now$/,
    );
  });

  it("names what is missing beside each field, focuses the first, and sends nothing", async () => {
    const sent: unknown[] = [];
    const { user, dialog } = await openRaiseDialog({
      [`POST ${findingsApi}`]: async ({ text }) => {
        sent.push(JSON.parse(await text()));
        return envelope(testFinding(), { status: 201 });
      },
    });
    await user.click(within(dialog).getByRole("button", { name: "Raise and notify" }));
    const kinds = within(dialog).getByRole("radiogroup", { name: "Kind of finding" });
    expect(await within(dialog).findByText("Kind is required")).toBeTruthy();
    expect(messageOf(kinds)).toBe("Kind is required");
    const description = within(dialog).getByRole("textbox", { name: "Description" });
    expect(messageOf(description)).toBe("Description is required");
    expect(document.activeElement).toBe(within(kinds).getAllByRole("radio")[0]);

    // A time ahead of the clock is refused as the server would refuse it.
    fireEvent.change(within(dialog).getByLabelText(/EEG onset/), {
      target: { value: isoToZonedInput(new Date(Date.now() + 3 * 3600_000).toISOString(), zone) },
    });
    await waitFor(() =>
      expect(messageOf(within(dialog).getByLabelText(/EEG onset/))).toBe("EEG onset must not be in the future"),
    );
    expect(sent).toEqual([]);
  });

  it("is done from the keyboard: Space chooses the focused kind, the onset is typed in the client's zone, and the server's field message lands under its field", async () => {
    const sent: unknown[] = [];
    const { user, dialog } = await openRaiseDialog({
      [`POST ${findingsApi}`]: async ({ text }) => {
        sent.push(JSON.parse(await text()));
        return badRequest([{ path: "body.description", message: "must not name the patient" }]);
      },
    });
    const kinds = within(dialog).getByRole("radiogroup", { name: "Kind of finding" });
    await waitFor(() => expect(document.activeElement).toBe(within(kinds).getAllByRole("radio")[0]));
    // jsdom has no CSS.escape, which user-event needs to walk a radio group by arrows; Space checks the focused radio.
    await user.keyboard(" ");
    expect(
      (within(kinds).getByRole("radio", { name: "Electrographic seizure (ESz)" }) as HTMLInputElement).checked,
    ).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/EEG onset/), { target: { value: "2026-11-22T06:02" } });
    await paste(user, within(dialog).getByRole("textbox", { name: "Description" }), "Continuous seizure activity");
    await user.click(within(dialog).getByRole("button", { name: "Raise and notify" }));

    const description = within(dialog).getByRole("textbox", { name: "Description" });
    await waitFor(() => expect(messageOf(description)).toBe("Description must not name the patient"));
    expect(document.activeElement).toBe(description);
    expect(sent).toEqual([
      {
        kind: "electrographic-seizure",
        onsetAt: "2026-11-22T14:02:00.000Z",
        description: "Continuous seizure activity",
      },
    ]);
  });

  it("says why the server refused a finding that belongs to no field", async () => {
    const { user, dialog } = await openRaiseDialog({
      [`POST ${findingsApi}`]: () =>
        Response.json(
          {
            enoch: "release-1",
            error: { status: 409, code: "conflict", message: "The case is no longer in monitoring or preview." },
          },
          { status: 409 },
        ),
    });
    await user.click(within(dialog).getByRole("radio", { name: "Electrographic seizure (ESz)" }));
    await paste(user, within(dialog).getByRole("textbox", { name: "Description" }), "Rhythmic delta");
    await user.click(within(dialog).getByRole("button", { name: "Raise and notify" }));
    expect(
      await within(dialog).findByText("The finding was not raised: The case is no longer in monitoring or preview."),
    ).toBeTruthy();
  });

  it("raises the finding and says who is being told now; the panel lists it", async () => {
    let items: ReturnType<typeof testFinding>[] = [];
    const raised = testFinding({
      recipients: [
        testRecipient({
          deliveries: [
            testDelivery({ status: "pending", sentAt: null }),
            testDelivery({
              id: "6d000000-0000-4000-8000-000000000002",
              channel: "sms",
              destination: "+1 *** *** 0142",
              status: "pending",
              sentAt: null,
            }),
          ],
        }),
        testRecipient({
          id: "7e000000-0000-4000-8000-000000000002",
          kind: "reviewer",
          name: "Dr. Riley Reviewer",
          contactId: null,
          username: "reviewer",
          deliveries: [testDelivery({ id: "6d000000-0000-4000-8000-000000000003", destination: "r***@vigil.example" })],
        }),
      ],
    });
    const { user, dialog } = await openRaiseDialog({
      [`GET ${findingsApi}`]: () => envelope({ items }),
      [`POST ${findingsApi}`]: () => {
        items = [raised];
        return envelope(raised, { status: 201 });
      },
    });
    await user.click(within(dialog).getByRole("radio", { name: "Electrographic seizure (ESz)" }));
    await paste(user, within(dialog).getByRole("textbox", { name: "Description" }), "Right temporal discharges");
    await user.click(within(dialog).getByRole("button", { name: "Raise and notify" }));

    expect((await within(dialog).findByRole("status")).textContent).toBe(
      "Electrographic seizure (ESz) raised on CM-2026-000123.",
    );
    const told = within(dialog).getByRole("list", { name: "Being told now" });
    expect(
      within(told)
        .getAllByRole("listitem")
        .map((item) => item.textContent),
    ).toEqual([
      "Dr. Nia Neuro (Client contact): Email n***@pni.example, Text message +1 *** *** 0142",
      "Dr. Riley Reviewer (Reviewer): Email r***@vigil.example",
    ]);
    expect(dialog.textContent).toContain(
      "Someone must acknowledge it by Nov 22, 2026, 06:25 PST (America/Los_Angeles)",
    );
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(screen.getByRole("article", { name: "Electrographic seizure (ESz)" })).toBeTruthy();
  });
});
