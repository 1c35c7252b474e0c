import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { refreshCase } from "../../../api/live-case-events";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import {
  caseId,
  coordinator,
  findingsApi,
  monitoringCase,
  renderPanel,
  testDelivery,
  testFinding,
  testRecipient,
} from "../testing/finding-fixtures";

const minute = 60_000;

function findingCard(name: string): HTMLElement {
  return screen.getByRole("article", { name });
}

/** The text of a fact in a finding's definition list ("EEG onset" → its time). */
function fact(card: HTMLElement, label: string): string {
  const term = within(card).getByText(label, { selector: "dt" });
  return term.nextElementSibling?.textContent ?? "";
}

/** Text arrives in one input event, as a paste or a dictation would: each keystroke re-validates the whole form. */
async function paste(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.click(field);
  await user.paste(text);
}

describe("the case's critical findings panel", () => {
  it("says there are none, and offers a technologist the raise on a case in monitoring", async () => {
    renderPanel({ groups: ["technologist"], routes: { [`GET ${findingsApi}`]: () => envelope({ items: [] }) } });
    expect(await screen.findByText("No critical findings on this case.")).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Critical findings" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Raise critical finding" })).toBeTruthy();
  });

  it("offers no raise to a coordinator, nor on a case past preview", async () => {
    const { unmount } = renderPanel({
      groups: ["coordinator"],
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [] }) },
    });
    expect(await screen.findByText("No critical findings on this case.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Raise critical finding" })).toBeNull();
    unmount();

    renderPanel({
      groups: ["technologist"],
      target: { ...monitoringCase, stage: "reviewed" },
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [] }) },
    });
    expect(await screen.findByText("No critical findings on this case.")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Raise critical finding" })).toBeNull();
  });

  it("shows an open finding's four times in the client's zone, its countdown, recipients and a failed message that stands out", async () => {
    const now = Date.now();
    const open = testFinding({
      raisedAt: new Date(now - 5 * minute).toISOString(),
      dueAt: new Date(now + 10 * minute + 30_000).toISOString(),
      firstNotifiedAt: null,
      escalations: 1,
      nextEscalationAt: "2026-11-22T14:35:00.000Z",
      onsetAt: "2026-11-22T14:02:00.000Z",
      recipients: [
        testRecipient({
          deliveries: [
            testDelivery({
              status: "failed",
              attempts: 6,
              lastError: "SMTP 550 mailbox unavailable",
              sentAt: null,
            }),
            testDelivery({
              id: "6d000000-0000-4000-8000-000000000002",
              channel: "sms",
              destination: "+1 *** *** 0142",
              status: "pending",
              attempts: 2,
              lastError: "Webhook answered 503",
              nextAttemptAt: new Date(now + minute).toISOString(),
              sentAt: null,
            }),
          ],
        }),
        testRecipient({
          id: "7e000000-0000-4000-8000-000000000002",
          kind: "coordinator",
          name: "Casey Coordinator",
          contactId: null,
          username: "coordinator",
          level: 1,
          deliveries: [testDelivery({ id: "6d000000-0000-4000-8000-000000000003", destination: "c***@vigil.example" })],
        }),
      ],
    });
    renderPanel({ groups: ["coordinator"], routes: { [`GET ${findingsApi}`]: () => envelope({ items: [open] }) } });

    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    expect(within(card).getByText("Open: not acknowledged yet")).toBeTruthy();
    expect(within(card).getByText("Right temporal rhythmic discharges evolving over 40 s.")).toBeTruthy();
    expect(fact(card, "EEG onset")).toBe("Nov 22, 2026, 06:02 PST (America/Los_Angeles)");
    expect(fact(card, "Raised")).toContain("by Taylor Technologist");
    expect(fact(card, "First notification sent")).toBe("Not sent yet");
    expect(fact(card, "Acknowledgement")).toBe("Not yet");
    expect(fact(card, "Acknowledgement due")).toContain("10 min left (window 15 min)");
    expect(fact(card, "Escalations")).toBe("1 so far; next Nov 22, 2026, 06:35 PST (America/Los_Angeles)");

    const table = within(card).getByRole("table", { name: "Recipients: Electrographic seizure (ESz)" });
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(3);
    const [email, sms, escalated] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(email.dataset.status).toBe("failed");
    expect(within(email).getByText("When raised")).toBeTruthy();
    expect(within(email).getByText("Dr. Nia Neuro")).toBeTruthy();
    expect(within(email).getByText("n***@pni.example")).toBeTruthy();
    expect(within(email).getByText("Failed")).toBeTruthy();
    expect(within(email).getByText("SMTP 550 mailbox unavailable (6 attempts)")).toBeTruthy();
    expect(within(sms).getByText("Text message")).toBeTruthy();
    expect(within(sms).getByText("Retrying")).toBeTruthy();
    expect(within(sms).getByText("Webhook answered 503 (2 attempts)")).toBeTruthy();
    expect(within(escalated).getByText("Escalation 1")).toBeTruthy();
    expect(within(escalated).getByText("Coordinator")).toBeTruthy();
    expect(within(escalated).getByText("Sent")).toBeTruthy();

    // Coordinators handle findings: both actions are there while it is open.
    expect(within(card).getByRole("button", { name: "Record phone acknowledgement" })).toBeTruthy();
    expect(within(card).getByRole("button", { name: "Cancel finding" })).toBeTruthy();
  });

  it("shows an open finding past its due time as missed, in words", async () => {
    const now = Date.now();
    const late = testFinding({
      raisedAt: new Date(now - 30 * minute).toISOString(),
      dueAt: new Date(now - 15 * minute - 30_000).toISOString(),
      withinWindow: false,
    });
    renderPanel({ groups: ["coordinator"], routes: { [`GET ${findingsApi}`]: () => envelope({ items: [late] }) } });
    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    expect(fact(card, "Acknowledgement due")).toContain("Missed: overdue by 15 min (window 15 min)");
  });

  it("shows who acknowledged a finding, how and when, within the window; closed findings offer no actions", async () => {
    const acknowledged = testFinding({
      status: "acknowledged",
      acknowledgement: {
        at: "2026-11-22T14:18:00.000Z",
        name: "Nurse Ana",
        via: "phone",
        recipientId: null,
        readBackConfirmed: true,
        note: "Neurology paged",
        recordedBy: coordinator,
      },
      withinWindow: true,
      nextEscalationAt: null,
    });
    const cancelled = testFinding({
      id: "5c000000-0000-4000-8000-000000000002",
      kind: "other-urgent",
      status: "cancelled",
      cancellation: { at: "2026-11-22T14:12:00.000Z", reason: "Artifact: chewing", by: coordinator },
      nextEscalationAt: null,
    });
    renderPanel({
      groups: ["coordinator"],
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [acknowledged, cancelled] }) },
    });
    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    expect(within(card).getByText("Acknowledged")).toBeTruthy();
    expect(fact(card, "First notification sent")).toBe(
      "Nov 22, 2026, 06:10 PST (America/Los_Angeles) (0 min after it was raised)",
    );
    expect(fact(card, "Acknowledgement")).toBe(
      "Nov 22, 2026, 06:18 PST (America/Los_Angeles) (8 min after it was raised) by Nurse Ana, by phone (recorded by Casey Coordinator); read back confirmed. Note: Neurology paged",
    );
    expect(fact(card, "Acknowledgement due")).toContain("Within the 15-minute window");
    expect(within(card).queryByRole("button")).toBeNull();

    const other = findingCard("Other urgent finding");
    expect(within(other).getByText("Cancelled")).toBeTruthy();
    expect(fact(other, "Cancellation")).toContain("by Casey Coordinator: Artifact: chewing");
    expect(fact(other, "Acknowledgement due")).toContain("Owed nothing: cancelled");
    expect(within(other).queryByRole("button")).toBeNull();
  });

  it("says the findings could not be loaded and reads them again on request", async () => {
    let reads = 0;
    renderPanel({
      groups: ["coordinator"],
      routes: {
        [`GET ${findingsApi}`]: () => {
          reads += 1;
          return reads === 1 ? errorEnvelope(503, "unavailable", "The database is busy") : envelope({ items: [] });
        },
      },
    });
    expect(await screen.findByText("The critical findings could not be loaded: The database is busy")).toBeTruthy();
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("No critical findings on this case.")).toBeTruthy();
  });

  it("reads the findings again when the live stream says the case changed (an escalation went out)", async () => {
    let finding = testFinding();
    const { queryClient } = renderPanel({
      groups: ["coordinator"],
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [finding] }) },
    });
    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    expect(fact(card, "Escalations")).toContain("None so far");
    finding = testFinding({ escalations: 1 });
    await refreshCase(queryClient, { caseId });
    await waitFor(() => expect(fact(card, "Escalations")).toContain("1 so far"));
  });

  it("records an acknowledgement taken by phone: name, time in the client's zone, read back; the finding shows it", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const open = testFinding();
    renderPanel({
      groups: ["coordinator"],
      routes: {
        [`GET ${findingsApi}`]: () => envelope({ items: [open] }),
        [`POST ${findingsApi}/${open.id}/acknowledgement`]: async ({ text }) => {
          sent.push(JSON.parse(await text()));
          return envelope(
            testFinding({
              status: "acknowledged",
              withinWindow: true,
              acknowledgement: {
                at: "2026-11-22T14:20:00.000Z",
                name: "Dr. Lee",
                via: "phone",
                recipientId: null,
                readBackConfirmed: true,
                note: "",
                recordedBy: coordinator,
              },
            }),
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Record phone acknowledgement" }));
    const dialog = await screen.findByRole("dialog", { name: "Record phone acknowledgement" });
    const name = within(dialog).getByRole("textbox", { name: "Acknowledged by" });
    expect(document.activeElement).toBe(name);
    // Required: the dialog says so beside the field and keeps it open.
    await user.click(within(dialog).getByRole("button", { name: "Record acknowledgement" }));
    expect(await within(dialog).findByText("Acknowledged by is required")).toBeTruthy();

    await paste(user, name, "Dr. Lee");
    const at = within(dialog).getByLabelText(/Acknowledged at/);
    fireEvent.change(at, { target: { value: "2026-11-22T06:20" } });
    await user.click(within(dialog).getByRole("checkbox", { name: "They read the finding back correctly" }));
    await user.click(within(dialog).getByRole("button", { name: "Record acknowledgement" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sent).toEqual([
      { name: "Dr. Lee", acknowledgedAt: "2026-11-22T14:20:00.000Z", readBackConfirmed: true, note: "" },
    ]);
    const card = screen.getByRole("article", { name: "Electrographic seizure (ESz)" });
    expect(within(card).getByText("Acknowledged")).toBeTruthy();
    expect(fact(card, "Acknowledgement")).toContain("by Dr. Lee, by phone (recorded by Casey Coordinator)");
  });

  it("sends 'now' to the second when the phone acknowledgement's time is left as the dialog opened", async () => {
    const user = userEvent.setup();
    const sent: { acknowledgedAt: string }[] = [];
    const open = testFinding();
    renderPanel({
      groups: ["coordinator"],
      routes: {
        [`GET ${findingsApi}`]: () => envelope({ items: [open] }),
        [`POST ${findingsApi}/${open.id}/acknowledgement`]: async ({ text }) => {
          sent.push(JSON.parse(await text()));
          return envelope(open);
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Record phone acknowledgement" }));
    const dialog = await screen.findByRole("dialog", { name: "Record phone acknowledgement" });
    expect(within(dialog).getByText(/left as it is, the moment you record it/)).toBeTruthy();
    await paste(user, within(dialog).getByRole("textbox", { name: "Acknowledged by" }), "Dr. Lee");
    const before = Date.now();
    await user.click(within(dialog).getByRole("button", { name: "Record acknowledgement" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const at = Date.parse(sent[0]?.acknowledgedAt ?? "");
    // Not the minute the field shows (which may lie before the finding was raised): the moment it was recorded.
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it("labels a message left unsent because the finding closed first as not needed, never as failed", async () => {
    const acknowledged = testFinding({
      status: "acknowledged",
      withinWindow: true,
      acknowledgement: {
        at: "2026-11-22T14:20:00.000Z",
        name: "Dr. Lee",
        via: "phone",
        recipientId: null,
        readBackConfirmed: true,
        note: "",
        recordedBy: coordinator,
      },
      recipients: [
        testRecipient({
          deliveries: [
            testDelivery({
              status: "not-needed",
              attempts: 0,
              lastError: "Not sent: the finding was already acknowledged.",
              sentAt: null,
            }),
          ],
        }),
      ],
    });
    renderPanel({
      groups: ["coordinator"],
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [acknowledged] }) },
    });
    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    const [row] = within(within(card).getByRole("table")).getAllByRole("row").slice(1) as [HTMLElement];
    expect(row.dataset.status).toBe("not-needed");
    expect(within(row).getByText("Not needed")).toBeTruthy();
    expect(within(row).queryByText("Failed")).toBeNull();
    expect(within(row).getByText("Not sent: the finding was already acknowledged.")).toBeTruthy();
  });

  it("labels a message an earlier try may have handed over as 'may have been sent', never as not needed", async () => {
    const reason =
      "May have been sent: an earlier try may have handed it to the relay or gateway (its server stopped, or the " +
      "transport timed out, before the answer was recorded), and the finding closed before it could be tried again.";
    const cancelled = testFinding({
      status: "cancelled",
      recipients: [
        testRecipient({
          deliveries: [testDelivery({ status: "may-have-been-sent", attempts: 2, lastError: reason, sentAt: null })],
        }),
      ],
    });
    renderPanel({
      groups: ["coordinator"],
      routes: { [`GET ${findingsApi}`]: () => envelope({ items: [cancelled] }) },
    });
    const card = await screen.findByRole("article", { name: "Electrographic seizure (ESz)" });
    const [row] = within(within(card).getByRole("table")).getAllByRole("row").slice(1) as [HTMLElement];
    expect(row.dataset.status).toBe("may-have-been-sent");
    expect(within(row).getByText("May have been sent")).toBeTruthy();
    expect(within(row).queryByText("Not needed")).toBeNull();
    expect(within(row).getByText(new RegExp(`^${reason.slice(0, 40)}`))).toBeTruthy();
  });

  it("cancels a finding with a reason, behind a confirmation", async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    const open = testFinding();
    renderPanel({
      groups: ["coordinator"],
      routes: {
        [`GET ${findingsApi}`]: () => envelope({ items: [open] }),
        [`POST ${findingsApi}/${open.id}/cancellation`]: async ({ text }) => {
          sent.push(JSON.parse(await text()));
          return envelope(
            testFinding({
              status: "cancelled",
              cancellation: { at: "2026-11-22T14:12:00.000Z", reason: "Artifact: chewing", by: coordinator },
              nextEscalationAt: null,
            }),
          );
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Cancel finding" }));
    const dialog = await screen.findByRole("dialog", { name: "Cancel this critical finding?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel finding" }));
    expect(within(dialog).getByText("Reason is required")).toBeTruthy();
    expect(sent).toEqual([]);
    await paste(user, within(dialog).getByRole("textbox", { name: "Reason" }), "Artifact: chewing");
    await user.click(within(dialog).getByRole("button", { name: "Cancel finding" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(sent).toEqual([{ reason: "Artifact: chewing" }]);
    expect(within(findingCard("Electrographic seizure (ESz)")).getByText("Cancelled")).toBeTruthy();
  });
});
